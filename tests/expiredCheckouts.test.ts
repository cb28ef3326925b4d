/**
 * Checkouts that expire (core subscriptions/checkoutExpiry.ts), whether the re-check job or the buyer's own status
 * read finds them, with the discount use they held given back (failed, reason `expired`):
 * - never started: an order whose pay link was never opened, or whose in-app purchase was never started, an hour
 *   after the purchase. Started, free and fresh orders are left alone, and an expired order's pay link says it failed.
 * - started in the marketplace and never verified: a day after its last start. A start again puts it off; a purchase
 *   verified after it still pays the order.
 */
import { getOrder, MARKETPLACE_START_EXPIRY_HOURS, saveDiscountCode, UNSTARTED_EXPIRY_MINUTES } from '@mathisland/core/subscriptions';
import { describe, expect, it } from 'vitest';
import { recheckPayments } from '../packages/functions/src/jobs/paymentRecheck';
import { commandOf, interleaved } from './support/interleave';
import { buyOnMarketplace, mintPurchase, startOrder, verifyPurchase } from './support/marketplace';
import { eventsOf, fetchManual, openPayLink, PLAN_30, purchase, status } from './support/payments';
import { freshToken, type Session, signIn, type TestStack, useStack } from './support/stack';
import { asFunction } from './support/tableAccess';

/**
 * The re-check job, run with `rival` acting once just after the expiry read order `orderId` and before its
 * transaction (support/interleave.ts); returns what the run settled.
 */
async function racedRecheck(stack: TestStack, orderId: number, rival: () => Promise<unknown>) {
  const deps = interleaved(stack.deps, commandOf('GetCommand', `"ORDER#${orderId}"`), rival);
  return (await asFunction('payment-recheck', () => recheckPayments(deps))).settled;
}

