/**
 * Checkouts that never started (core subscriptions/unstarted.ts): an order whose pay link was never opened, or whose
 * in-app purchase was never started, expires an hour after the purchase (failed, reason `expired`), and the discount
 * use it held comes back, whether the re-check job or the buyer's own status read finds it. Started, free and fresh
 * orders are left alone, and an expired order's pay link says it failed.
 */
import { getOrder, saveDiscountCode, UNSTARTED_EXPIRY_MINUTES } from '@mathisland/core/subscriptions';
import { describe, expect, it } from 'vitest';
import { recheckPayments } from '../packages/functions/src/jobs/paymentRecheck';
import { buyOnMarketplace, startOrder } from './support/marketplace';
import { eventsOf, fetchManual, openPayLink, PLAN_30, purchase, status } from './support/payments';
import { freshToken, type Session, signIn, useStack } from './support/stack';
import { asFunction } from './support/tableAccess';

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
    // The buyer opens the link just before the expiry's transaction is sent: its condition must hold the order unstarted.
    const doc = stack.deps.db.doc;
    const send = doc.send;
    let raced = false;
    doc.send = (async (command: object, ...rest: unknown[]) => {
      const failing = command.constructor.name === 'TransactWriteCommand' && JSON.stringify(command).includes('Not started within');
      if (failing && !raced) {
        raced = true;
        await openPayLink(held.body.paymentUrl);
      }
      return (send as (...a: unknown[]) => unknown).call(doc, command, ...rest);
    }) as typeof doc.send;
    try {
      expect((await run()).settled).not.toContainEqual(expect.objectContaining({ orderId: held.body.orderId }));
    } finally {
      doc.send = send;
    }
    expect(raced).toBe(true);
    const order = await getOrder(stack.deps, held.body.orderId);
    expect(order.status).toBe('pending');
    expect(order.authority).toBeDefined();
    expect((await eventsOf(stack, held.body.orderId)).filter((e) => e.kind === 'payment_result')).toEqual([]);
  });
});
