/**
 * Issue 23, points 3 and 4 (DESIGN §8 "Period truth"): a purchase the marketplace reports refunded (404) or cancelled
 * (an earlier validUntil) ends access when the marketplace says, whoever sees it first (a status read, the tutor's
 * paywall, the hourly job), exactly once under races; the daily re-check finds it long before renewal; staff see the
 * marketplace's answers. Black-box through the local runtime and the fake marketplace.
 */
import { userKey } from '@mathisland/core/auth';
import { deleteItem, updateItem } from '@mathisland/core/db';
import { applyMigrations, migrationKey } from '@mathisland/core/migrations';
import { getOrder, renewDueMarketplaceSubscriptions } from '@mathisland/core/subscriptions';
import { describe, expect, it } from 'vitest';
import { commandOf, interleaved } from './support/interleave';
import {
  cancelOnMarketplace,
  marketplaceCalls,
  marketplaceSubscriber,
  moveClockTo,
  refundOnMarketplace,
  renewOnMarketplace,
  verifyPurchase,
} from './support/marketplace';
import { admin, buyAndPay, DAY_MS, eventsOf, PLAN_30, staffSession, status } from './support/payments';
import { call, type Session, signIn, type TestStack, useStack } from './support/stack';
import { asFunction } from './support/tableAccess';

const HOUR_MS = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

const subscriber = (stack: TestStack, days = 30) => marketplaceSubscriber(stack, { days });

/** Moves the clock on by `ms` and signs `sessions` in again (access tokens last an hour). */
const later = (stack: TestStack, ms: number, ...sessions: Session[]) => moveClockTo(stack, stack.clock.now() + ms, ...sessions);
const statusOf = status;
const ask = (stack: TestStack, s: Session) =>
  call(stack, 'POST', '/api/ai/ask', { token: s.accessToken, body: { userQuestion: 'what is 1/2 + 1/4?' } });
/** The rows that ended the order at the marketplace's word. */
const endRows = async (stack: TestStack, orderId: number) =>
  (await eventsOf(stack, orderId)).filter((e) => e.kind === 'payment_result' && (e.result === 'refunded' || e.result === 'cancelled'));

/** The refund ended `sub` once, at `at`: the order refunded by the marketplace, access over, nothing asked again. */
async function expectRefundedOnce(stack: TestStack, sub: Awaited<ReturnType<typeof subscriber>>, at: number) {
  expect(await getOrder(stack.deps, sub.orderId)).toMatchObject({ status: 'refunded', endedVia: 'marketplace', refundedAt: at });
  expect(await endRows(stack, sub.orderId)).toEqual([
    expect.objectContaining({ via: 'marketplace', result: 'refunded', reason: 'marketplace_not_found', marketplaceStatus: 404 }),
  ]);
  const from = stack.marketplace.requests.length;
  expect(await statusOf(stack, sub.s)).toMatchObject({ status: 'expired', active: false, expiresAt: iso(at), marketplaceValidUntil: null });
  expect((await renewDueMarketplaceSubscriptions(stack.deps)).ended).toBe(0);
  expect(marketplaceCalls(stack, from)).toEqual([]);
}

