/**
 * Issue 17: marketplace auto-renewal (spec "Subscription": asked again on status reads and paywall checks, each new
 * period a new paid order; DESIGN §8: the hourly job through the due-hour index, one order per period even when
 * status reads and the job race, refunded purchases renew nothing) through the local runtime and the fake
 * marketplace; and `npm run job:marketplace-renewal`.
 */
import { getOrder, renewDueMarketplaceSubscriptions } from '@mathisland/core/subscriptions';
import { describe, expect, it } from 'vitest';
import {
  injectFault,
  marketplaceCalls,
  marketplaceSubscriber,
  moveClockTo,
  refundOnMarketplace,
  renewOnMarketplace,
} from './support/marketplace';
import { DAY_MS, eventsOf, PLAN_30 } from './support/payments';
import { runScriptOnStack } from './support/scripts';
import { call, type Session, signIn, type TestStack, useStack } from './support/stack';

const NOW = Date.UTC(2026, 10, 20, 8, 0, 0);
const HOUR_MS = 3_600_000;

const subscriber = marketplaceSubscriber;
const moveTo = moveClockTo;

const statusOf = async (stack: TestStack, s: Session) => {
  const res = await call(stack, 'GET', '/api/subscription/status', { token: s.accessToken });
  expect(res.status, res.text).toBe(200);
  return res.body;
};
/** The user's paid orders (invoices), newest first. */
const paidOrders = async (stack: TestStack, s: Session) =>
  (await call(stack, 'GET', '/api/payment/invoices', { token: s.accessToken })).body.items.filter((i: any) => i.status === 'paid');

