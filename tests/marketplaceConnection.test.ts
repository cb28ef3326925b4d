/**
 * Issue 17: the marketplace credential (spec Authentication 8 and 9, "Marketplace credential"; DESIGN §8): the
 * static secret taking precedence, the OAuth authorization window staff open (admin API and
 * `npm run marketplace:authorize`), the owner's consent on the fake marketplace, the one-time code exchange (form
 * encoded), the refresh token stored and the access token cached then refreshed; the admin view of the connection;
 * and the signed dynamic price of a discounted marketplace order.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { getItem } from '@mathisland/core/db';
import { getOrder } from '@mathisland/core/subscriptions';
import { decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import {
  boughtAndPaidInApp,
  buyOnMarketplace,
  injectFault,
  marketplaceCalls,
  mintPurchase,
  startOrder,
  verifyPurchase,
} from './support/marketplace';
import { admin, fetchManual, PLAN_30, staffSession } from './support/payments';
import { call, freshToken, signIn, type TestStack, useStack } from './support/stack';

const NOW = Date.UTC(2026, 10, 20, 8, 0, 0);
const HOUR_MS = 3_600_000;
const INTERNAL = { 'x-internal-key': 'test-internal-key-0123456789' };

/** The owner opens the consent link and presses Approve (or Deny); returns where the marketplace sends them back. */
async function ownerConsents(authorizeUrl: string, action: 'approve' | 'deny' = 'approve'): Promise<string> {
  const page = await fetchManual(authorizeUrl);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('value="approve"');
  const res = await fetchManual(authorizeUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `action=${action}`,
  });
  expect(res.status).toBe(302);
  return res.headers.get('location') as string;
}

/** A staff member holding `change_marketplacecredential` opens a window; the answer, with who they are (`staff`). */
async function openWindow(stack: TestStack, body?: unknown) {
  const { cookie, username } = await staffSession(stack, { permissions: ['change_marketplacecredential'] });
  return { ...(await admin(stack, cookie, 'POST', '/api/admin/marketplace/authorize-window', body)), staff: username };
}

