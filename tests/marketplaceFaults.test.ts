/**
 * Issue 17: the marketplace failing, and the service failing closed (spec Errors "Marketplace answers 401, 403 or
 * 5xx → 503; order is not marked failed", Authentication 9 "Without a credential, verification treats every
 * purchase as invalid"; DESIGN §8), and the real marketplace client's wire shape checked against the local fake
 * (trailing slash, the static secret's header, URL-quoted path parts; the fake refusing what the real one refuses).
 */
import { getOrder } from '@mathisland/core/subscriptions';
import { describe, expect, it } from 'vitest';
import {
  boughtAndPaidInApp,
  injectFault,
  marketplaceCalls,
  mintPurchase,
  refundOnMarketplace,
  SKU_30,
  verifyPurchase,
} from './support/marketplace';
import { eventsOf, fetchManual, PLAN_30, status } from './support/payments';
import { call, signIn, useStack } from './support/stack';

const NOW = Date.UTC(2026, 10, 20, 8, 0, 0);

describe('the marketplace failing: nothing paid, nothing failed wrongly', () => {
  const stack = useStack({ now: NOW });

  it.each([401, 403, 500, 502, 503])(
    'answers 503 marketplace_unavailable with Retry-After when it answers %i; the order stays pending',
    async (code) => {
      const s = await signIn(stack);
      const { orderId, purchaseToken } = await boughtAndPaidInApp(stack, s, PLAN_30);
      await injectFault(stack, { status: code });
      const res = await verifyPurchase(stack, s, orderId, purchaseToken);
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('marketplace_unavailable');
      expect(res.headers.get('retry-after')).toBe('60');
      expect((await getOrder(stack.deps, orderId)).status).toBe('pending');
      expect((await status(stack, s)).status).toBe('none');
      expect(await eventsOf(stack, orderId)).toContainEqual(
        expect.objectContaining({ kind: 'payment_result', via: 'marketplace', result: 'unchanged', reason: 'marketplace_unavailable' }),
      );
      // Once it answers again, the same purchase pays the order.
      const again = await verifyPurchase(stack, s, orderId, purchaseToken);
      expect(again.status, again.text).toBe(200);
      expect((await getOrder(stack.deps, orderId)).status).toBe('paid');
    },
  );

  it('answers 503 when the marketplace does not answer in time (timeout), under API Gateway’s 30 s', async () => {
    const s = await signIn(stack);
    const { orderId, purchaseToken } = await boughtAndPaidInApp(stack, s, PLAN_30);
    await injectFault(stack, { delayMs: 12_000 });
    const started = Date.now();
    const res = await verifyPurchase(stack, s, orderId, purchaseToken);
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('marketplace_unavailable');
    expect(Date.now() - started).toBeLessThan(12_000);
    expect((await getOrder(stack.deps, orderId)).status).toBe('pending');
  });
});

describe('without a marketplace credential (fail closed)', () => {
  const stack = useStack({ now: NOW, env: { MARKETPLACE_API_SECRET: '', MARKETPLACE_CLIENT_ID: '' } });

  it('treats every purchase as invalid (400 purchase_invalid), leaves the order pending, asks nothing; health says so', async () => {
    const s = await signIn(stack);
    const { orderId, purchaseToken } = await boughtAndPaidInApp(stack, s, PLAN_30);
    const from = stack.marketplace.requests.length;
    const res = await verifyPurchase(stack, s, orderId, purchaseToken);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('purchase_invalid');
    expect((await getOrder(stack.deps, orderId)).status).toBe('pending');
    expect(marketplaceCalls(stack, from)).toEqual([]);
    expect(await eventsOf(stack, orderId)).toContainEqual(expect.objectContaining({ kind: 'payment_result', reason: 'no_credential' }));
    const health = await call(stack, 'GET', '/api/health', { headers: { 'x-internal-key': 'test-internal-key-0123456789' } });
    expect(health.body.integrations).toMatchObject({ marketplace: false, marketplaceDynamicPrice: false });
  });
});

