/**
 * Issue 4: plans, purchase with Idempotency-Key, the pay link and the gateway callback through the fake
 * ZarinPal gateway, granting, the status re-check, invoices and the audit rows (spec "Order" state table,
 * Errors, Events).
 */
import { randomUUID } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { tehranDay } from '@mathisland/core/calendar';
import { listUnmatchedEvents } from '@mathisland/core/subscriptions';
import { describe, expect, it } from 'vitest';
import { LOCAL_GATEWAY_MERCHANT_ID } from '../packages/local/src/stack';
import {
  buyAndPay,
  DAY_MS,
  eventsOf,
  fetchManual,
  openPayLink,
  PLAN_30,
  PLAN_90,
  PLAN_180,
  pressOnGateway,
  purchase,
  status,
} from './support/payments';
import { call, freshToken, lastCode, rawCall, signIn, startTestStack, useStack } from './support/stack';

const NOW = Date.UTC(2026, 10, 20, 8, 0, 0);

describe('plans and purchase', () => {
  const stack = useStack({ now: NOW });

  it('offers the seeded 30, 90 and 180 day plans with freeAiDailyQuota, never a marketplace SKU', async () => {
    const res = await call(stack, 'GET', '/api/plans');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.body.freeAiDailyQuota).toBe(2);
    expect(res.body.items.map((p: any) => p.durationDays)).toEqual([30, 90, 180]);
    for (const plan of res.body.items) {
      expect(Object.keys(plan).sort()).toEqual(['aiDailyQuota', 'badge', 'durationDays', 'features', 'id', 'popular', 'price', 'title']);
      expect(plan.aiDailyQuota).toBe(4);
    }
    expect(res.text).not.toMatch(/sku/i);
    expect(res.body.items.find((p: any) => p.id === PLAN_90)).toMatchObject({ price: 379_000, popular: true });
  });

  it('does not offer a plan that is off sale, and refuses to sell it', async () => {
    const { getPlan, savePlan } = await import('@mathisland/core/subscriptions');
    const plan = (await getPlan(stack.deps, PLAN_180))!;
    await savePlan(stack.deps.db, { ...plan, onSale: false });
    try {
      const res = await call(stack, 'GET', '/api/plans');
      expect(res.body.items.map((p: any) => p.id)).toEqual([PLAN_30, PLAN_90]);
      const s = await signIn(stack);
      const bought = await purchase(stack, s, { planId: PLAN_180, paymentMethod: 'gateway' });
      expect(bought.status).toBe(400);
      expect(bought.body).toMatchObject({ code: 'validation_error', fields: { planId: expect.any(Array) } });
    } finally {
      await savePlan(stack.deps.db, plan);
    }
  });

  it('keeps marketplace SKUs unique across plans', async () => {
    const { getPlan, savePlan } = await import('@mathisland/core/subscriptions');
    const one = (await getPlan(stack.deps, PLAN_30))!;
    const three = (await getPlan(stack.deps, PLAN_90))!;
    await expect(savePlan(stack.deps.db, { ...one, marketplaceSku: three.marketplaceSku })).rejects.toMatchObject({
      code: 'validation_error',
      extra: { fields: { marketplaceSku: expect.any(Array) } },
    });
    expect((await getPlan(stack.deps, PLAN_30))!.marketplaceSku).toBe(one.marketplaceSku);
    // A freed SKU can be taken by another plan.
    await savePlan(stack.deps.db, { ...one, marketplaceSku: 'renamed_1m' });
    await savePlan(stack.deps.db, { ...three, marketplaceSku: one.marketplaceSku });
    expect((await getPlan(stack.deps, PLAN_90))!.marketplaceSku).toBe(one.marketplaceSku);
    await savePlan(stack.deps.db, three);
    await savePlan(stack.deps.db, one);
  });

  it('creates a pending order that snapshots the plan, answering orderId and paymentUrl (201)', async () => {
    const s = await signIn(stack);
    const res = await purchase(stack, s, { planId: PLAN_90, paymentMethod: 'gateway' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ orderId: expect.any(Number), planId: PLAN_90, listPrice: 379_000, discount: 0, amount: 379_000 });
    expect(res.body.paymentUrl).toMatch(
      new RegExp(`^${stack.baseUrl}/api/payment/orders/${res.body.orderId}/pay\\?sig=[A-Za-z0-9_-]{22}$`),
    );
    const { getOrder } = await import('@mathisland/core/subscriptions');
    const order = await getOrder(stack.deps, res.body.orderId);
    expect(order).toMatchObject({
      status: 'pending',
      provider: 'gateway',
      planTitle: 'اشتراک سه‌ماهه',
      durationDays: 90,
      listPrice: 379_000,
    });
    expect(order.authority).toBeUndefined();
    expect((await eventsOf(stack, order.id)).map((e) => e.kind)).toEqual(['order_created']);
  });

  it('replays the same Idempotency-Key and refuses it for another plan or provider (409)', async () => {
    const s = await signIn(stack);
    const key = randomUUID();
    const first = await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway' }, key);
    const again = await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway' }, key);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');

    const otherPlan = await purchase(stack, s, { planId: PLAN_90, paymentMethod: 'gateway' }, key);
    expect(otherPlan.status).toBe(409);
    expect(otherPlan.body.code).toBe('idempotency_conflict');
    const otherProvider = await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'marketplace' }, key);
    expect(otherProvider.status).toBe(409);
    expect(otherProvider.body.code).toBe('idempotency_conflict');
    const otherCode = await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway', discountCode: 'WELCOME10' }, key);
    expect(otherCode.status).toBe(409);

    // Another user's same key is theirs.
    const t = await signIn(stack);
    const theirs = await purchase(stack, t, { planId: PLAN_30, paymentMethod: 'gateway' }, key);
    expect(theirs.status).toBe(201);
    expect(theirs.body.orderId).not.toBe(first.body.orderId);
  });

  it('creates one order when two requests race with one key', async () => {
    const s = await signIn(stack);
    const key = randomUUID();
    const results = await Promise.all([0, 1, 2].map(() => purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway' }, key)));
    expect(results.map((r) => r.status)).toEqual([201, 201, 201]);
    expect(new Set(results.map((r) => r.body.orderId)).size).toBe(1);
  });

  it('refuses an unknown paymentMethod and a missing Idempotency-Key (marketplace purchases: tests/marketplace.test.ts)', async () => {
    const s = await signIn(stack);
    const unknown = await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'cash' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'validation_error', fields: { paymentMethod: expect.any(Array) } });
    const noKey = await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway' }, null);
    expect(noKey.status).toBe(400);
    expect(noKey.body.fields).toHaveProperty('Idempotency-Key');
    const badKey = await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway' }, 'short');
    expect(badKey.status).toBe(400);
    const unknownField = await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway', price: 1 });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.fields).toEqual({ price: ['Unknown field'] });
    expect((await call(stack, 'POST', '/api/subscription/purchase', { body: { planId: 1, paymentMethod: 'gateway' } })).status).toBe(401);
  });
});

