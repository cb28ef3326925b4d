/**
 * Issue 17: buying a plan through the marketplace (purchase, start, verify) against the local fake Cafe-Bazaar-style
 * marketplace, through the local runtime (spec "Order" marketplace verify row, Errors, Authentication 8; DESIGN §8):
 * the SKU from the plan, the developerPayload, verification with the product type of the plan, 404 / 401 / 403 /
 * 5xx / timeouts, no credential, already paid, one token for one order, two verifications racing, the token only as
 * a digest, every step an audit row; and the real client's wire shape checked against the fake.
 */
import { createHash, randomUUID } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { logger } from '@mathisland/core';
import { getOrder, getPlan, savePlan } from '@mathisland/core/subscriptions';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  boughtAndPaidInApp,
  buyOnMarketplace,
  injectFault,
  marketplaceCalls,
  mintPurchase,
  refundOnMarketplace,
  SKU_30,
  startOrder,
  verifyPurchase,
} from './support/marketplace';
import { DAY_MS, eventsOf, PLAN_30, PLAN_90, purchase, status } from './support/payments';
import { call, signIn, useStack } from './support/stack';

const NOW = Date.UTC(2026, 10, 20, 8, 0, 0);
const IN_APP_PLAN = 60;

afterEach(() => vi.restoreAllMocks());

describe('buying through the marketplace: purchase and start', () => {
  const stack = useStack({ now: NOW });

  it('creates a pending marketplace order with the plan’s SKU (201, paymentUrl null); the app never sends a SKU', async () => {
    const s = await signIn(stack);
    const res = await buyOnMarketplace(stack, s, PLAN_30);
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ orderId: expect.any(Number), paymentUrl: null, marketplaceSku: SKU_30, amount: 149_000 });
    const order = await getOrder(stack.deps, res.body.orderId);
    expect(order).toMatchObject({
      status: 'pending',
      provider: 'marketplace',
      marketplaceSku: SKU_30,
      marketplaceProductType: 'subscription',
    });
    expect((await eventsOf(stack, order.id)).map((e) => e.kind)).toEqual(['order_created']);

    const withSku = await buyOnMarketplace(stack, s, PLAN_30, { marketplaceSku: 'cheap_sku' });
    expect(withSku.status).toBe(400);
    expect(withSku.body.fields).toEqual({ marketplaceSku: ['Unknown field'] });
  });

  it('refuses a plan without a marketplace SKU: 400 marketplace_sku_missing', async () => {
    const plan = (await getPlan(stack.deps, PLAN_30))!;
    await savePlan(stack.deps.db, { ...plan, id: 51, marketplaceSku: undefined });
    const s = await signIn(stack);
    const res = await buyOnMarketplace(stack, s, 51);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'marketplace_sku_missing', fields: { paymentMethod: expect.any(Array) } });
    expect((await purchase(stack, s, { planId: 51, paymentMethod: 'gateway' })).status).toBe(201);
  });

  it('replays an Idempotency-Key, and never lets it switch provider (409 idempotency_conflict)', async () => {
    const s = await signIn(stack);
    const key = randomUUID();
    const first = await buyOnMarketplace(stack, s, PLAN_30, {}, key);
    const again = await buyOnMarketplace(stack, s, PLAN_30, {}, key);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    const switched = await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway' }, key);
    expect(switched.status).toBe(409);
    expect(switched.body.code).toBe('idempotency_conflict');
    const gatewayKey = randomUUID();
    expect((await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway' }, gatewayKey)).status).toBe(201);
    expect((await buyOnMarketplace(stack, s, PLAN_30, {}, gatewayKey)).body.code).toBe('idempotency_conflict');
  });

  it('starts the order: SKU, product type, package, a developerPayload bound to the order, a marketplace_start row', async () => {
    const s = await signIn(stack);
    const { body } = await buyOnMarketplace(stack, s, PLAN_90);
    const started = await startOrder(stack, s, body.orderId);
    expect(started.status, started.text).toBe(200);
    expect(started.body).toEqual({
      orderId: body.orderId,
      marketplaceSku: 'mathisland_sub_3m',
      productType: 'subscription',
      packageName: 'ir.mathisland.app',
      developerPayload: expect.stringMatching(new RegExp(`^o${body.orderId}\\.[A-Za-z0-9_-]{16}$`)),
      amount: 379_000,
    });
    const again = await startOrder(stack, s, body.orderId);
    expect(again.body.developerPayload).toBe(started.body.developerPayload);
    const order = await getOrder(stack.deps, body.orderId);
    expect(order).toMatchObject({ developerPayload: started.body.developerPayload, marketplaceStartedAt: NOW });
    const rows = (await eventsOf(stack, body.orderId)).filter((e) => e.kind === 'marketplace_start');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ sku: 'mathisland_sub_3m', amount: 379_000, userId: s.userId });
  });

  it('refuses to start another user’s order (404), a gateway order (400), a paid one (409), an id in Persian digits (400)', async () => {
    const s = await signIn(stack);
    const other = await signIn(stack);
    const { body } = await buyOnMarketplace(stack, s, PLAN_30);
    expect((await startOrder(stack, other, body.orderId)).status).toBe(404);
    const gateway = await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway' });
    const notMarketplace = await startOrder(stack, s, gateway.body.orderId);
    expect(notMarketplace.status).toBe(400);
    expect(notMarketplace.body.fields).toHaveProperty('orderId');
    expect((await startOrder(stack, s, '۱۲')).body.code).toBe('invalid_id');
    const paid = await boughtAndPaidInApp(stack, s, PLAN_30);
    expect((await verifyPurchase(stack, s, paid.orderId, paid.purchaseToken)).status).toBe(200);
    const late = await startOrder(stack, s, paid.orderId);
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('already_paid');
  });

  it('refuses a discount code on a marketplace order without the dynamic-price key (400 discount_not_allowed)', async () => {
    const s = await signIn(stack);
    const withCode = await buyOnMarketplace(stack, s, PLAN_30, { discountCode: 'WELCOME10' });
    expect(withCode.status).toBe(400);
    expect(withCode.body.code).toBe('discount_not_allowed');
    const { body } = await buyOnMarketplace(stack, s, PLAN_30);
    const redeemed = await call(stack, 'POST', '/api/discounts/redeem', {
      token: s.accessToken,
      body: { code: 'WELCOME10', orderId: body.orderId },
    });
    expect(redeemed.status).toBe(400);
    expect(redeemed.body.code).toBe('discount_not_allowed');
    expect((await getOrder(stack.deps, body.orderId)).amount).toBe(149_000);
  });
});

