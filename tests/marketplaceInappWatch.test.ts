/**
 * The refund watch of in-app products (DESIGN §8 "Period truth"; docs/marketplace.md "In-app products"): the hourly
 * marketplace job asks the validate API again 1, 3, 7, 14 and 30 days after the verification; a purchase the
 * marketplace refunded (`purchaseState: 1`) or no longer knows (404) refunds its order once, with its days and its
 * referral commission taken back; a staff refund first ends the watch, so nothing is taken twice or asked. Black-box through the local
 * runtime and the fake marketplace, with the job's own code.
 */
import { updateItem } from '@mathisland/core/db';
import { getOrder, getPlan, renewDueMarketplaceSubscriptions, savePlan } from '@mathisland/core/subscriptions';
import { beforeAll, describe, expect, it } from 'vitest';
import { commandOf, interleaved } from './support/interleave';
import { boughtAndPaidInApp, injectFault, marketplaceCalls, moveClockTo, refundOnMarketplace, verifyPurchase } from './support/marketplace';
import { admin, DAY_MS, eventsOf, PLAN_30, staffSession, status } from './support/payments';
import { call, type Session, signIn, type TestStack, useStack } from './support/stack';

const NOW = Date.UTC(2026, 10, 20, 8, 0, 0);
const HOUR_MS = 3_600_000;
const IN_APP_PLAN = 61;
const SKU = 'mathisland_inapp_30d';
const iso = (ms: number) => new Date(ms).toISOString();

/** A learner (referred by another, so the purchase earns a commission) who bought the 30-day in-app product at the stack's now. */
async function inappBuyer(stack: TestStack) {
  const referrer = await signIn(stack);
  const { code } = (await call(stack, 'GET', '/api/affiliate', { token: referrer.accessToken })).body;
  const s = await signIn(stack);
  expect((await call(stack, 'POST', '/api/affiliate/referrer', { token: s.accessToken, body: { code } })).status).toBe(200);
  const paid = await boughtAndPaidInApp(stack, s, IN_APP_PLAN);
  const verified = await verifyPurchase(stack, s, paid.orderId, paid.purchaseToken);
  expect(verified.status, verified.text).toBe(200);
  return { s, referrer, ...paid, boundAt: stack.clock.now(), expiresAt: Date.parse(verified.body.expiresAt) };
}

/** The calls to the in-app validate API since `from`. */
const validateCalls = (stack: TestStack, from: number) =>
  marketplaceCalls(stack, from).filter((c) => c.path.startsWith(`/devapi/v2/api/validate/ir.mathisland.app/inapp/${SKU}/`));

const refundRows = async (stack: TestStack, orderId: number) =>
  (await eventsOf(stack, orderId)).filter((e) => e.kind === 'payment_result' && e.result === 'refunded');

const runJob = (stack: TestStack) => renewDueMarketplaceSubscriptions(stack.deps);

const staffView = async (stack: TestStack, orderId: number) => {
  const staff = await staffSession(stack, { permissions: ['view_order'] });
  const res = await admin(stack, staff.cookie, 'GET', `/api/admin/orders/${orderId}`);
  expect(res.status, res.text).toBe(200);
  return res.body.marketplace;
};