describe('paying through the gateway', () => {
  const stack = useStack({ now: NOW, env: { INVOICE_PREFIX: 'MI' } });

  it('pending → paid: pay link, Pay on the gateway, callback verifies, grants the days and lands on the frontend', async () => {
    const s = await signIn(stack);
    const bought = await purchase(stack, s, { planId: PLAN_90, paymentMethod: 'gateway' });
    const startPay = await openPayLink(bought.body.paymentUrl);
    expect(startPay).toMatch(new RegExp(`^${stack.baseUrl}/_local/gateway/pg/StartPay/S[0-9A-Za-z]{35}$`));
    // The gateway was asked for the order's amount in rial, with our callback.
    const authority = startPay.split('/').at(-1)!;
    expect(stack.gateway.payments.get(authority)).toMatchObject({
      amount: 3_790_000,
      currency: 'IRR',
      callbackUrl: `${stack.baseUrl}/api/payment/gateway/callback`,
    });
    // A second visit reuses the stored authority.
    expect(await openPayLink(bought.body.paymentUrl)).toBe(startPay);

    const callbackUrl = await pressOnGateway(startPay, 'pay');
    expect(callbackUrl).toBe(`${stack.baseUrl}/api/payment/gateway/callback?Authority=${authority}&Status=OK`);
    const back = await fetchManual(callbackUrl);
    expect(back.status).toBe(302);
    expect(back.headers.get('cache-control')).toBe('private, no-store');
    expect(back.headers.get('location')).toBe(`${stack.baseUrl}/?orderId=${bought.body.orderId}&status=paid`);

    const st = await status(stack, s);
    expect(st).toMatchObject({
      status: 'active',
      active: true,
      plan: { id: PLAN_90, title: 'اشتراک سه‌ماهه' },
      aiDailyQuota: 4,
      expiresAt: new Date(NOW + 90 * DAY_MS).toISOString(),
    });
    const summary = await call(stack, 'GET', '/api/user/summary', { token: s.accessToken });
    expect(summary.body.activePlan).toBe('اشتراک سه‌ماهه');

    const invoices = await call(stack, 'GET', '/api/payment/invoices', { token: s.accessToken });
    expect(invoices.body.items).toHaveLength(1);
    expect(invoices.body.items[0]).toMatchObject({
      invoiceNumber: `MI-${String(bought.body.orderId).padStart(6, '0')}`,
      orderId: bought.body.orderId,
      amount: 379_000,
      status: 'paid',
      refId: expect.any(String),
    });

    const kinds = (await eventsOf(stack, bought.body.orderId)).map((e) => e.kind).sort();
    expect(kinds).toEqual(['callback_received', 'gateway_redirect', 'order_created', 'payment_result']);

    // The finished order's pay link now goes to the frontend.
    expect(await openPayLink(bought.body.paymentUrl)).toBe(`${stack.baseUrl}/?orderId=${bought.body.orderId}&status=paid`);
  });

  it('pending → failed: Cancel on the gateway, the callback verifies (-51) and lands with status=failed; no grant', async () => {
    const s = await signIn(stack);
    const { orderId, landing } = await buyAndPay(stack, s, PLAN_30, 'cancel');
    expect(landing).toBe(`${stack.baseUrl}/?orderId=${orderId}&status=failed`);
    expect((await status(stack, s)).status).toBe('none');
    const result = (await eventsOf(stack, orderId)).find((e) => e.kind === 'payment_result');
    expect(result).toMatchObject({ result: 'failed', ignored: false, gatewayCode: -51, via: 'callback' });
    expect((await call(stack, 'GET', '/api/payment/invoices', { token: s.accessToken })).body.items).toEqual([]);
  });

  it('verifies server to server even when the callback says OK for an unpaid order (forged): no grant', async () => {
    const s = await signIn(stack);
    const bought = await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway' });
    const startPay = await openPayLink(bought.body.paymentUrl);
    const authority = startPay.split('/').at(-1)!;
    const forged = await fetchManual(`${stack.baseUrl}/api/payment/gateway/callback?Authority=${authority}&Status=OK`);
    expect(forged.headers.get('location')).toBe(`${stack.baseUrl}/?orderId=${bought.body.orderId}&status=failed`);
    expect((await status(stack, s)).active).toBe(false);
    // The real payer then pays on the page they still have open: money taken is granted.
    const callbackUrl = await pressOnGateway(startPay, 'pay');
    const back = await fetchManual(callbackUrl);
    expect(back.headers.get('location')).toBe(`${stack.baseUrl}/?orderId=${bought.body.orderId}&status=paid`);
    expect((await status(stack, s)).active).toBe(true);
  });

  it('records a callback with an unknown authority and changes nothing (404)', async () => {
    const s = await signIn(stack);
    const bought = await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway' });
    await openPayLink(bought.body.paymentUrl);
    const forged = `S${'x'.repeat(35)}`;
    const res = await call(stack, 'GET', `/api/payment/gateway/callback?Authority=${forged}&Status=OK`);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
    const unmatched = await listUnmatchedEvents(stack.deps, tehranDay(stack.clock.now()));
    const mine = unmatched.filter((e) => e.authority === forged);
    expect(mine.map((e) => e.kind).sort()).toEqual(['callback_unknown_authority', 'payment_result']);
    expect(mine.find((e) => e.kind === 'payment_result')).toMatchObject({ ignored: true, reason: 'unknown_authority' });
    const { getOrder } = await import('@mathisland/core/subscriptions');
    expect((await getOrder(stack.deps, bought.body.orderId)).status).toBe('pending');
    expect((await status(stack, s)).status).toBe('none');
  });

  it('answers 400 for a callback without an authority', async () => {
    const res = await call(stack, 'GET', '/api/payment/gateway/callback?Status=OK');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_error', fields: { Authority: ['required'] } });
  });

  it('grants once for two callbacks at once (100 then 101), recording the second as an ignored duplicate', async () => {
    const s = await signIn(stack);
    const bought = await purchase(stack, s, { planId: PLAN_90, paymentMethod: 'gateway' });
    const callbackUrl = await pressOnGateway(await openPayLink(bought.body.paymentUrl), 'pay');
    const [a, b] = await Promise.all([fetchManual(callbackUrl), fetchManual(callbackUrl)]);
    expect([a.headers.get('location'), b.headers.get('location')]).toEqual([
      `${stack.baseUrl}/?orderId=${bought.body.orderId}&status=paid`,
      `${stack.baseUrl}/?orderId=${bought.body.orderId}&status=paid`,
    ]);
    expect((await status(stack, s)).expiresAt).toBe(new Date(NOW + 90 * DAY_MS).toISOString());
    const results = (await eventsOf(stack, bought.body.orderId)).filter((e) => e.kind === 'payment_result');
    expect(results.filter((e) => !e.ignored)).toHaveLength(1);
    expect(results.filter((e) => e.ignored)).toEqual([expect.objectContaining({ reason: 'duplicate', result: 'unchanged' })]);
    expect(results.map((e) => e.gatewayCode).sort()).toEqual([100, 101]);

    // A later replay of the callback, even with NOK, never takes a paid order back to failed.
    const nok = await fetchManual(callbackUrl.replace('Status=OK', 'Status=NOK'));
    expect(nok.headers.get('location')).toContain('status=paid');
    expect((await status(stack, s)).expiresAt).toBe(new Date(NOW + 90 * DAY_MS).toISOString());
  });

  it('answers JSON { orderId, status } when GATEWAY_REDIRECT is -', async () => {
    const json = await startTestStack({ now: NOW, env: { GATEWAY_REDIRECT: '-' } });
    try {
      const s = await signIn(json);
      const bought = await purchase(json, s, { planId: PLAN_30, paymentMethod: 'gateway' });
      const callbackUrl = await pressOnGateway(await openPayLink(bought.body.paymentUrl), 'pay');
      const res = await fetchManual(callbackUrl);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await res.json()).toEqual({ orderId: bought.body.orderId, status: 'paid' });
    } finally {
      await json.close();
    }
  });

  it('makes a payment whose redirect was lost paid on GET /api/subscription/status (re-check)', async () => {
    const s = await signIn(stack);
    const bought = await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway' });
    await pressOnGateway(await openPayLink(bought.body.paymentUrl), 'pay'); // the browser never comes back
    const st = await status(stack, s);
    expect(st).toMatchObject({ status: 'active', recheckedOrders: [{ orderId: bought.body.orderId, status: 'paid' }] });
    const result = (await eventsOf(stack, bought.body.orderId)).find((e) => e.kind === 'payment_result');
    expect(result).toMatchObject({ via: 'recheck', result: 'paid', ignored: false, gatewayCode: 100 });
    // Nothing left to re-check.
    expect((await status(stack, s)).recheckedOrders).toEqual([]);
  });

  it('leaves an unpaid order pending on the re-check (the payer may still be on the gateway page)', async () => {
    const s = await signIn(stack);
    const bought = await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway' });
    await openPayLink(bought.body.paymentUrl);
    const st = await status(stack, s);
    expect(st).toMatchObject({ status: 'none', recheckedOrders: [] });
    const { getOrder } = await import('@mathisland/core/subscriptions');
    expect((await getOrder(stack.deps, bought.body.orderId)).status).toBe('pending');
  });

  it('marks a checkout abandoned for an hour failed on the re-check, giving its discount use back', async () => {
    const s = await signIn(stack);
    const bought = await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway', discountCode: 'WELCOME10' });
    const startPay = await openPayLink(bought.body.paymentUrl);
    const { getOrder, recheckOrders } = await import('@mathisland/core/subscriptions');
    stack.clock.advance(59 * 60);
    expect(await recheckOrders(stack.deps, s.userId)).toEqual([]);
    expect((await getOrder(stack.deps, bought.body.orderId)).status).toBe('pending');
    stack.clock.advance(60);
    expect(await recheckOrders(stack.deps, s.userId)).toEqual([{ orderId: bought.body.orderId, status: 'failed' }]);
    const result = (await eventsOf(stack, bought.body.orderId)).find((e) => e.kind === 'payment_result');
    expect(result).toMatchObject({ via: 'recheck', result: 'failed', reason: 'not_paid', gatewayCode: -51 });
    // The use came back: the same learner can apply WELCOME10 (one use per user) to a new order.
    const later = { ...s, accessToken: await freshToken(stack, s) }; // past the 1-hour access token
    expect((await purchase(stack, later, { planId: PLAN_30, paymentMethod: 'gateway', discountCode: 'WELCOME10' })).status).toBe(201);
    // A payer who comes back after all still gets what they pay for.
    const back = await fetchManual(await pressOnGateway(startPay, 'pay'));
    expect(back.headers.get('location')).toContain('status=paid');
  });

  it('still marks a payment paid when the buyer deleted the account meanwhile, granting nothing', async () => {
    const s = await signIn(stack);
    const bought = await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway' });
    const callbackUrl = await pressOnGateway(await openPayLink(bought.body.paymentUrl), 'pay');
    stack.clock.advance(61); // the sign-in code's resend cooldown
    expect((await call(stack, 'POST', '/api/auth/otp/request', { body: { phone: s.phone } })).status).toBe(200);
    const deleted = await call(stack, 'POST', '/api/user/delete', { token: s.accessToken, body: { otp: await lastCode(stack, s.phone) } });
    expect(deleted.status, deleted.text).toBeLessThan(300);
    const back = await fetchManual(callbackUrl);
    expect(back.headers.get('location')).toBe(`${stack.baseUrl}/?orderId=${bought.body.orderId}&status=paid`);
    const { getOrder } = await import('@mathisland/core/subscriptions');
    const order = await getOrder(stack.deps, bought.body.orderId);
    expect(order).toMatchObject({ status: 'paid', refId: expect.any(String) });
    expect(order.grant).toBeUndefined();
    const result = (await eventsOf(stack, bought.body.orderId)).find((e) => e.kind === 'payment_result');
    expect(result).toMatchObject({ result: 'paid', ignored: false, reason: 'account_deleted' });
    stack.clock.set(NOW);
  });

  it('builds the pay link and the gateway callback from PUBLIC_BASE_URL, never from the Host header (DESIGN §11)', async () => {
    const s = await signIn(stack);
    const forged = { host: 'evil.example', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example' };
    const bought = await rawCall(stack, 'POST', '/api/subscription/purchase', {
      body: { planId: PLAN_30, paymentMethod: 'gateway' },
      headers: { authorization: `Bearer ${s.accessToken}`, 'content-type': 'application/json', 'idempotency-key': randomUUID(), ...forged },
    });
    expect(bought.status).toBe(201);
    expect(bought.body.paymentUrl.startsWith(`${stack.baseUrl}/api/payment/orders/`)).toBe(true);
    const link = new URL(bought.body.paymentUrl);
    const startPay = await rawCall(stack, 'GET', `${link.pathname}${link.search}`, { headers: forged });
    expect(startPay.status).toBe(302);
    const callback = await pressOnGateway(startPay.headers.get('location') as string, 'pay');
    expect(callback.startsWith(`${stack.baseUrl}/api/payment/gateway/callback?`)).toBe(true);
  });

  it('refuses a pay link with a wrong or missing signature (404), and an unknown order', async () => {
    const s = await signIn(stack);
    const bought = await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway' });
    const url = new URL(bought.body.paymentUrl);
    expect((await call(stack, 'GET', url.pathname)).status).toBe(404);
    expect((await call(stack, 'GET', `${url.pathname}?sig=${'A'.repeat(22)}`)).status).toBe(404);
    const next = new URL(bought.body.paymentUrl.replace(`/orders/${bought.body.orderId}/`, `/orders/${bought.body.orderId + 1000}/`));
    expect((await call(stack, 'GET', `${next.pathname}${next.search}`)).status).toBe(404);
    expect((await call(stack, 'GET', '/api/payment/orders/۱۲/pay')).status).toBe(400);
  });
});