describe('verifying a marketplace purchase', () => {
  const stack = useStack({ now: NOW });

  it('verifies a subscription purchase and grants the plan like a gateway payment, through the same settle path', async () => {
    const s = await signIn(stack);
    const from = stack.marketplace.requests.length;
    const { orderId, purchaseToken } = await boughtAndPaidInApp(stack, s, PLAN_30, { validUntil: NOW + 30 * DAY_MS });
    const res = await verifyPurchase(stack, s, orderId, purchaseToken);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      orderId,
      orderStatus: 'paid',
      status: 'active',
      active: true,
      plan: { id: PLAN_30 },
      expiresAt: new Date(NOW + 30 * DAY_MS).toISOString(),
      aiDailyQuota: 4,
    });
    expect(await status(stack, s)).toMatchObject({ status: 'active', expiresAt: new Date(NOW + 30 * DAY_MS).toISOString() });
    const order = await getOrder(stack.deps, orderId);
    expect(order).toMatchObject({
      status: 'paid',
      paidVia: 'marketplace',
      purchaseTokenDigest: createHash('sha256').update(purchaseToken).digest('hex'),
      validUntil: NOW + 30 * DAY_MS,
      grant: { days: 30 },
    });
    // Every step has its row (all at the same instant of the test clock, so in no particular order).
    const events = await eventsOf(stack, orderId);
    expect(events.map((e) => e.kind).sort()).toEqual(['marketplace_start', 'order_created', 'payment_result']);
    expect(events.find((e) => e.kind === 'payment_result')).toMatchObject({
      via: 'marketplace',
      result: 'paid',
      ignored: false,
      amount: 149_000,
    });
    // The subscription API was asked, with the plan's SKU, the static secret, and the trailing slash.
    const [asked] = marketplaceCalls(stack, from);
    expect(asked).toMatchObject({
      method: 'GET',
      path: `/devapi/v2/api/applications/ir.mathisland.app/subscriptions/${SKU_30}/purchases/${purchaseToken}/`,
      auth: 'static_secret',
    });
    const invoices = await call(stack, 'GET', '/api/payment/invoices', { token: s.accessToken });
    expect(invoices.body.items[0]).toMatchObject({ orderId, status: 'paid', provider: 'marketplace' });
  });

  it('answers 409 already_paid to a second verification, and 409 purchase_token_used for the token on another order', async () => {
    const s = await signIn(stack);
    const { orderId, purchaseToken } = await boughtAndPaidInApp(stack, s, PLAN_30);
    expect((await verifyPurchase(stack, s, orderId, purchaseToken)).status).toBe(200);
    const again = await verifyPurchase(stack, s, orderId, purchaseToken);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('already_paid');
    const second = await buyOnMarketplace(stack, s, PLAN_30);
    const reused = await verifyPurchase(stack, s, second.body.orderId, purchaseToken);
    expect(reused.status).toBe(409);
    expect(reused.body.code).toBe('purchase_token_used');
    expect((await getOrder(stack.deps, second.body.orderId)).status).toBe('pending');
    // Another user cannot use it either, nor verify someone else's order.
    const other = await signIn(stack);
    const theirs = await buyOnMarketplace(stack, other, PLAN_30);
    expect((await verifyPurchase(stack, other, theirs.body.orderId, purchaseToken)).body.code).toBe('purchase_token_used');
    expect((await verifyPurchase(stack, other, orderId, purchaseToken)).status).toBe(404);
    const rows = await eventsOf(stack, second.body.orderId);
    expect(rows).toContainEqual(expect.objectContaining({ kind: 'payment_result', ignored: true, reason: 'purchase_token_used' }));
  });

  it('keeps the token only as a SHA-256 digest: never in a table item, an audit row or a log line', async () => {
    const lines: string[] = [];
    for (const level of ['debug', 'info', 'warn', 'error'] as const) {
      vi.spyOn(logger, level).mockImplementation((...args: unknown[]) => {
        lines.push(JSON.stringify(args));
      });
    }
    const s = await signIn(stack);
    const { orderId, purchaseToken } = await boughtAndPaidInApp(stack, s, PLAN_30);
    await injectFault(stack, { status: 503 });
    expect((await verifyPurchase(stack, s, orderId, purchaseToken)).status).toBe(503);
    expect((await verifyPurchase(stack, s, orderId, purchaseToken)).status).toBe(200);
    expect((await verifyPurchase(stack, s, orderId, purchaseToken)).status).toBe(409);
    const items = (await stack.deps.db.doc.send(new ScanCommand({ TableName: stack.deps.db.tableName }))).Items ?? [];
    expect(JSON.stringify(items)).not.toContain(purchaseToken);
    expect(JSON.stringify(items)).toContain(createHash('sha256').update(purchaseToken).digest('hex'));
    expect(JSON.stringify(await eventsOf(stack, orderId))).not.toContain(purchaseToken);
    expect(lines.join('\n')).not.toContain(purchaseToken);
  });

  it('asks the in-app API for a plan sold in-app (the product type is the plan’s, never the client’s)', async () => {
    const plan = (await getPlan(stack.deps, PLAN_30))!;
    await savePlan(stack.deps.db, { ...plan, id: IN_APP_PLAN, marketplaceSku: 'mathisland_inapp_1m', marketplaceProductType: 'inapp' });
    const s = await signIn(stack);
    const from = stack.marketplace.requests.length;
    const paid = await boughtAndPaidInApp(stack, s, IN_APP_PLAN);
    const res = await verifyPurchase(stack, s, paid.orderId, paid.purchaseToken);
    expect(res.status, res.text).toBe(200);
    expect(marketplaceCalls(stack, from)[0]!.path).toBe(
      `/devapi/v2/api/validate/ir.mathisland.app/inapp/mathisland_inapp_1m/purchases/${paid.purchaseToken}/`,
    );
    expect(await getOrder(stack.deps, paid.orderId)).toMatchObject({ status: 'paid', marketplaceProductType: 'inapp' });
    expect((await getOrder(stack.deps, paid.orderId)).validUntil).toBeUndefined();

    // A subscription token of the same product is no in-app purchase: the marketplace answers 404.
    const { body } = await buyOnMarketplace(stack, s, IN_APP_PLAN);
    const subscriptionToken = await mintPurchase(stack, { productId: 'mathisland_inapp_1m', kind: 'subscription' });
    const wrongType = await verifyPurchase(stack, s, body.orderId, subscriptionToken, {}); // an in-app verify may omit the signed data
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.code).toBe('purchase_invalid');
    expect((await getOrder(stack.deps, body.orderId)).status).toBe('failed');
  });

  it('refuses an in-app purchase made for another order (developerPayload differs): 400, the order stays pending', async () => {
    const s = await signIn(stack);
    const first = await boughtAndPaidInApp(stack, s, IN_APP_PLAN);
    const second = await buyOnMarketplace(stack, s, IN_APP_PLAN);
    await startOrder(stack, s, second.body.orderId);
    // Without the signed data (optional for in-app): the payload the validate API echoes tells.
    const res = await verifyPurchase(stack, s, second.body.orderId, first.purchaseToken, {});
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'purchase_invalid', detail: expect.stringContaining('developerPayload') });
    expect((await getOrder(stack.deps, second.body.orderId)).status).toBe('pending');
    expect(await eventsOf(stack, second.body.orderId)).toContainEqual(
      expect.objectContaining({ kind: 'payment_result', ignored: true, reason: 'developer_payload_mismatch' }),
    );
    expect((await verifyPurchase(stack, s, first.orderId, first.purchaseToken)).status).toBe(200);
  });

  it('treats a refunded in-app purchase as not purchased (order failed), an ended subscription as invalid (order pending)', async () => {
    const s = await signIn(stack);
    const refunded = await boughtAndPaidInApp(stack, s, IN_APP_PLAN);
    await refundOnMarketplace(stack, refunded.purchaseToken);
    expect((await verifyPurchase(stack, s, refunded.orderId, refunded.purchaseToken)).body.code).toBe('purchase_invalid');
    expect((await getOrder(stack.deps, refunded.orderId)).status).toBe('failed');

    const ended = await boughtAndPaidInApp(stack, s, PLAN_30, { validUntil: NOW - DAY_MS });
    const res = await verifyPurchase(stack, s, ended.orderId, ended.purchaseToken);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'purchase_invalid', detail: expect.stringContaining('ended') });
    expect((await getOrder(stack.deps, ended.orderId)).status).toBe('pending');
  });

  it('refuses a gateway order (400), a bad body (400), no login (401)', async () => {
    const s = await signIn(stack);
    const gateway = await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway' });
    expect((await verifyPurchase(stack, s, gateway.body.orderId, 'token')).status).toBe(400);
    const bad = await call(stack, 'POST', '/api/payment/marketplace/verify', {
      token: s.accessToken,
      body: { orderId: 'x', purchaseToken: '' },
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.fields).sort()).toEqual(['orderId', 'purchaseToken']);
    const extra = await call(stack, 'POST', '/api/payment/marketplace/verify', {
      token: s.accessToken,
      body: { orderId: 1, purchaseToken: 't', productType: 'inapp' },
    });
    expect(extra.body.fields).toEqual({ productType: ['Unknown field'] });
    expect((await call(stack, 'POST', '/api/payment/marketplace/verify', { body: { orderId: 1, purchaseToken: 't' } })).status).toBe(401);
  });

  it('pays once when two verifications of one order race: one 200, one 409', async () => {
    for (let round = 0; round < 3; round++) {
      const s = await signIn(stack);
      const { orderId, purchaseToken } = await boughtAndPaidInApp(stack, s, PLAN_30);
      const results = await Promise.all([
        verifyPurchase(stack, s, orderId, purchaseToken),
        verifyPurchase(stack, s, orderId, purchaseToken),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(results.find((r) => r.status === 409)!.body.code).toBe('already_paid');
      const paid = (await eventsOf(stack, orderId)).filter((e) => e.kind === 'payment_result' && e.result === 'paid');
      expect(paid).toHaveLength(1);
      expect((await status(stack, s)).expiresAt).toBe(new Date(NOW + 30 * DAY_MS).toISOString());
    }
  });

  it('binds one token to one order when it is verified for two orders at once: one paid, the other refused', async () => {
    const s = await signIn(stack);
    const { orderId, purchaseToken } = await boughtAndPaidInApp(stack, s, PLAN_30);
    const other = await buyOnMarketplace(stack, s, PLAN_30);
    const results = await Promise.all([
      verifyPurchase(stack, s, orderId, purchaseToken),
      verifyPurchase(stack, s, other.body.orderId, purchaseToken),
    ]);
    // The other order: 409 purchase_token_used once the token is bound, else 400 purchase_invalid (its signed data
    // names the first order).
    const [paid, refused] = results[0]!.status === 200 ? results : [results[1]!, results[0]!];
    expect(paid!.status).toBe(200);
    expect([
      [409, 'purchase_token_used'],
      [400, 'purchase_invalid'],
    ]).toContainEqual([refused!.status, refused!.body.code]);
    const statuses = [(await getOrder(stack.deps, orderId)).status, (await getOrder(stack.deps, other.body.orderId)).status];
    expect(statuses.sort()).toEqual(['paid', 'pending']);
    expect((await status(stack, s)).expiresAt).toBe(new Date(NOW + 30 * DAY_MS).toISOString());
  });
});