describe('the real client against the fake marketplace (wire shape)', () => {
  const stack = useStack({ now: NOW });
  const api = (path: string) => `${stack.baseUrl}/_local/marketplace/devapi/v2/api${path}`;
  const secret = () => stack.deps.settings.marketplace.apiSecret as string;

  it('sends the static secret in CAFEBAZAAR-PISHKHAN-API-SECRET, to paths with a trailing slash, with parts URL-quoted', async () => {
    const s = await signIn(stack);
    const from = stack.marketplace.requests.length;
    const { orderId, purchaseToken } = await boughtAndPaidInApp(stack, s, PLAN_30);
    expect((await verifyPurchase(stack, s, orderId, purchaseToken)).status).toBe(200);
    const calls = marketplaceCalls(stack, from);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ method: 'GET', auth: 'static_secret', contentType: null });
    expect(calls[0]!.path).toMatch(/\/$/);
    expect(calls[0]!.path).toBe(`/devapi/v2/api/applications/ir.mathisland.app/subscriptions/${SKU_30}/purchases/${purchaseToken}/`);
    const health = await call(stack, 'GET', '/api/health', { headers: { 'x-internal-key': 'test-internal-key-0123456789' } });
    expect(health.body.integrations.marketplace).toBe(true);
    expect(health.text).not.toContain(secret());
  });

  it('answers a refunded in-app purchase as the real validate API does (200, purchaseState 1), a refunded subscription 404', async () => {
    const headers = { 'CAFEBAZAAR-PISHKHAN-API-SECRET': secret() };
    const inapp = await mintPurchase(stack, { productId: 'mathisland_inapp_1m', kind: 'inapp', developerPayload: 'p1' });
    const validate = () => fetchManual(api(`/validate/ir.mathisland.app/inapp/mathisland_inapp_1m/purchases/${inapp}/`), { headers });
    const fresh = await validate();
    expect(fresh.status).toBe(200);
    expect(await fresh.json()).toEqual({
      consumptionState: 1,
      purchaseState: 0,
      kind: 'androidpublisher#inappPurchase',
      developerPayload: 'p1',
      purchaseTime: NOW,
    });
    const consumed = await call(stack, 'POST', `/_local/marketplace/purchases/${inapp}/consume`);
    expect(consumed.status, consumed.text).toBe(200);
    await refundOnMarketplace(stack, inapp);
    const refunded = await validate();
    expect(refunded.status).toBe(200);
    expect(await refunded.json()).toMatchObject({ consumptionState: 0, purchaseState: 1 });

    const subscription = await mintPurchase(stack, { productId: SKU_30, kind: 'subscription' });
    expect((await call(stack, 'POST', `/_local/marketplace/purchases/${subscription}/consume`)).status).toBe(400);
    await refundOnMarketplace(stack, subscription);
    const gone = await fetchManual(api(`/applications/ir.mathisland.app/subscriptions/${SKU_30}/purchases/${subscription}/`), { headers });
    expect(gone.status).toBe(404);
  });

  it('the fake refuses what the real one refuses: no or a wrong auth header (401), no trailing slash (301), a JSON token request (400)', async () => {
    const path = `/applications/ir.mathisland.app/subscriptions/${SKU_30}/purchases/anything/`;
    const none = await fetchManual(api(path));
    expect(none.status).toBe(401);
    const wrong = await fetchManual(api(path), { headers: { 'CAFEBAZAAR-PISHKHAN-API-SECRET': 'wrong' } });
    expect(wrong.status).toBe(401);
    // The spec's neutral spelling is not the header the marketplace reads.
    const neutral = await fetchManual(api(path), { headers: { 'MARKETPLACE-PISHKHAN-API-SECRET': secret() } });
    expect(neutral.status).toBe(401);
    const right = await fetchManual(api(path), { headers: { 'CAFEBAZAAR-PISHKHAN-API-SECRET': secret() } });
    expect(right.status).toBe(404);
    expect(await right.json()).toEqual({ error: 'not_found', error_description: 'The requested purchase is not found!' });
    const otherPackage = await fetchManual(api(`/applications/com.other/subscriptions/${SKU_30}/purchases/x/`), {
      headers: { 'CAFEBAZAAR-PISHKHAN-API-SECRET': secret() },
    });
    expect(otherPackage.status).toBe(403);
    const noSlash = await fetchManual(api(path.slice(0, -1)), { headers: { 'CAFEBAZAAR-PISHKHAN-API-SECRET': secret() } });
    expect(noSlash.status).toBe(301);
    expect(noSlash.headers.get('location')).toBe(`/_local/marketplace/devapi/v2/api${path}`);
    const jsonToken = await fetchManual(`${stack.baseUrl}/_local/marketplace/devapi/v2/auth/token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'refresh_token', refresh_token: 'x' }),
    });
    expect(jsonToken.status).toBe(400);
    expect((await jsonToken.json()).error).toBe('invalid_request');
  });
});