describe('granting and the subscription states', () => {
  const stack = useStack({ now: NOW });

  it('extends a renewal from the current expiry; opening checkout never demotes; expired is not active', async () => {
    const s = await signIn(stack);
    await buyAndPay(stack, s, PLAN_30);
    const first = NOW + 30 * DAY_MS;
    expect((await status(stack, s)).expiresAt).toBe(new Date(first).toISOString());

    // Ten days later: opening checkout (purchase + pay link) leaves the active subscription as it is.
    stack.clock.set(NOW + 10 * DAY_MS);
    let session = await signIn(stack, s.phone);
    const pending = await purchase(stack, session, { planId: PLAN_90, paymentMethod: 'gateway' });
    const startPay = await openPayLink(pending.body.paymentUrl);
    expect(await status(stack, session)).toMatchObject({
      status: 'active',
      plan: { id: PLAN_30 },
      expiresAt: new Date(first).toISOString(),
    });

    // Paying it extends from the current expiry, not from now.
    await fetchManual(await pressOnGateway(startPay, 'pay'));
    const renewed = first + 90 * DAY_MS;
    expect(await status(stack, session)).toMatchObject({
      status: 'active',
      plan: { id: PLAN_90 },
      expiresAt: new Date(renewed).toISOString(),
    });

    // After the end it is expired and not active; the summary agrees; the free quota applies.
    stack.clock.set(renewed);
    session = await signIn(stack, s.phone);
    expect(await status(stack, session)).toMatchObject({ status: 'expired', active: false, aiDailyQuota: 2 });
    expect((await call(stack, 'GET', '/api/user/summary', { token: session.accessToken })).body.activePlan).toBeNull();

    // A purchase after expiry starts from now.
    const later = renewed + 5 * DAY_MS;
    stack.clock.set(later);
    session = await signIn(stack, s.phone);
    await buyAndPay(stack, session, PLAN_30);
    expect((await status(stack, session)).expiresAt).toBe(new Date(later + 30 * DAY_MS).toISOString());
    stack.clock.set(NOW);
  });
});