describe('verifying without MARKETPLACE_PUBLIC_KEY (signed purchase data unchecked)', () => {
  const stack = useStack({ now: NOW, env: { MARKETPLACE_PUBLIC_KEY: '' } });

  it('marks the order failed when the marketplace does not know the purchase (404), and a real purchase still pays it', async () => {
    const s = await signIn(stack);
    const { orderId, purchaseToken } = await boughtAndPaidInApp(stack, s, PLAN_30);
    const from = stack.marketplace.requests.length;
    const res = await verifyPurchase(stack, s, orderId, 'forged/token?x=1#y%');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('purchase_invalid');
    // The token is URL-quoted in the path.
    expect(marketplaceCalls(stack, from)[0]!.path).toBe(
      `/devapi/v2/api/applications/ir.mathisland.app/subscriptions/${SKU_30}/purchases/forged%2Ftoken%3Fx%3D1%23y%25/`,
    );
    expect(await getOrder(stack.deps, orderId)).toMatchObject({ status: 'failed' });
    expect(await eventsOf(stack, orderId)).toContainEqual(
      expect.objectContaining({ kind: 'payment_result', via: 'marketplace', result: 'failed', reason: 'not_paid' }),
    );
    expect((await status(stack, s)).status).toBe('none');
    expect((await verifyPurchase(stack, s, orderId, purchaseToken)).body).toMatchObject({ orderStatus: 'paid', status: 'active' });
    // Not even a purchase token: refused before any call.
    const spaced = await verifyPurchase(stack, s, orderId, 'two words');
    expect(spaced.body).toMatchObject({ code: 'validation_error', fields: { purchaseToken: expect.any(Array) } });
  });
});