describe('a refund at the marketplace ends access, seen by each path, once', () => {
  const stack = useStack({ now: Date.UTC(2026, 10, 20, 8, 0, 0) });

  it('seen by a status read: the daily re-check, 29 days before renewal would ask', async () => {
    const sub = await subscriber(stack);
    await refundOnMarketplace(stack, sub.purchaseToken);
    const from = stack.marketplace.requests.length;
    expect((await statusOf(stack, sub.s)).status).toBe('active'); // asked a day after its last answer, not at every read
    expect(marketplaceCalls(stack, from)).toEqual([]);
    await later(stack, 25 * HOUR_MS, sub.s);
    const at = stack.clock.now();
    expect(await statusOf(stack, sub.s)).toMatchObject({ status: 'expired', expiresAt: iso(at) });
    await expectRefundedOnce(stack, sub, at);
  });

  it('seen by a paywall check (the tutor’s quota): the question is then counted at the free quota', async () => {
    const sub = await subscriber(stack);
    await refundOnMarketplace(stack, sub.purchaseToken);
    await later(stack, 25 * HOUR_MS, sub.s);
    const at = stack.clock.now();
    const res = await ask(stack, sub.s);
    expect(res.status, res.text).toBe(200);
    await expectRefundedOnce(stack, sub, at);
    expect((await statusOf(stack, sub.s)).aiDailyQuota).toBe(2);
  });

  it('seen by the hourly job, through the due index (no Scan), with nobody reading', async () => {
    const sub = await subscriber(stack);
    await refundOnMarketplace(stack, sub.purchaseToken);
    await later(stack, 25 * HOUR_MS);
    const at = stack.clock.now();
    stack.deps.db.requests.reset();
    // As the deployed job: its requests are checked against its IAM declaration (infra/permissions.ts).
    const counts = await asFunction('marketplace-renewal', () => renewDueMarketplaceSubscriptions(stack.deps));
    expect(counts).toMatchObject({ ended: 1, renewed: 0, failed: 0 });
    expect(stack.deps.db.requests.byOperation.has('Scan')).toBe(false);
    Object.assign(sub.s, await signIn(stack, sub.s.phone));
    await expectRefundedOnce(stack, sub, at);
  });

  it('races: status reads, paywall checks and two jobs at once end it exactly once', async () => {
    for (let round = 0; round < 2; round++) {
      const sub = await subscriber(stack);
      await refundOnMarketplace(stack, sub.purchaseToken);
      await later(stack, 25 * HOUR_MS, sub.s);
      const at = stack.clock.now();
      const outcomes = await Promise.all([
        ...Array.from({ length: 4 }, () => statusOf(stack, sub.s)),
        ask(stack, sub.s),
        ask(stack, sub.s),
        renewDueMarketplaceSubscriptions(stack.deps),
        renewDueMarketplaceSubscriptions(stack.deps),
      ]);
      expect(outcomes.slice(4, 6).map((r: any) => r.status)).toEqual([200, 200]);
      await expectRefundedOnce(stack, sub, at);
    }
  });

  it('races at the exact point: a status read ends it between the job’s read and its write; the job stands down', async () => {
    const sub = await subscriber(stack);
    await refundOnMarketplace(stack, sub.purchaseToken);
    await later(stack, 25 * HOUR_MS, sub.s);
    const at = stack.clock.now();
    const deps = interleaved(stack.deps, commandOf('GetCommand', 'MKTPURCHASE#'), () => statusOf(stack, sub.s));
    expect(await renewDueMarketplaceSubscriptions(deps)).toMatchObject({ ended: 0, raced: 1, failed: 0 });
    await expectRefundedOnce(stack, sub, at);
  });

  it('a cancellation at the marketplace (an earlier validUntil) ends access then, the order cancelled; nothing renews', async () => {
    const sub = await subscriber(stack);
    const endsAt = stack.clock.now() + 3 * DAY_MS;
    await cancelOnMarketplace(stack, sub.purchaseToken, endsAt);
    await later(stack, 25 * HOUR_MS, sub.s);
    expect(await statusOf(stack, sub.s)).toMatchObject({ status: 'active', expiresAt: iso(endsAt), marketplaceValidUntil: null });
    expect(await getOrder(stack.deps, sub.orderId)).toMatchObject({ status: 'cancelled', endedVia: 'marketplace' });
    expect(await endRows(stack, sub.orderId)).toEqual([
      expect.objectContaining({ result: 'cancelled', reason: 'marketplace_cancelled', validUntil: endsAt, autoRenewing: false }),
    ]);
    await later(stack, 3 * DAY_MS, sub.s);
    expect(await statusOf(stack, sub.s)).toMatchObject({ status: 'expired', expiresAt: iso(endsAt) });
    // It was paid all the same: still an invoice, marked cancelled.
    const invoices = await call(stack, 'GET', '/api/payment/invoices', { token: sub.s.accessToken });
    expect(invoices.body.items).toEqual([
      expect.objectContaining({ orderId: sub.orderId, status: 'cancelled', cancelledAt: expect.any(String), paidAt: expect.any(String) }),
    ]);
    // The app sending the purchase again is told the order is over (409), without asking the marketplace.
    const from = stack.marketplace.requests.length;
    const again = await verifyPurchase(stack, sub.s, sub.orderId, sub.purchaseToken);
    expect(again.status, again.text).toBe(409);
    expect(again.body.code).toBe('order_status_conflict');
    expect(marketplaceCalls(stack, from)).toEqual([]);
  });
});