describe('the gateway turned off, unreachable or refusing', () => {
  it('answers 503 gateway_unavailable with Retry-After when GATEWAY_MERCHANT_ID is empty', async () => {
    const stack = await startTestStack({ now: NOW, env: { GATEWAY_MERCHANT_ID: '' } });
    try {
      const s = await signIn(stack);
      const res = await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway' });
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('gateway_unavailable');
      expect(res.headers.get('retry-after')).toBe('60');
      // An order made while it was on: the pay link fails closed too.
      const { purchase: buy } = await import('@mathisland/core/subscriptions');
      const { getUser } = await import('@mathisland/core/auth');
      const user = (await getUser(stack.deps.db, s.userId))!;
      const on = { ...stack.deps, gateway: { ...stack.deps.gateway, configured: true } };
      const { response } = await buy(on, user, { planId: PLAN_30, paymentMethod: 'gateway', idempotencyKey: randomUUID() });
      const link = await fetchManual(response.paymentUrl!);
      expect(link.status).toBe(503);
      expect((await link.json()).code).toBe('gateway_unavailable');
      // Health reports the gateway off.
      const health = await call(stack, 'GET', '/api/health', { headers: { 'x-internal-key': 'test-internal-key-0123456789' } });
      expect(health.body.integrations.gateway).toBe(false);
    } finally {
      await stack.close();
    }
  });

  it('fails the start with -14 naming the fix, and records gateway_request_failed', async () => {
    const stack = await startTestStack({ now: NOW });
    try {
      const s = await signIn(stack);
      const bought = await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway' });
      const set = await call(stack, 'POST', '/_local/gateway/terminal', { body: { registeredDomain: 'pay.mathisland.example' } });
      expect(set.body).toEqual({ registeredDomain: 'pay.mathisland.example' });
      const res = await fetchManual(bought.body.paymentUrl);
      expect(res.status).toBe(503);
      const body = await res.json();
      expect(body.code).toBe('gateway_unavailable');
      expect(body.detail).toContain('-14');
      // A domain, as the gateway panel takes it: no port (the local stack's PUBLIC_BASE_URL has one).
      expect(body.detail).toContain('register the API domain localhost in the gateway panel');
      expect(body.detail).not.toContain(`:${stack.port}`);
      const failed = (await eventsOf(stack, bought.body.orderId)).find((e) => e.kind === 'gateway_request_failed');
      expect(failed).toMatchObject({ gatewayCode: -14 });
      // Registering the right domain fixes it.
      await call(stack, 'POST', '/_local/gateway/terminal', { body: { registeredDomain: 'localhost' } });
      expect(await openPayLink(bought.body.paymentUrl)).toContain('/_local/gateway/pg/StartPay/');
    } finally {
      await stack.close();
    }
  });

  it('answers 503 and records gateway_request_failed when the gateway cannot be reached; the order stays pending', async () => {
    const stack = await startTestStack({
      now: NOW,
      env: { GATEWAY_MERCHANT_ID: LOCAL_GATEWAY_MERCHANT_ID, GATEWAY_BASE_URL: 'http://127.0.0.1:9' },
    });
    try {
      const s = await signIn(stack);
      const bought = await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway' });
      const res = await fetchManual(bought.body.paymentUrl);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('60');
      expect((await eventsOf(stack, bought.body.orderId)).map((e) => e.kind)).toContain('gateway_request_failed');
      const { getOrder } = await import('@mathisland/core/subscriptions');
      expect((await getOrder(stack.deps, bought.body.orderId)).status).toBe('pending');
      // The status read still answers (the re-check is skipped without an authority).
      expect((await status(stack, s)).status).toBe('none');
    } finally {
      await stack.close();
    }
  });
});