describe('marketplace auto-renewal', () => {
  const stack = useStack({ now: NOW });

  it('asks nothing before the period nears its end; inside the renewal window a status read makes one new paid order', async () => {
    const sub = await subscriber(stack);
    const from = stack.marketplace.requests.length;
    await statusOf(stack, sub.s);
    expect(marketplaceCalls(stack, from)).toEqual([]);

    const next = sub.validUntil + 30 * DAY_MS;
    await renewOnMarketplace(stack, sub.purchaseToken, next);
    await moveTo(stack, sub.validUntil - 12 * HOUR_MS, sub.s);
    const status = await statusOf(stack, sub.s);
    expect(status).toMatchObject({ status: 'active', expiresAt: new Date(sub.expiresAt + 30 * DAY_MS).toISOString() });
    const orders = await paidOrders(stack, sub.s);
    expect(orders).toHaveLength(2);
    const renewal = await getOrder(stack.deps, orders[0].orderId);
    expect(renewal).toMatchObject({
      status: 'paid',
      provider: 'marketplace',
      planId: PLAN_30,
      renewalOf: sub.orderId,
      paidVia: 'marketplace_renewal',
      validUntil: next,
      amount: 149_000,
      grant: { days: 30, fromMs: sub.expiresAt },
    });
    expect(await eventsOf(stack, renewal.id)).toContainEqual(
      expect.objectContaining({ kind: 'payment_result', via: 'marketplace_renewal', result: 'paid', ignored: false }),
    );
    // Renewed: the next read neither asks nor orders again.
    const after = stack.marketplace.requests.length;
    await statusOf(stack, sub.s);
    expect(marketplaceCalls(stack, after)).toEqual([]);
    expect(await paidOrders(stack, sub.s)).toHaveLength(2);
  });

  it('makes one new order per period when status reads and the hourly job race', async () => {
    const sub = await subscriber(stack);
    await renewOnMarketplace(stack, sub.purchaseToken, sub.validUntil + 30 * DAY_MS);
    await moveTo(stack, sub.validUntil - 2 * HOUR_MS, sub.s);
    await Promise.all([
      ...Array.from({ length: 6 }, () => statusOf(stack, sub.s)),
      renewDueMarketplaceSubscriptions(stack.deps),
      renewDueMarketplaceSubscriptions(stack.deps),
    ]);
    const orders = await paidOrders(stack, sub.s);
    expect(orders).toHaveLength(2);
    const renewals = (await Promise.all(orders.map((o: any) => getOrder(stack.deps, o.orderId)))).filter(
      (o) => o.renewalOf === sub.orderId,
    );
    expect(renewals).toHaveLength(1);
    const paidRows = (await eventsOf(stack, renewals[0]!.id)).filter((e) => e.kind === 'payment_result' && e.result === 'paid');
    expect(paidRows).toHaveLength(1);
    expect((await statusOf(stack, sub.s)).expiresAt).toBe(new Date(sub.expiresAt + 30 * DAY_MS).toISOString());
  });

  it('renews nothing for a refunded purchase (the marketplace answers 404): access ends at that answer, the order refunded', async () => {
    const sub = await subscriber(stack);
    await refundOnMarketplace(stack, sub.purchaseToken);
    await moveTo(stack, sub.validUntil - 12 * HOUR_MS, sub.s);
    const endedAt = stack.clock.now();
    expect(await statusOf(stack, sub.s)).toMatchObject({ status: 'expired', active: false, expiresAt: new Date(endedAt).toISOString() });
    await renewDueMarketplaceSubscriptions(stack.deps);
    expect(await paidOrders(stack, sub.s)).toHaveLength(0);
    expect(await getOrder(stack.deps, sub.orderId)).toMatchObject({ status: 'refunded', endedVia: 'marketplace', refundedAt: endedAt });
    const ends = (await eventsOf(stack, sub.orderId)).filter((e) => e.kind === 'payment_result' && e.result === 'refunded');
    expect(ends).toEqual([expect.objectContaining({ via: 'marketplace', reason: 'marketplace_not_found', marketplaceStatus: 404 })]);
    // Ended: not asked again.
    const from = stack.marketplace.requests.length;
    await statusOf(stack, sub.s);
    expect(marketplaceCalls(stack, from)).toEqual([]);
  });

  it('a fault of the marketplace during the renewal check pays nothing and fails nothing; the next read renews', async () => {
    const sub = await subscriber(stack);
    await renewOnMarketplace(stack, sub.purchaseToken, sub.validUntil + 30 * DAY_MS);
    await moveTo(stack, sub.validUntil - 6 * HOUR_MS, sub.s);
    for (const code of [401, 503]) {
      await injectFault(stack, { status: code });
      expect((await statusOf(stack, sub.s)).expiresAt).toBe(new Date(sub.expiresAt).toISOString());
      expect(await paidOrders(stack, sub.s)).toHaveLength(1);
      expect((await getOrder(stack.deps, sub.orderId)).status).toBe('paid');
    }
    expect((await statusOf(stack, sub.s)).expiresAt).toBe(new Date(sub.expiresAt + 30 * DAY_MS).toISOString());
    expect(await paidOrders(stack, sub.s)).toHaveLength(2);
  });

  it('ends the renewals of a subscription that is not auto-renewing once its period is over, ordering nothing', async () => {
    const sub = await subscriber(stack, { autoRenewing: false });
    await moveTo(stack, sub.validUntil + HOUR_MS, sub.s);
    await statusOf(stack, sub.s);
    expect(await eventsOf(stack, sub.orderId)).toContainEqual(expect.objectContaining({ reason: 'renewals_ended_not_renewed' }));
    expect(await paidOrders(stack, sub.s)).toHaveLength(1);
  });

  it('the hourly job renews subscriptions nobody reads, found through the due-hour index (no Scan)', async () => {
    const sub = await subscriber(stack);
    await renewOnMarketplace(stack, sub.purchaseToken, sub.validUntil + 30 * DAY_MS);
    stack.clock.set(sub.validUntil - 20 * HOUR_MS);
    stack.deps.db.requests.reset();
    const counts = await renewDueMarketplaceSubscriptions(stack.deps);
    expect(counts).toMatchObject({ renewed: 1, failed: 0 });
    expect(stack.deps.db.requests.byOperation.has('Scan')).toBe(false);
    expect(stack.deps.db.requests.byOperation.get('Query')).toBeGreaterThan(0);
    Object.assign(sub.s, await signIn(stack, sub.s.phone));
    expect(await paidOrders(stack, sub.s)).toHaveLength(2);
    expect((await renewDueMarketplaceSubscriptions(stack.deps)).renewed).toBe(0);
  });

  it('stops taking purchases at its deadline: what it left stays due, and the next run renews it', async () => {
    const sub = await subscriber(stack);
    await renewOnMarketplace(stack, sub.purchaseToken, sub.validUntil + 30 * DAY_MS);
    stack.clock.set(sub.validUntil - 20 * HOUR_MS);
    const from = marketplaceCalls(stack).length;
    const cut = await renewDueMarketplaceSubscriptions(stack.deps, { deadlineMs: Date.now() - 1 });
    expect(cut).toMatchObject({ renewed: 0, failed: 0 });
    // Past its deadline before the first partition, it read nothing and asked nothing.
    expect(marketplaceCalls(stack, from)).toEqual([]);
    const next = await renewDueMarketplaceSubscriptions(stack.deps, { deadlineMs: Date.now() + 60_000 });
    expect(next).toMatchObject({ renewed: 1, failed: 0, deferred: 0 });
  });

  it('the tutor’s paywall (its daily quota) runs the renewal sync too', async () => {
    const sub = await subscriber(stack);
    await renewOnMarketplace(stack, sub.purchaseToken, sub.validUntil + 30 * DAY_MS);
    await moveTo(stack, sub.expiresAt + HOUR_MS, sub.s);
    const ask = await call(stack, 'POST', '/api/ai/ask', { token: sub.s.accessToken, body: { userQuestion: 'what is 1/2 + 1/4?' } });
    expect(ask.status, ask.text).toBe(200);
    const orders = await paidOrders(stack, sub.s);
    expect(orders).toHaveLength(2);
    expect((await getOrder(stack.deps, orders[0].orderId)).renewalOf).toBe(sub.orderId);
  });
});

describe('npm run job:marketplace-renewal', () => {
  const stack = useStack();

  it('runs the job on the local table against the stack’s fake marketplace', async () => {
    const sub = await subscriber(stack, { days: 0.25 });
    await renewOnMarketplace(stack, sub.purchaseToken, sub.validUntil + 30 * DAY_MS);
    const settings = stack.deps.settings;
    const { stdout } = await runScriptOnStack(stack, 'job-marketplace-renewal.ts', [], {
      MARKETPLACE_BASE_URL: settings.marketplace.baseUrl,
      MARKETPLACE_PACKAGE_NAME: settings.marketplace.packageName,
      MARKETPLACE_API_SECRET: settings.marketplace.apiSecret,
    });
    expect(stdout).toMatch(/"renewed":1/);
    expect(await paidOrders(stack, sub.s)).toHaveLength(2);
  });
});