describe('money in one place: staff see the marketplace’s answers; a staff refund ends the subscription', () => {
  const stack = useStack({ now: Date.UTC(2026, 10, 20, 8, 0, 0) });

  it('shows the period, the token digest’s prefix and the last answer on the order page, and the answers in the payment events', async () => {
    let staff = await staffSession(stack, { permissions: ['view_order', 'view_paymentevent'] });
    const sub = await subscriber(stack);
    const digest = (await getOrder(stack.deps, sub.orderId)).purchaseTokenDigest as string;
    const page = await admin(stack, staff.cookie, 'GET', `/api/admin/orders/${sub.orderId}`);
    expect(page.status, page.text).toBe(200);
    expect(page.body.marketplace).toMatchObject({
      tokenDigestPrefix: digest.slice(0, 12),
      productType: 'subscription',
      validUntil: iso(sub.validUntil),
      renewalState: 'active',
      lastAnswer: { outcome: 'valid', httpStatus: 200, validUntil: iso(sub.validUntil), autoRenewing: true },
    });
    expect(page.text).not.toContain(sub.purchaseToken);

    await refundOnMarketplace(stack, sub.purchaseToken);
    await later(stack, 25 * HOUR_MS, sub.s);
    await statusOf(stack, sub.s);
    staff = await staffSession(stack, { permissions: ['view_order', 'view_paymentevent'] }); // staff sessions last 12 hours
    const after = await admin(stack, staff.cookie, 'GET', `/api/admin/orders/${sub.orderId}`);
    expect(after.body).toMatchObject({ status: 'refunded', endedVia: 'marketplace' });
    expect(after.body.marketplace).toMatchObject({
      renewalState: 'ended',
      endedReason: 'not_found',
      lastAnswer: { outcome: 'not_found', httpStatus: 404 },
    });
    const events = await admin(stack, staff.cookie, 'GET', `/api/admin/payment-events?orderId=${sub.orderId}&kind=payment_result`);
    expect(events.body.items.map((e: any) => [e.result, e.marketplaceStatus])).toEqual([
      ['refunded', 404],
      ['paid', 200],
    ]);
    const noView = await staffSession(stack, { permissions: ['view_paymentevent'] });
    expect((await admin(stack, noView.cookie, 'GET', `/api/admin/orders/${sub.orderId}`)).status).toBe(403);
  });

  it('a staff refund of the current period ends the marketplace subscription now: no renewal revives it', async () => {
    const staff = await staffSession(stack, { permissions: ['view_order', 'change_order'] });
    const sub = await subscriber(stack);
    const preview = await admin(stack, staff.cookie, 'GET', `/api/admin/orders/${sub.orderId}/refund`);
    expect(preview.body).toMatchObject({ days: 30, subscriptionExpiresAt: { before: iso(sub.validUntil), after: iso(stack.clock.now()) } });
    const refunded = await admin(stack, staff.cookie, 'POST', `/api/admin/orders/${sub.orderId}/refund`, { confirm: true });
    expect(refunded.status, refunded.text).toBe(200);
    expect(refunded.body.marketplace).toMatchObject({ renewalState: 'ended', endedReason: 'staff_refund' });
    expect((await statusOf(stack, sub.s)).status).toBe('expired');
    await renewOnMarketplace(stack, sub.purchaseToken, sub.validUntil + 30 * DAY_MS);
    await later(stack, sub.validUntil - stack.clock.now() - HOUR_MS, sub.s);
    await statusOf(stack, sub.s);
    await renewDueMarketplaceSubscriptions(stack.deps);
    expect((await statusOf(stack, sub.s)).status).toBe('expired');
  });
});

