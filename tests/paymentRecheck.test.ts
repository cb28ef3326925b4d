/**
 * The payment re-check job (packages/functions/src/jobs/paymentRecheck.ts), run as its Lambda runs it
 * (`asFunction`, so its DynamoDB requests are checked against infra/permissions.ts) against the fake ZarinPal-style
 * gateway: a buyer whose redirect was lost and who never comes back is granted; an abandoned checkout is failed
 * and its discount use returned; orders outside the window and paid ones are left alone; a second run, or a run
 * racing the callback, grants nothing twice.
 */
import { getOrder, listOrderEvents } from '@mathisland/core/subscriptions';
import { describe, expect, it, vi } from 'vitest';
import { RECHECK_WINDOW_HOURS, recheckPayments } from '../packages/functions/src/jobs/paymentRecheck';
import { DAY_MS, fetchManual, openPayLink, PLAN_30, PLAN_90, pressOnGateway, purchase, status } from './support/payments';
import { freshToken, signIn, useStack } from './support/stack';
import { asFunction } from './support/tableAccess';

describe('payment re-check job', () => {
  const stack = useStack({ now: new Date('2026-03-01T08:00:00Z') });
  const run = () => asFunction('payment-recheck', () => recheckPayments(stack.deps));

  it('grants a payment whose redirect was lost, for a buyer who never comes back; once', async () => {
    const s = await signIn(stack);
    const bought = await purchase(stack, s, { planId: PLAN_90, paymentMethod: 'gateway' });
    const callbackUrl = await pressOnGateway(await openPayLink(bought.body.paymentUrl), 'pay'); // the browser is gone
    const result = await run();
    expect(result.settled).toContainEqual({ orderId: bought.body.orderId, status: 'paid' });
    const order = await getOrder(stack.deps, bought.body.orderId);
    expect(order).toMatchObject({ status: 'paid', paidVia: 'recheck' });
    // A second run and the late callback change nothing: one grant of 90 days.
    expect((await run()).settled).not.toContainEqual(expect.objectContaining({ orderId: bought.body.orderId }));
    expect((await fetchManual(callbackUrl)).headers.get('location')).toContain('status=paid');
    const st = await status(stack, s);
    expect(st.status).toBe('active');
    expect(Date.parse(st.expiresAt) - stack.clock.now()).toBe(90 * DAY_MS);
    const grants = (await listOrderEvents(stack.deps, bought.body.orderId)).filter((e) => e.kind === 'payment_result' && !e.ignored);
    expect(grants).toHaveLength(1);
  });

  it('fails a checkout abandoned for an hour and gives its discount use back; leaves a fresh one pending', async () => {
    const s = await signIn(stack);
    const abandoned = await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway', discountCode: 'WELCOME10' });
    await openPayLink(abandoned.body.paymentUrl);
    stack.clock.advance(30 * 60);
    expect((await run()).settled).not.toContainEqual(expect.objectContaining({ orderId: abandoned.body.orderId }));
    expect((await getOrder(stack.deps, abandoned.body.orderId)).status).toBe('pending');
    stack.clock.advance(30 * 60);
    expect((await run()).settled).toContainEqual({ orderId: abandoned.body.orderId, status: 'failed' });
    // WELCOME10 is one use per learner: it is free again.
    const later = { ...s, accessToken: await freshToken(stack, s) };
    expect((await purchase(stack, later, { planId: PLAN_30, paymentMethod: 'gateway', discountCode: 'WELCOME10' })).status).toBe(201);
  });

  it('grants a payment made on the page left open after a forged NOK callback failed the order, its redirect lost; once', async () => {
    const s = await signIn(stack);
    const bought = await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway', discountCode: 'WELCOME10' });
    const startPay = await openPayLink(bought.body.paymentUrl);
    // Anyone who saw the StartPay address can send the browser's return with Status=NOK: the order fails.
    const authority = new URL(startPay).pathname.split('/').pop() as string;
    const forged = await fetchManual(`${stack.baseUrl}/api/payment/gateway/callback?Authority=${authority}&Status=NOK`);
    expect(forged.headers.get('location')).toContain('status=failed');
    expect((await getOrder(stack.deps, bought.body.orderId)).status).toBe('failed');
    // The buyer pays on the page still open, and the redirect back is lost.
    stack.clock.advance(5 * 60);
    await pressOnGateway(startPay, 'pay');
    expect((await run()).settled).toContainEqual({ orderId: bought.body.orderId, status: 'paid' });
    expect(await getOrder(stack.deps, bought.body.orderId)).toMatchObject({ status: 'paid', paidVia: 'recheck' });
    expect((await run()).settled).not.toContainEqual(expect.objectContaining({ orderId: bought.body.orderId }));
    const st = await status(stack, { ...s, accessToken: await freshToken(stack, s) });
    expect(st.status).toBe('active');
    expect(Date.parse(st.expiresAt) - stack.clock.now()).toBe(30 * DAY_MS);
    // Its discount use, given back when it failed, is taken again: WELCOME10 is one use per learner.
    const again = await purchase(
      stack,
      { ...s, accessToken: await freshToken(stack, s) },
      {
        planId: PLAN_30,
        paymentMethod: 'gateway',
        discountCode: 'WELCOME10',
      },
    );
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('discount_invalid');
  });

  it("asks the gateway about a failed order only within the window of its gateway step, on the buyer's status read too", async () => {
    const s = await signIn(stack);
    const bought = await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway' });
    const startPay = await openPayLink(bought.body.paymentUrl);
    const authority = new URL(startPay).pathname.split('/').pop() as string;
    await fetchManual(`${stack.baseUrl}/api/payment/gateway/callback?Authority=${authority}&Status=NOK`);
    // Within the window the buyer's own status read settles a payment made afterwards.
    await pressOnGateway(startPay, 'pay');
    stack.clock.advance(RECHECK_WINDOW_HOURS * 3600 - 60);
    const within = await status(stack, { ...s, accessToken: await freshToken(stack, s) });
    expect(within.recheckedOrders).toEqual([{ orderId: bought.body.orderId, status: 'paid' }]);

    // A failed order whose gateway step began longer ago is no longer looked for: no call to the gateway's list.
    const other = await signIn(stack);
    const lapsed = await purchase(stack, other, { planId: PLAN_30, paymentMethod: 'gateway' });
    const lapsedPay = await openPayLink(lapsed.body.paymentUrl);
    const lapsedAuthority = new URL(lapsedPay).pathname.split('/').pop() as string;
    await fetchManual(`${stack.baseUrl}/api/payment/gateway/callback?Authority=${lapsedAuthority}&Status=NOK`);
    stack.clock.advance(RECHECK_WINDOW_HOURS * 3600 + 60);
    const listing = vi.spyOn(stack.deps.gateway, 'unverified');
    try {
      const after = await status(stack, { ...other, accessToken: await freshToken(stack, other) });
      expect(after.recheckedOrders).toEqual([]);
      expect(listing).not.toHaveBeenCalled();
    } finally {
      listing.mockRestore();
    }
  });

  it('looks only at orders created within the window, through the all-orders index', async () => {
    const s = await signIn(stack);
    const old = await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway' });
    await pressOnGateway(await openPayLink(old.body.paymentUrl), 'pay');
    stack.clock.advance(RECHECK_WINDOW_HOURS * 3600 + 60);
    expect((await run()).settled).not.toContainEqual(expect.objectContaining({ orderId: old.body.orderId }));
    expect((await getOrder(stack.deps, old.body.orderId)).status).toBe('pending');
    // The buyer's own status read still settles it.
    const later = { ...s, accessToken: await freshToken(stack, s) };
    expect((await status(stack, later)).recheckedOrders).toContainEqual({ orderId: old.body.orderId, status: 'paid' });
  });

  it('asks the gateway for its list once per run, and re-checks only buyers with work against it', async () => {
    stack.clock.advance(RECHECK_WINDOW_HOURS * 3600 + 60); // nothing older in the window
    // Six buyers whose orders failed (a NOK callback), one of whom then paid on the page still open.
    const failedOrders: number[] = [];
    let paying: { orderId: number; startPay: string } | undefined;
    for (let i = 0; i < 6; i++) {
      const s = await signIn(stack);
      const bought = await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway' });
      const startPay = await openPayLink(bought.body.paymentUrl);
      const authority = new URL(startPay).pathname.split('/').pop() as string;
      await fetchManual(`${stack.baseUrl}/api/payment/gateway/callback?Authority=${authority}&Status=NOK`);
      failedOrders.push(bought.body.orderId);
      if (i === 3) paying = { orderId: bought.body.orderId, startPay };
    }
    await pressOnGateway(paying!.startPay, 'pay');
    const listing = vi.spyOn(stack.deps.gateway, 'unverified');
    const verifying = vi.spyOn(stack.deps.gateway, 'verify');
    try {
      const result = await run();
      // One list for the run; one buyer with work (the one the list names), one verification.
      expect(listing).toHaveBeenCalledTimes(1);
      expect(result).toMatchObject({ buyers: 1, settled: [{ orderId: paying!.orderId, status: 'paid' }], deferred: 0 });
      expect(verifying).toHaveBeenCalledTimes(1);
      for (const id of failedOrders.filter((o) => o !== paying!.orderId)) expect((await getOrder(stack.deps, id)).status).toBe('failed');
    } finally {
      listing.mockRestore();
      verifying.mockRestore();
    }
  });

  it('stops taking buyers at its deadline and leaves them for the next run', async () => {
    stack.clock.advance(RECHECK_WINDOW_HOURS * 3600 + 60);
    const s = await signIn(stack);
    const bought = await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway' });
    await pressOnGateway(await openPayLink(bought.body.paymentUrl), 'pay');
    const late = await asFunction('payment-recheck', () => recheckPayments(stack.deps, { deadlineMs: Date.now() - 1 }));
    expect(late).toMatchObject({ buyers: 1, settled: [], deferred: 1 });
    expect((await getOrder(stack.deps, bought.body.orderId)).status).toBe('pending');
    expect((await run()).settled).toEqual([{ orderId: bought.body.orderId, status: 'paid' }]);
  });

  it('does nothing without unpaid gateway orders in the window', async () => {
    stack.clock.advance(RECHECK_WINDOW_HOURS * 3600 + 60);
    expect(await run()).toEqual({ windowHours: RECHECK_WINDOW_HOURS, buyers: 0, settled: [], deferred: 0 });
  });
});