describe('OAuth (no static secret): the authorization window and the one-time code exchange', () => {
  const stack = useStack({ now: NOW, env: { MARKETPLACE_API_SECRET: '' } });

  it('fails closed before the owner authorized: purchases invalid, health false, the exchange refused outside a window', async () => {
    const s = await signIn(stack);
    const { orderId, purchaseToken } = await boughtAndPaidInApp(stack, s, PLAN_30);
    const res = await verifyPurchase(stack, s, orderId, purchaseToken);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('purchase_invalid');
    expect((await getOrder(stack.deps, orderId)).status).toBe('pending');
    expect((await call(stack, 'GET', '/api/health', { headers: INTERNAL })).body.integrations.marketplace).toBe(false);
    const { cookie } = await staffSession(stack, { permissions: ['view_marketplacecredential'] });
    expect((await admin(stack, cookie, 'GET', '/api/admin/marketplace')).body).toEqual({
      mode: 'oauth',
      connected: false,
      window: { open: false, expiresAt: null, authorizeUrl: null },
    });
    const closed = await call(stack, 'GET', '/api/payment/marketplace/verify?code=abc&state=xyz');
    expect(closed.status).toBe(403);
    expect(closed.body.code).toBe('authorization_window_closed');
  });

  it('connects: staff open a window (72 h), the owner approves, the code is exchanged once, the refresh token stored', async () => {
    const opened = await openWindow(stack);
    expect(opened.status, opened.text).toBe(200);
    expect(opened.body.expiresAt).toBe(new Date(NOW + 72 * HOUR_MS).toISOString());
    const link = new URL(opened.body.authorizeUrl);
    expect(`${link.origin}${link.pathname}`).toBe(`${stack.baseUrl}/_local/marketplace/devapi/v2/auth/authorize/`);
    expect(Object.fromEntries(link.searchParams)).toEqual({
      response_type: 'code',
      access_type: 'offline',
      redirect_uri: `${stack.baseUrl}/api/payment/marketplace/verify`,
      client_id: 'local-marketplace-client',
      state: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
    });
    const { cookie } = await staffSession(stack, { permissions: ['view_marketplacecredential'] });
    expect((await admin(stack, cookie, 'GET', '/api/admin/marketplace')).body.window).toEqual({
      open: true,
      expiresAt: opened.body.expiresAt,
      authorizeUrl: opened.body.authorizeUrl,
    });

    // The owner approves a minute later.
    stack.clock.advance(60);
    const back = await ownerConsents(opened.body.authorizeUrl);
    const backUrl = new URL(back);
    expect(`${backUrl.origin}${backUrl.pathname}`).toBe(`${stack.baseUrl}/api/payment/marketplace/verify`);
    expect(backUrl.searchParams.get('state')).toBe(link.searchParams.get('state'));
    const from = stack.marketplace.requests.length;
    const done = await fetchManual(back);
    expect(done.status, await done.clone().text()).toBe(200);
    expect(await done.json()).toEqual({ mode: 'oauth', connected: true });
    // The exchange is form-encoded, as the marketplace's token endpoint wants.
    expect(marketplaceCalls(stack, from)).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: '/devapi/v2/auth/token/',
        contentType: expect.stringMatching(/^application\/x-www-form-urlencoded/),
        grantType: 'authorization_code',
      }),
    ]);
    expect((await admin(stack, cookie, 'GET', '/api/admin/marketplace')).body).toEqual({
      mode: 'oauth',
      connected: true,
      window: { open: false, expiresAt: null, authorizeUrl: null },
    });
    expect((await call(stack, 'GET', '/api/health', { headers: INTERNAL })).body.integrations.marketplace).toBe(true);
    // The same code again: the window is closed.
    expect((await fetchManual(back)).status).toBe(403);

    // The connection's history (its page in the panel; view_marketplacecredential is enough): the window opened by
    // the staff member, then the credential stored on their behalf, its refresh token never shown.
    const history = await admin(stack, cookie, 'GET', '/api/admin/history?model=marketplacecredential&objectId=connection');
    expect(history.status, history.text).toBe(200);
    const openedAt = new Date(NOW).toISOString();
    const approvedAt = new Date(NOW + 60_000).toISOString();
    expect(history.body.items).toEqual([
      expect.objectContaining({
        at: approvedAt,
        staff: opened.staff,
        action: 'change',
        objectRepr: 'marketplace connection',
        changes: { refreshToken: 'changed', obtainedAt: [null, approvedAt], windowClosesAt: [opened.body.expiresAt, null] },
      }),
      expect.objectContaining({
        at: openedAt,
        staff: opened.staff,
        action: 'change',
        changes: { windowClosesAt: [null, opened.body.expiresAt] },
      }),
    ]);
    const stored = await getItem(stack.deps.db, { pk: 'MARKETPLACE#CREDENTIAL', sk: 'OAUTH' }, z.looseObject({ refreshToken: z.string() }));
    const refreshToken = stored?.refreshToken as string;
    expect(refreshToken).toBeTruthy();
    expect(history.text).not.toContain(refreshToken);
  });

  it('verifies with the access token (Bearer), cached until it expires, then refreshed with the stored refresh token', async () => {
    const s = await signIn(stack);
    const first = await boughtAndPaidInApp(stack, s, PLAN_30);
    let from = stack.marketplace.requests.length;
    expect((await verifyPurchase(stack, s, first.orderId, first.purchaseToken)).status).toBe(200);
    expect(marketplaceCalls(stack, from).map((c) => [c.auth, c.grantType])).toEqual([['bearer', undefined]]);

    stack.clock.advance(2 * 3600);
    s.accessToken = await freshToken(stack, s);
    const second = await boughtAndPaidInApp(stack, s, PLAN_30);
    from = stack.marketplace.requests.length;
    expect((await verifyPurchase(stack, s, second.orderId, second.purchaseToken)).status).toBe(200);
    expect(marketplaceCalls(stack, from).map((c) => [c.auth, c.grantType ?? null])).toEqual([
      ['none', 'refresh_token'],
      ['bearer', null],
    ]);
    expect(marketplaceCalls(stack, from)[0]!.contentType).toMatch(/^application\/x-www-form-urlencoded/);
  });

  it('answers 503 and leaves the order pending when the token endpoint fails during a refresh', async () => {
    stack.clock.advance(2 * 3600);
    const s = await signIn(stack);
    const { orderId, purchaseToken } = await boughtAndPaidInApp(stack, s, PLAN_30);
    await injectFault(stack, { status: 500 });
    const res = await verifyPurchase(stack, s, orderId, purchaseToken);
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('marketplace_unavailable');
    expect((await getOrder(stack.deps, orderId)).status).toBe('pending');
    expect((await verifyPurchase(stack, s, orderId, purchaseToken)).status).toBe(200);
  });

  it('refuses another state (400), the owner’s denial (400), and a code after the window closed (403)', async () => {
    const opened = await openWindow(stack, { hours: 1 });
    expect(opened.body.expiresAt).toBe(new Date(stack.clock.now() + HOUR_MS).toISOString());
    const back = new URL(await ownerConsents(opened.body.authorizeUrl));
    const forged = new URL(back);
    forged.searchParams.set('state', 'not-the-state');
    const wrongState = await fetchManual(forged.toString());
    expect(wrongState.status).toBe(400);
    expect((await wrongState.json()).code).toBe('authorization_invalid');
    const denied = await fetchManual(await ownerConsents(opened.body.authorizeUrl, 'deny'));
    expect(denied.status).toBe(400);
    expect((await denied.json()).detail).toMatch(/access_denied/);
    stack.clock.advance(2 * 3600);
    const late = await fetchManual(back.toString());
    expect(late.status).toBe(403);
    expect((await late.json()).code).toBe('authorization_window_closed');
  });

  it('npm run marketplace:authorize opens a window and prints the consent link', async () => {
    const { stdout } = await promisify(execFile)('node_modules/.bin/tsx', ['scripts/marketplace-authorize.ts', '--hours', '5'], {
      env: {
        ...process.env,
        DYNAMODB_ENDPOINT: stack.deps.settings.dynamodbEndpoint,
        TABLE_NAME: stack.deps.db.tableName,
        PUBLIC_BASE_URL: stack.baseUrl,
        MARKETPLACE_BASE_URL: `${stack.baseUrl}/_local/marketplace`,
        MARKETPLACE_CLIENT_ID: 'local-marketplace-client',
      },
    });
    const link = /https?:\/\/\S+\/devapi\/v2\/auth\/authorize\/\?\S+/.exec(stdout)?.[0];
    expect(link, stdout).toBeDefined();
    const { cookie } = await staffSession(stack, { permissions: ['view_marketplacecredential'] });
    const view = await admin(stack, cookie, 'GET', '/api/admin/marketplace');
    expect(view.body.window).toMatchObject({ open: true, authorizeUrl: link });
    expect((await fetchManual(await ownerConsents(link as string))).status).toBe(200);
  });
});