describe('checkouts that never started', () => {
  const stack = useStack({ now: new Date('2026-03-01T08:00:00Z') });
  const run = () => asFunction('payment-recheck', () => recheckPayments(stack.deps));
  const later = async (s: Session): Promise<Session> => ({ ...s, accessToken: await freshToken(stack, s) });

  it('expire an hour after the purchase through the job, giving the last use of a code back to the next buyer', async () => {
    await saveDiscountCode(stack.deps.db, { code: 'LASTONE', title: 'One use', percent: 20, maxUses: 1, advertised: false, active: true });
    const first = await signIn(stack);
    const second = await signIn(stack);
    const held = await purchase(stack, first, { planId: PLAN_30, paymentMethod: 'gateway', discountCode: 'LASTONE' });
    expect(held.status, held.text).toBe(201);
    const refused = await purchase(stack, second, { planId: PLAN_30, paymentMethod: 'gateway', discountCode: 'LASTONE' });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('discount_invalid');

    stack.clock.advance(UNSTARTED_EXPIRY_MINUTES * 60 - 60);
    expect((await run()).settled).toEqual([]);
    expect((await getOrder(stack.deps, held.body.orderId)).status).toBe('pending');

    stack.clock.advance(60);
    expect((await run()).settled).toContainEqual({ orderId: held.body.orderId, status: 'failed' });
    expect(await getOrder(stack.deps, held.body.orderId)).toMatchObject({ status: 'failed', discountReleased: true });
    const results = (await eventsOf(stack, held.body.orderId)).filter((e) => e.kind === 'payment_result');
    expect(results).toEqual([expect.objectContaining({ via: 'recheck', result: 'failed', ignored: false, reason: 'expired' })]);
    // The use is free again, and a second run changes nothing.
    expect((await run()).settled).toEqual([]);
    const taken = await purchase(stack, await later(second), { planId: PLAN_30, paymentMethod: 'gateway', discountCode: 'LASTONE' });
    expect(taken.status, taken.text).toBe(201);

    // The expired order's pay link says where it stands instead of starting a payment.
    const link = await fetchManual(held.body.paymentUrl);
    expect(link.status).toBe(302);
    expect(link.headers.get('location')).toContain('status=failed');
    expect((await getOrder(stack.deps, held.body.orderId)).authority).toBeUndefined();
  });

  it("expire at the buyer's own status read", async () => {
    const s = await signIn(stack);
    const held = await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway', discountCode: 'WELCOME10' });
    stack.clock.advance(UNSTARTED_EXPIRY_MINUTES * 60);
    const st = await status(stack, await later(s));
    expect(st.recheckedOrders).toEqual([{ orderId: held.body.orderId, status: 'failed' }]);
    // WELCOME10 is one use per learner: it is free again.
    const again = await purchase(stack, await later(s), { planId: PLAN_30, paymentMethod: 'gateway', discountCode: 'WELCOME10' });
    expect(again.status, again.text).toBe(201);
  });

  it('leave started, free and fresh orders alone', async () => {
    await saveDiscountCode(stack.deps.db, { code: 'FREEMONTH', title: 'Free', percent: 100, advertised: false, active: true });
    const s = await signIn(stack);
    const atGateway = await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway' });
    await openPayLink(atGateway.body.paymentUrl);
    const started = await buyOnMarketplace(stack, s, PLAN_30);
    expect((await startOrder(stack, s, started.body.orderId)).status).toBe(200);
    const unstartedInApp = await buyOnMarketplace(stack, s, PLAN_30);
    const free = await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway', discountCode: 'FREEMONTH' });
    expect(free.status, free.text).toBe(201);
    stack.clock.advance(UNSTARTED_EXPIRY_MINUTES * 60 - 1);
    const fresh = await purchase(stack, await later(s), { planId: PLAN_30, paymentMethod: 'gateway' });
    stack.clock.advance(1);

    await run();
    expect((await getOrder(stack.deps, unstartedInApp.body.orderId)).status).toBe('failed');
    const lateStart = await startOrder(stack, await later(s), unstartedInApp.body.orderId);
    expect(lateStart.status).toBe(409);
    expect(lateStart.body.code).toBe('order_status_conflict');
    expect((await getOrder(stack.deps, started.body.orderId)).status).toBe('pending');
    expect((await getOrder(stack.deps, fresh.body.orderId)).status).toBe('pending');
    expect((await getOrder(stack.deps, free.body.orderId)).status).toBe('paid');
    // The gateway order is the abandoned-checkout rule's (60 minutes after its gateway step): verified, unpaid, failed.
    const gatewayResults = (await eventsOf(stack, atGateway.body.orderId)).filter((e) => e.kind === 'payment_result');
    expect(gatewayResults.map((e) => e.reason)).toEqual(['not_paid']);
  });

  it('never expire an order whose pay link opens between the re-check reading it and failing it', async () => {
    const s = await signIn(stack);
    const held = await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway', discountCode: 'WELCOME10' });
    stack.clock.advance(UNSTARTED_EXPIRY_MINUTES * 60);
    // The buyer opens the link after the expiry read the order, before its transaction: its condition must hold the order unstarted.
    const rival = () => openPayLink(held.body.paymentUrl);
    const settled = await racedRecheck(stack, held.body.orderId, rival);
    expect(settled).not.toContainEqual(expect.objectContaining({ orderId: held.body.orderId }));
    const order = await getOrder(stack.deps, held.body.orderId);
    expect(order.status).toBe('pending');
    expect(order.authority).toBeDefined();
    expect((await eventsOf(stack, held.body.orderId)).filter((e) => e.kind === 'payment_result')).toEqual([]);
  });
});