describe('audit rows', () => {
  const stack = useStack({ now: NOW });

  it('never hold a secret, a token, a merchant id or an idempotency key', async () => {
    const s = await signIn(stack);
    const key = `key-${randomUUID()}`;
    const bought = await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway', discountCode: 'welcome10' }, key);
    expect(bought.status).toBe(201);
    const callbackUrl = await pressOnGateway(await openPayLink(bought.body.paymentUrl), 'pay');
    await Promise.all([fetchManual(callbackUrl), fetchManual(callbackUrl)]);
    await call(stack, 'GET', `/api/payment/gateway/callback?Authority=S${'z'.repeat(35)}&Status=OK`);
    const scan = await stack.deps.db.doc.send(
      new ScanCommand({ TableName: stack.deps.db.tableName, FilterExpression: 'attribute_exists(kind)' }),
    );
    const rows = (scan.Items ?? []).filter((r) => String(r.sk).startsWith('EVENT#') || String(r.pk).startsWith('PAYEVENT#'));
    expect(new Set(rows.map((r) => r.kind))).toEqual(
      new Set([
        'order_created',
        'discount_applied',
        'gateway_redirect',
        'callback_received',
        'payment_result',
        'callback_unknown_authority',
      ]),
    );
    const text = JSON.stringify(rows);
    for (const secret of [LOCAL_GATEWAY_MERCHANT_ID, stack.deps.settings.secretKey!, s.accessToken, s.refreshToken, key, 'card_hash']) {
      expect(text).not.toContain(secret);
    }
  });
});