describe('the refund watch of in-app products', () => {
  const stack = useStack({ now: NOW });
  const at = (ms: number, ...sessions: Session[]) => moveClockTo(stack, ms, ...sessions);

  beforeAll(async () => {
    const plan = (await getPlan(stack.deps, PLAN_30))!;
    await savePlan(stack.deps.db, { ...plan, id: IN_APP_PLAN, marketplaceSku: SKU, marketplaceProductType: 'inapp' });
  });

  it('a refund at the marketplace refunds the order at the next check: days and commission taken back, once', async () => {
    await at(NOW);
    const buyer = await inappBuyer(stack);
    const before = await status(stack, buyer.s);
    // Days bought outright: paid days, which no marketplace period governs.
    expect(before).toMatchObject({
      status: 'active',
      expiresAt: iso(buyer.boundAt + 30 * DAY_MS),
      source: 'gateway',
      marketplaceValidUntil: null,
    });
    expect(await staffView(stack, buyer.orderId)).toMatchObject({
      productType: 'inapp',
      refundWatch: 'active',
      nextCheckAt: iso(buyer.boundAt + DAY_MS),
      lastAnswer: { outcome: 'valid', httpStatus: 200 },
    });
    await refundOnMarketplace(stack, buyer.purchaseToken);

    // Not asked before its first check is due.
    let from = stack.marketplace.requests.length;
    await at(buyer.boundAt + 20 * HOUR_MS);
    expect(await runJob(stack)).toMatchObject({ refunded: 0, failed: 0 });
    expect(validateCalls(stack, from)).toEqual([]);

    await at(buyer.boundAt + DAY_MS + 5 * 60_000, buyer.s);
    const refundedAt = stack.clock.now();
    expect(await runJob(stack)).toMatchObject({ refunded: 1, failed: 0 });
    expect(validateCalls(stack, from)).toHaveLength(1);
    expect(await getOrder(stack.deps, buyer.orderId)).toMatchObject({ status: 'refunded', endedVia: 'marketplace', refundedAt });
    expect(await refundRows(stack, buyer.orderId)).toEqual([
      expect.objectContaining({
        via: 'marketplace',
        reason: 'marketplace_refunded',
        marketplaceStatus: 200,
        amount: 149_000,
        days: 30,
        commission: 14_900,
      }),
    ]);
    // The 30 days it bought are gone: the learner is back where the purchase found them (no subscription left).
    expect(await status(stack, buyer.s)).toMatchObject({ active: false });
    const earnings = (await call(stack, 'GET', '/api/affiliate', { token: (await signIn(stack, buyer.referrer.phone)).accessToken })).body;
    expect(earnings.commission).toEqual({ earned: 0, reversed: 14_900 });
    expect(await staffView(stack, buyer.orderId)).toMatchObject({
      refundWatch: 'ended',
      endedReason: 'refunded',
      nextCheckAt: null,
      lastAnswer: { outcome: 'refunded', httpStatus: 200 },
    });

    // Nothing is asked again, nothing is taken twice.
    from = stack.marketplace.requests.length;
    await at(buyer.boundAt + 40 * DAY_MS);
    expect(await runJob(stack)).toMatchObject({ refunded: 0 });
    expect(validateCalls(stack, from)).toEqual([]);
    expect(await refundRows(stack, buyer.orderId)).toHaveLength(1);
  });

  it('a purchase never refunded is asked 1, 3, 7, 14 and 30 days on, then no more; its days stay', async () => {
    await at(NOW + 100 * DAY_MS);
    const buyer = await inappBuyer(stack);
    const from = stack.marketplace.requests.length;
    const asked: number[] = [];
    for (const hours of [12, 25, 26, 49, 73, 7 * 24 + 1, 10 * 24, 14 * 24 + 1, 20 * 24, 30 * 24 + 1, 31 * 24, 60 * 24]) {
      await at(buyer.boundAt + hours * HOUR_MS);
      const before = validateCalls(stack, from).length;
      expect(await runJob(stack)).toMatchObject({ refunded: 0, failed: 0 });
      if (validateCalls(stack, from).length > before) asked.push(hours);
    }
    expect(asked).toEqual([25, 73, 7 * 24 + 1, 14 * 24 + 1, 30 * 24 + 1]);
    expect(await getOrder(stack.deps, buyer.orderId)).toMatchObject({ status: 'paid' });
    expect(await staffView(stack, buyer.orderId)).toMatchObject({ refundWatch: 'ended', endedReason: 'watch_over', nextCheckAt: null });
  });

  it('a revoked purchase (404) refunds the order too; a marketplace outage changes nothing and asks again an hour on', async () => {
    await at(NOW + 200 * DAY_MS);
    const buyer = await inappBuyer(stack);
    await at(buyer.boundAt + DAY_MS + 60_000);
    await injectFault(stack, { status: 503, count: 1 });
    expect(await runJob(stack)).toMatchObject({ unavailable: 1, refunded: 0, failed: 0 });
    expect(await getOrder(stack.deps, buyer.orderId)).toMatchObject({ status: 'paid' });
    expect((await staffView(stack, buyer.orderId)).nextCheckAt).toBe(iso(stack.clock.now() + HOUR_MS));

    stack.marketplace.purchases.delete(buyer.purchaseToken); // the marketplace no longer knows it
    await at(stack.clock.now() + 30 * 60_000);
    expect(await runJob(stack)).toMatchObject({ refunded: 0 }); // not due yet
    await at(stack.clock.now() + 31 * 60_000);
    expect(await runJob(stack)).toMatchObject({ refunded: 1, failed: 0 });
    expect(await getOrder(stack.deps, buyer.orderId)).toMatchObject({ status: 'refunded', endedVia: 'marketplace' });
    expect(await refundRows(stack, buyer.orderId)).toEqual([
      expect.objectContaining({ reason: 'marketplace_not_found', marketplaceStatus: 404, days: 30 }),
    ]);
  });

  it('a staff refund ends the watch at once: the marketplace’s refund takes nothing twice and no quota is spent asking', async () => {
    await at(NOW + 300 * DAY_MS);
    const buyer = await inappBuyer(stack);
    const staff = await staffSession(stack, { permissions: ['view_order', 'change_order'] });
    const refunded = await admin(stack, staff.cookie, 'POST', `/api/admin/orders/${buyer.orderId}/refund`, { confirm: true });
    expect(refunded.status, refunded.text).toBe(200);
    expect(await staffView(stack, buyer.orderId)).toMatchObject({ refundWatch: 'ended', endedReason: 'staff_refund', nextCheckAt: null });
    const afterStaff = await status(stack, buyer.s);
    await refundOnMarketplace(stack, buyer.purchaseToken);

    const from = stack.marketplace.requests.length;
    for (const day of [1, 3, 7, 14, 30]) {
      await at(buyer.boundAt + day * DAY_MS + 60_000, buyer.s);
      expect(await runJob(stack)).toMatchObject({ refunded: 0, ended: 0, failed: 0 });
    }
    expect(validateCalls(stack, from)).toEqual([]);
    expect(await getOrder(stack.deps, buyer.orderId)).toMatchObject({ status: 'refunded', refundedBy: expect.any(String) });
    expect(await refundRows(stack, buyer.orderId)).toEqual([]);
    expect((await status(stack, buyer.s)).expiresAt).toBe(afterStaff.expiresAt);
  });

  it('a watch whose order was closed without ending it (a refund from before the watch ended with it) ends unasked', async () => {
    await at(NOW + 350 * DAY_MS);
    const buyer = await inappBuyer(stack);
    await updateItem(stack.deps.db, { pk: `ORDER#${buyer.orderId}`, sk: 'ORDER' }, 'SET #s = :refunded', {
      names: { '#s': 'status' },
      values: { ':refunded': 'refunded' },
    });
    await refundOnMarketplace(stack, buyer.purchaseToken);

    await at(buyer.boundAt + DAY_MS + 60_000, buyer.s);
    const from = stack.marketplace.requests.length;
    expect(await runJob(stack)).toMatchObject({ refunded: 0, ended: 1, failed: 0 });
    expect(validateCalls(stack, from)).toEqual([]); // nothing left to take back: no quota spent asking
    expect(await refundRows(stack, buyer.orderId)).toEqual([]);
    expect(await staffView(stack, buyer.orderId)).toMatchObject({ refundWatch: 'ended', endedReason: 'order_closed' });
  });

  it('two job runs racing on one refunded purchase refund it once', async () => {
    await at(NOW + 400 * DAY_MS);
    const buyer = await inappBuyer(stack);
    await refundOnMarketplace(stack, buyer.purchaseToken);
    await at(buyer.boundAt + DAY_MS + 60_000, buyer.s);
    let rival: Awaited<ReturnType<typeof runJob>> | undefined;
    const deps = interleaved(stack.deps, commandOf('GetCommand', 'MKTPURCHASE#'), async () => {
      rival = await runJob(stack);
    });
    const first = await renewDueMarketplaceSubscriptions(deps);
    expect(rival).toMatchObject({ refunded: 1, failed: 0 });
    expect(first).toMatchObject({ refunded: 0, failed: 0 });
    expect(first.raced + first.not_due).toBe(1);
    expect(await refundRows(stack, buyer.orderId)).toHaveLength(1);
    expect(await status(stack, buyer.s)).toMatchObject({ active: false });
  });
});