describe('the admin view of the connection (static secret)', () => {
  const stack = useStack({ now: NOW });

  it('shows the static secret in force, to staff holding view_marketplacecredential only; opening a window needs change_', async () => {
    expect((await call(stack, 'GET', '/api/admin/marketplace')).status).toBe(401);
    const none = await staffSession(stack, { permissions: [] });
    const refused = await admin(stack, none.cookie, 'GET', '/api/admin/marketplace');
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('permission_denied');
    const viewer = await staffSession(stack, { permissions: ['view_marketplacecredential'] });
    expect((await admin(stack, viewer.cookie, 'GET', '/api/admin/marketplace')).body).toEqual({
      mode: 'static_secret',
      connected: true,
      window: { open: false, expiresAt: null, authorizeUrl: null },
    });
    expect((await admin(stack, viewer.cookie, 'POST', '/api/admin/marketplace/authorize-window', {})).status).toBe(403);
    const changer = await staffSession(stack, { permissions: ['change_marketplacecredential'] });
    for (const hours of [0, 721, 1.5, '3']) {
      const bad = await admin(stack, changer.cookie, 'POST', '/api/admin/marketplace/authorize-window', { hours });
      expect(bad.status).toBe(400);
      expect(bad.body.fields).toHaveProperty('hours');
    }
    const opened = await admin(stack, changer.cookie, 'POST', '/api/admin/marketplace/authorize-window');
    expect(opened.status).toBe(200);
    expect(opened.body.expiresAt).toBe(new Date(NOW + 72 * HOUR_MS).toISOString());
  });

  it('stores what the owner approves while the static secret is in force, and says the static secret still is', async () => {
    const { cookie } = await staffSession(stack, { permissions: ['change_marketplacecredential', 'view_marketplacecredential'] });
    const opened = await admin(stack, cookie, 'POST', '/api/admin/marketplace/authorize-window');
    expect(opened.status).toBe(200);
    // The answer is checked against the API document (the stack's response check), which names this mode too.
    const done = await fetchManual(await ownerConsents(opened.body.authorizeUrl));
    expect(done.status, await done.clone().text()).toBe(200);
    expect(await done.json()).toEqual({ mode: 'static_secret', connected: true });
    expect((await admin(stack, cookie, 'GET', '/api/admin/marketplace')).body).toMatchObject({ mode: 'static_secret', connected: true });
  });
});