describe('marketplace checkouts started and never verified', () => {
  const stack = useStack({
    now: new Date('2026-03-01T08:00:00Z'),
    env: { MARKETPLACE_DYNAMIC_PRICE_KEY: 'dynamic-price-key-0123456789abcdef' },
  });
  const run = () => asFunction('payment-recheck', () => recheckPayments(stack.deps));
  const later = async (s: Session): Promise<Session> => ({ ...s, accessToken: await freshToken(stack, s) });
  const HOUR = 3600;
  const resultsOf = async (orderId: number) => (await eventsOf(stack, orderId)).filter((e) => e.kind === 'payment_result');

  it('expire a day after the last start through the job, giving the last use of a code back; a start again puts it off', async () => {
    await saveDiscountCode(stack.deps.db, { code: 'INAPPONE', title: 'One use', percent: 20, maxUses: 1, advertised: false, active: true });
    let first = await signIn(stack);
    const second = await signIn(stack);
    const held = await buyOnMarketplace(stack, first, PLAN_30, { discountCode: 'INAPPONE' });
    expect(held.status, held.text).toBe(201);
    expect((await startOrder(stack, first, held.body.orderId)).status).toBe(200);

    // The buyer comes back the next day and starts the purchase again: the day counts from then.
    stack.clock.advance(MARKETPLACE_START_EXPIRY_HOURS * HOUR - 60);
    first = await later(first);
    expect((await startOrder(stack, first, held.body.orderId)).status).toBe(200);
    stack.clock.advance(2 * HOUR);
    expect((await run()).settled).toEqual([]);
    expect((await getOrder(stack.deps, held.body.orderId)).status).toBe('pending');

    stack.clock.advance((MARKETPLACE_START_EXPIRY_HOURS - 2) * HOUR);
    expect((await run()).settled).toContainEqual({ orderId: held.body.orderId, status: 'failed' });
    expect(await getOrder(stack.deps, held.body.orderId)).toMatchObject({ status: 'failed', discountReleased: true });
    expect(await resultsOf(held.body.orderId)).toEqual([
      expect.objectContaining({
        via: 'recheck',
        result: 'failed',
        ignored: false,
        reason: 'expired',
        note: expect.stringContaining('Not verified'),
      }),
    ]);
    expect((await run()).settled).toEqual([]);
    const taken = await buyOnMarketplace(stack, await later(second), PLAN_30, { discountCode: 'INAPPONE' });
    expect(taken.status, taken.text).toBe(201);
    // An expired order cannot be started again: the app buys anew.
    const restart = await startOrder(stack, await signIn(stack, first.phone), held.body.orderId);
    expect(restart.status).toBe(409);
    expect(restart.body.code).toBe('order_status_conflict');
  });

  it("expire at the buyer's own status read; a purchase verified afterwards still pays the order, its use taken again", async () => {
    let s = await signIn(stack);
    const held = await buyOnMarketplace(stack, s, PLAN_30, { discountCode: 'WELCOME10' });
    expect(held.status, held.text).toBe(201);
    const started = await startOrder(stack, s, held.body.orderId);
    expect(started.status).toBe(200);
    // The buyer paid in the marketplace, but the app could not verify until a day later.
    const purchaseToken = await mintPurchase(stack, {
      productId: started.body.marketplaceSku,
      kind: started.body.productType,
      developerPayload: started.body.developerPayload,
      validUntil: stack.clock.now() + 30 * 86_400_000,
    });
    stack.clock.advance(MARKETPLACE_START_EXPIRY_HOURS * HOUR);
    s = await later(s);
    expect((await status(stack, s)).recheckedOrders).toEqual([{ orderId: held.body.orderId, status: 'failed' }]);
    expect((await getOrder(stack.deps, held.body.orderId)).discountReleased).toBe(true);

    const verified = await verifyPurchase(stack, s, held.body.orderId, purchaseToken);
    expect(verified.status, verified.text).toBe(200);
    expect(verified.body).toMatchObject({ orderStatus: 'paid', active: true });
    const order = await getOrder(stack.deps, held.body.orderId);
    expect(order).toMatchObject({ status: 'paid', discountCode: 'WELCOME10' });
    expect(order.discountReleased).toBeFalsy();
    // WELCOME10 is one use per learner, and this paid order holds it again.
    const again = await buyOnMarketplace(stack, s, PLAN_30, { discountCode: 'WELCOME10' });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('discount_invalid');
  });

  it('never expire an order started again between the re-check reading it and failing it', async () => {
    let s = await signIn(stack);
    const held = await buyOnMarketplace(stack, s, PLAN_30, { discountCode: 'WELCOME10' });
    expect((await startOrder(stack, s, held.body.orderId)).status).toBe(200);
    stack.clock.advance(MARKETPLACE_START_EXPIRY_HOURS * HOUR);
    s = await later(s);
    const settled = await racedRecheck(stack, held.body.orderId, async () => {
      expect((await startOrder(stack, s, held.body.orderId)).status).toBe(200);
    });
    expect(settled).not.toContainEqual(expect.objectContaining({ orderId: held.body.orderId }));
    expect(await getOrder(stack.deps, held.body.orderId)).toMatchObject({ status: 'pending', discountCode: 'WELCOME10' });
    expect(await resultsOf(held.body.orderId)).toEqual([]);
  });
});