describe('a refund after a marketplace period ended', () => {
  const stack = useStack({ now: Date.UTC(2026, 10, 20, 8, 0, 0) });

  it('takes back the gateway days bought behind it without bringing the ended period back', async () => {
    const sub = await marketplaceSubscriber(stack, { days: 2, autoRenewing: false });
    const { orderId } = await buyAndPay(stack, sub.s, PLAN_30);
    // The 30 days wait behind the period; it ends (not renewed), and the days run on their own.
    await moveClockTo(stack, sub.validUntil + HOUR_MS, sub.s);
    await renewDueMarketplaceSubscriptions(stack.deps);
    expect(await statusOf(stack, sub.s)).toMatchObject({ status: 'active', source: 'gateway', marketplaceValidUntil: null });
    const staff = await staffSession(stack, { permissions: ['view_order', 'change_order'] });
    const refunded = await admin(stack, staff.cookie, 'POST', `/api/admin/orders/${orderId}/refund`, { confirm: true });
    expect(refunded.status, refunded.text).toBe(200);
    expect(await statusOf(stack, sub.s)).toMatchObject({ status: 'expired', source: 'gateway', marketplaceValidUntil: null });
    // Days bought afterwards are plain paid days, not held behind a period that is over.
    await buyAndPay(stack, sub.s, PLAN_30);
    const after = await statusOf(stack, sub.s);
    expect(after).toMatchObject({ status: 'active', source: 'gateway', marketplaceValidUntil: null });
    expect(Date.parse(after.expiresAt) - stack.clock.now()).toBe(30 * DAY_MS);
  });
});

describe('migration 0005: a subscription verified before period truth', () => {
  const stack = useStack({ now: Date.UTC(2026, 10, 20, 8, 0, 0) });

  it('gets its marketplace period (the old end kept), moves to the new due index, and is then re-checked daily', async () => {
    const sub = await subscriber(stack, 30);
    const { db } = stack.deps;
    const old = { planId: PLAN_30, planTitle: 'اشتراک یک‌ماهه', aiDailyQuota: 4, expiresAt: sub.validUntil + 5 * DAY_MS };
    await updateItem(db, userKey(sub.s.userId), 'SET subscription = :old', { values: { ':old': old } });
    const digest = (await getOrder(stack.deps, sub.orderId)).purchaseTokenDigest as string;
    await updateItem(db, { pk: `MKTPURCHASE#${digest}`, sk: 'MKTPURCHASE' }, 'SET gsi1pk = :pk, gsi1sk = :sk, nextCheckAt = :at', {
      values: { ':pk': 'MKTDUE#2026-12-19', ':sk': `2026-12-19T08#${digest}`, ':at': sub.validUntil - DAY_MS },
    });

    await deleteItem(db, migrationKey('0005-marketplace-period-truth'));
    expect(await applyMigrations(db, () => stack.clock.now())).toEqual(['0005-marketplace-period-truth']);
    expect(await statusOf(stack, sub.s)).toMatchObject({
      expiresAt: iso(sub.validUntil + 5 * DAY_MS),
      source: 'marketplace',
      marketplaceValidUntil: iso(sub.validUntil),
    });
    await refundOnMarketplace(stack, sub.purchaseToken);
    await later(stack, 25 * HOUR_MS, sub.s);
    expect(await renewDueMarketplaceSubscriptions(stack.deps)).toMatchObject({ ended: 1 });
    expect(await statusOf(stack, sub.s)).toMatchObject({
      status: 'active',
      expiresAt: iso(stack.clock.now() + 5 * DAY_MS),
      source: 'gateway',
    });
    expect(await applyMigrations(db)).toEqual([]);
  });
});