describe('a discount on a marketplace order: the signed dynamic price', () => {
  const key = 'dynamic-price-key-0123456789abcdef';
  const stack = useStack({ now: NOW, env: { MARKETPLACE_DYNAMIC_PRICE_KEY: key } });

  it('signs the lowered price (HS256, rial, package, sku, exp, nonce) at start; no code after the start', async () => {
    const s = await signIn(stack);
    const bought = await buyOnMarketplace(stack, s, PLAN_30, { discountCode: 'WELCOME10' });
    expect(bought.status, bought.text).toBe(201);
    expect(bought.body).toMatchObject({ listPrice: 149_000, discount: 14_900, amount: 134_100, paymentUrl: null });
    const started = await startOrder(stack, s, bought.body.orderId);
    expect(started.status).toBe(200);
    const token = started.body.dynamicPriceToken as string;
    expect(decodeProtectedHeader(token)).toEqual({ typ: 'JWT', alg: 'HS256' });
    const { payload } = await jwtVerify(token, new TextEncoder().encode(key), { algorithms: ['HS256'], currentDate: new Date(NOW) });
    expect(payload).toEqual({
      price: 1_341_000,
      package_name: 'ir.mathisland.app',
      sku: 'mathisland_sub_1m',
      exp: NOW / 1000 + 600,
      nonce: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    const again = await startOrder(stack, s, bought.body.orderId);
    expect(decodeJwt(again.body.dynamicPriceToken).nonce).not.toBe(payload.nonce);
    // Started: no other code can lower it now.
    const late = await call(stack, 'POST', '/api/discounts/redeem', {
      token: s.accessToken,
      body: { code: 'WELCOME10', orderId: bought.body.orderId },
    });
    expect(late.status).toBe(409);
    const fresh = await buyOnMarketplace(stack, s, PLAN_30);
    expect((await startOrder(stack, s, fresh.body.orderId)).body).not.toHaveProperty('dynamicPriceToken');
    await startOrder(stack, s, fresh.body.orderId);
    const afterStart = await call(stack, 'POST', '/api/discounts/redeem', {
      token: s.accessToken,
      body: { code: 'WELCOME10', orderId: fresh.body.orderId },
    });
    expect(afterStart.status).toBe(400);
    expect(afterStart.body.code).toBe('discount_not_allowed');
    expect((await call(stack, 'GET', '/api/health', { headers: INTERNAL })).body.integrations.marketplaceDynamicPrice).toBe(true);
  });

  it('applies a code redeemed before the start, and pays the discounted order by the marketplace', async () => {
    const s = await signIn(stack);
    const bought = await buyOnMarketplace(stack, s, PLAN_30);
    const redeemed = await call(stack, 'POST', '/api/discounts/redeem', {
      token: s.accessToken,
      body: { code: 'WELCOME10', orderId: bought.body.orderId },
    });
    expect(redeemed.status, redeemed.text).toBe(200);
    expect(redeemed.body).toMatchObject({ amount: 134_100, paymentUrl: null });
    const started = await startOrder(stack, s, bought.body.orderId);
    expect(decodeJwt(started.body.dynamicPriceToken).price).toBe(1_341_000);
    const purchaseToken = await mintPurchase(stack, {
      productId: started.body.marketplaceSku,
      developerPayload: started.body.developerPayload,
    });
    const verified = await verifyPurchase(stack, s, bought.body.orderId, purchaseToken);
    expect(verified.body).toMatchObject({ orderStatus: 'paid', status: 'active' });
    expect(await getOrder(stack.deps, bought.body.orderId)).toMatchObject({ status: 'paid', amount: 134_100, discountCode: 'WELCOME10' });
  });
});
