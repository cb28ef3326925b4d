/**
 * Test support for the purchase path: buy a plan, follow the pay link to the fake gateway, press Pay or Cancel
 * there, come back through the callback, all over HTTP as a browser would; plus direct reads of the audit rows
 * and a staff session for the admin API.
 */
import { randomUUID } from 'node:crypto';
import { createStaff, type StaffPermission } from '@mathisland/core/admin';
import { listOrderEvents, type PaymentEvent } from '@mathisland/core/subscriptions';
import { expect } from 'vitest';
import { type ApiResponse, call, type Session, type TestStack } from './stack';

export const PLAN_30 = 1;
export const PLAN_90 = 2;
export const PLAN_180 = 3;
export const DAY_MS = 86_400_000;

/** A GET or POST of an absolute URL without following redirects. */
export async function fetchManual(url: string, init: RequestInit = {}): Promise<Response> {
  return fetch(url, { redirect: 'manual', ...init });
}

/** `POST /api/subscription/purchase` with an Idempotency-Key (a fresh one unless given). */
export function purchase(
  stack: TestStack,
  session: Session,
  body: Record<string, unknown>,
  key: string | null = randomUUID(),
): Promise<ApiResponse> {
  return call(stack, 'POST', '/api/subscription/purchase', {
    token: session.accessToken,
    body,
    headers: key === null ? {} : { 'idempotency-key': key },
  });
}

/** Opens the pay link; expects a redirect and returns its Location. */
export async function openPayLink(paymentUrl: string): Promise<string> {
  const res = await fetchManual(paymentUrl);
  expect(res.status, await res.clone().text()).toBe(302);
  expect(res.headers.get('cache-control')).toBe('private, no-store');
  return res.headers.get('location') as string;
}

/** Presses Pay or Cancel on the fake gateway's start page; returns the callback URL it redirects to. */
export async function pressOnGateway(startPayUrl: string, action: 'pay' | 'cancel'): Promise<string> {
  const page = await fetchManual(startPayUrl);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('name="action"');
  const res = await fetchManual(startPayUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `action=${action}`,
  });
  expect(res.status).toBe(302);
  return res.headers.get('location') as string;
}

/** Buys `planId` and pays it on the fake gateway, following the callback; returns the order id and the final redirect. */
export async function buyAndPay(
  stack: TestStack,
  session: Session,
  planId: number,
  action: 'pay' | 'cancel' = 'pay',
): Promise<{ orderId: number; landing: string; callbackUrl: string }> {
  const bought = await purchase(stack, session, { planId, paymentMethod: 'gateway' });
  expect(bought.status, bought.text).toBe(201);
  const startPay = await openPayLink(bought.body.paymentUrl);
  const callbackUrl = await pressOnGateway(startPay, action);
  const back = await fetchManual(callbackUrl);
  expect(back.status).toBe(302);
  return { orderId: bought.body.orderId, landing: back.headers.get('location') as string, callbackUrl };
}

/** The subscription status of the session's user. */
export async function status(stack: TestStack, session: Session): Promise<any> {
  const res = await call(stack, 'GET', '/api/subscription/status', { token: session.accessToken });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** The audit rows of an order, read from the table. */
export const eventsOf = (stack: TestStack, orderId: number): Promise<PaymentEvent[]> => listOrderEvents(stack.deps, orderId);

/** Creates a staff member and signs in; returns the Cookie header value of the session. */
export async function staffSession(
  stack: TestStack,
  options: { isSuperuser?: boolean; permissions?: StaffPermission[]; username?: string } = {},
): Promise<{ cookie: string; username: string; password: string; setCookie: string }> {
  const username = options.username ?? `staff-${randomUUID().slice(0, 8)}`;
  const password = `pw-${randomUUID()}`;
  await createStaff(stack.deps.db, stack.clock, {
    username,
    password,
    isSuperuser: options.isSuperuser ?? false,
    permissions: options.permissions,
  });
  let res = await call(stack, 'POST', '/api/admin/login', { body: { username, password } });
  if (res.status === 429) {
    // Admin login is throttled per address (120 an hour): files that sign many staff members in move on an hour.
    stack.clock.advance(3600);
    res = await call(stack, 'POST', '/api/admin/login', { body: { username, password } });
  }
  expect(res.status, res.text).toBe(200);
  const setCookie = res.headers.get('set-cookie') as string;
  return { cookie: setCookie.split(';')[0] as string, username, password, setCookie };
}

/** A call of the admin API with a session cookie. */
export const admin = (stack: TestStack, cookie: string | undefined, method: string, path: string, body?: unknown) =>
  call(stack, method, path, { body, headers: cookie ? { cookie } : {} });
