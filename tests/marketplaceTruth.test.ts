/**
 * Issue 23, points 1 and 2 (DESIGN §8 "Period truth", "Binding a purchase to its order"), black-box through the local
 * runtime and the fake marketplace, which signs what it mints (MARKETPLACE_PUBLIC_KEY is its public key locally):
 * a marketplace subscription lasts as long as the marketplace says, a renewal is seen by a status read, gateway days
 * wait behind a marketplace period, and a purchase pays only the order it was bought for.
 */
import { getOrder } from '@mathisland/core/subscriptions';
import { describe, expect, it } from 'vitest';
import {
  boughtAndPaidInApp,
  buyOnMarketplace,
  marketplaceCalls,
  moveClockTo,
  refundOnMarketplace,
  renewOnMarketplace,
  signedDataOf,
  startOrder,
  verifyPurchase,
} from './support/marketplace';
import { buyAndPay, DAY_MS, eventsOf, PLAN_30, PLAN_90, status } from './support/payments';
import { call, type Session, signIn, type TestStack, useStack } from './support/stack';

const NOW = Date.UTC(2026, 10, 20, 8, 0, 0);
const HOUR_MS = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

const moveTo = moveClockTo;

const paidInvoices = async (stack: TestStack, s: Session) =>
  (await call(stack, 'GET', '/api/payment/invoices', { token: s.accessToken })).body.items.filter((i: any) => i.status === 'paid');
const paidRows = async (stack: TestStack, orderId: number) =>
  (await eventsOf(stack, orderId)).filter((e) => e.kind === 'payment_result' && e.result === 'paid');

describe('period truth: the marketplace’s validUntil is the subscription’s end', () => {
  const stack = useStack({ now: NOW });

  it('grants a short period as the marketplace says (two hours, not the plan’s 30 days), and it ends then', async () => {
    const NOW = stack.clock.now();
    const s = await signIn(stack);
    const paid = await boughtAndPaidInApp(stack, s, PLAN_30, { validUntil: NOW + 2 * HOUR_MS });
    const res = await verifyPurchase(stack, s, paid.orderId, paid.purchaseToken);
    expect(res.status, res.text).toBe(200);
    const period = { expiresAt: iso(NOW + 2 * HOUR_MS), source: 'marketplace', marketplaceValidUntil: iso(NOW + 2 * HOUR_MS) };
    expect(res.body).toMatchObject({ orderStatus: 'paid', status: 'active', plan: { id: PLAN_30 }, ...period });
    expect(await status(stack, s)).toMatchObject({ status: 'active', ...period });
    expect(await getOrder(stack.deps, paid.orderId)).toMatchObject({
      validUntil: NOW + 2 * HOUR_MS,
      grant: { days: 0, toMs: NOW + 2 * HOUR_MS },
    });

    await moveTo(stack, NOW + 2 * HOUR_MS + 60_000, s);
    expect(await status(stack, s)).toMatchObject({ status: 'expired', active: false, ...period });
  });

  it('sees a renewal at the next status read: the end moves to the new validUntil, one new paid order', async () => {
    const NOW = stack.clock.now();
    const s = await signIn(stack);
    const paid = await boughtAndPaidInApp(stack, s, PLAN_30, { validUntil: NOW + 2 * HOUR_MS });
    expect((await verifyPurchase(stack, s, paid.orderId, paid.purchaseToken)).status).toBe(200);
    const next = NOW + 2 * HOUR_MS + 30 * DAY_MS;
    await renewOnMarketplace(stack, paid.purchaseToken, next);
    expect(await status(stack, s)).toMatchObject({
      status: 'active',
      expiresAt: iso(next),
      source: 'marketplace',
      marketplaceValidUntil: iso(next),
    });
    const invoices = await paidInvoices(stack, s);
    expect(invoices).toHaveLength(2);
    const renewal = await getOrder(stack.deps, invoices[0].orderId);
    expect(renewal).toMatchObject({ renewalOf: paid.orderId, paidVia: 'marketplace_renewal', validUntil: next, amount: 149_000 });
    expect(await paidRows(stack, renewal.id)).toEqual([
      expect.objectContaining({ via: 'marketplace_renewal', validUntil: next, marketplaceStatus: 200 }),
    ]);
    // Nothing more to renew: the next read changes nothing.
    expect((await status(stack, s)).expiresAt).toBe(iso(next));
    expect(await paidInvoices(stack, s)).toHaveLength(2);
  });

  it('keeps gateway days behind a marketplace period: they follow it, move with renewals, and start when it ends at the store', async () => {
    const NOW = stack.clock.now();
    const s = await signIn(stack);
    await buyAndPay(stack, s, PLAN_30);
    expect(await status(stack, s)).toMatchObject({ expiresAt: iso(NOW + 30 * DAY_MS), source: 'gateway', marketplaceValidUntil: null });

    const paid = await boughtAndPaidInApp(stack, s, PLAN_90, { validUntil: NOW + 2 * HOUR_MS });
    const verified = await verifyPurchase(stack, s, paid.orderId, paid.purchaseToken);
    expect(verified.body).toMatchObject({ expiresAt: iso(NOW + 2 * HOUR_MS + 30 * DAY_MS), source: 'marketplace', plan: { id: PLAN_90 } });
    const next = NOW + 2 * HOUR_MS + 90 * DAY_MS;
    await renewOnMarketplace(stack, paid.purchaseToken, next);
    expect(await status(stack, s)).toMatchObject({ expiresAt: iso(next + 30 * DAY_MS), marketplaceValidUntil: iso(next) });

    // Refunded at the store: seen by the next day's read; the 30 gateway days start at that answer.
    await refundOnMarketplace(stack, paid.purchaseToken);
    await moveTo(stack, NOW + 25 * HOUR_MS, s);
    expect(await status(stack, s)).toMatchObject({
      status: 'active',
      expiresAt: iso(NOW + 25 * HOUR_MS + 30 * DAY_MS),
      source: 'gateway',
      marketplaceValidUntil: null,
    });
    expect((await getOrder(stack.deps, paid.orderId)).status).toBe('paid'); // its period was served
  });
});

describe('signed purchase data: a purchase pays the order it was bought for', () => {
  const stack = useStack({ now: NOW });

  /** Learner `a` bought in the app for their order; learner `b` has an order of their own, started. */
  async function twoBuyers() {
    const a = await signIn(stack);
    const b = await signIn(stack);
    const theirs = await boughtAndPaidInApp(stack, a, PLAN_30);
    const bought = await buyOnMarketplace(stack, b, PLAN_30);
    const started = await startOrder(stack, b, bought.body.orderId);
    return { a, b, theirs, mine: { orderId: bought.body.orderId as number, developerPayload: started.body.developerPayload as string } };
  }

  it('refuses a token verified on a foreign order (400 purchase_invalid): nothing paid, the marketplace not asked', async () => {
    const { a, b, theirs, mine } = await twoBuyers();
    const from = stack.marketplace.requests.length;
    const res = await verifyPurchase(stack, b, mine.orderId, theirs.purchaseToken);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'purchase_invalid', detail: expect.stringContaining('developerPayload') });
    // Rewriting the payload breaks the signature; leaving the signed data out is refused too.
    const signed = signedDataOf(stack, theirs.purchaseToken);
    const forged = JSON.stringify({ ...JSON.parse(signed.purchaseData!), developerPayload: mine.developerPayload });
    const rewritten = await verifyPurchase(stack, b, mine.orderId, theirs.purchaseToken, { ...signed, purchaseData: forged });
    expect(rewritten.body).toMatchObject({ code: 'purchase_invalid', fields: { dataSignature: expect.any(Array) } });
    const bare = await verifyPurchase(stack, b, mine.orderId, theirs.purchaseToken, {});
    expect(bare.body).toMatchObject({
      code: 'purchase_invalid',
      fields: { purchaseData: expect.any(Array), dataSignature: expect.any(Array) },
    });

    expect(marketplaceCalls(stack, from)).toEqual([]);
    expect((await getOrder(stack.deps, mine.orderId)).status).toBe('pending');
    expect(await paidRows(stack, mine.orderId)).toEqual([]);
    expect((await status(stack, b)).status).toBe('none');
    expect((await eventsOf(stack, mine.orderId)).map((e) => e.reason)).toEqual(
      expect.arrayContaining(['purchase_data_mismatch', 'signature_invalid', 'purchase_data_missing']),
    );
    // The token is still its buyer's to use.
    expect((await verifyPurchase(stack, a, theirs.orderId, theirs.purchaseToken)).body).toMatchObject({
      orderStatus: 'paid',
      status: 'active',
    });
  });

  it('refuses a bad signature (400), asking nothing and paying nothing; the data as signed then pays', async () => {
    const s = await signIn(stack);
    const paid = await boughtAndPaidInApp(stack, s, PLAN_30);
    const signed = signedDataOf(stack, paid.purchaseToken);
    const flipped = `${signed.dataSignature!.slice(0, 10)}${signed.dataSignature![10] === 'A' ? 'B' : 'A'}${signed.dataSignature!.slice(11)}`;
    const from = stack.marketplace.requests.length;
    for (const bad of [
      { ...signed, dataSignature: flipped },
      { ...signed, purchaseData: JSON.stringify(JSON.parse(signed.purchaseData!), null, 2) }, // the same JSON, other bytes
      { ...signed, dataSignature: 'not base64 at all' },
    ]) {
      const res = await verifyPurchase(stack, s, paid.orderId, paid.purchaseToken, bad);
      expect(res.status, res.text).toBe(400);
      expect(res.body.code).toBe('purchase_invalid');
    }
    expect(marketplaceCalls(stack, from)).toEqual([]);
    expect(await getOrder(stack.deps, paid.orderId)).toMatchObject({ status: 'pending' });
    expect((await status(stack, s)).status).toBe('none');
    expect((await verifyPurchase(stack, s, paid.orderId, paid.purchaseToken)).status).toBe(200);
  });

  it('races: a foreign verification and the buyer’s own, a forged and a true one, at once: only the buyer’s order is paid, once', async () => {
    for (let round = 0; round < 3; round++) {
      const { a, b, theirs, mine } = await twoBuyers();
      const signed = signedDataOf(stack, theirs.purchaseToken);
      const [own, foreign, forged] = await Promise.all([
        verifyPurchase(stack, a, theirs.orderId, theirs.purchaseToken),
        verifyPurchase(stack, b, mine.orderId, theirs.purchaseToken),
        verifyPurchase(stack, a, theirs.orderId, theirs.purchaseToken, {
          ...signed,
          dataSignature: `${signed.dataSignature!.slice(0, -4)}AAA=`,
        }),
      ]);
      expect(own.status, own.text).toBe(200);
      expect([400, 409]).toContain(foreign.status);
      expect([400, 409]).toContain(forged.status);
      expect(await paidRows(stack, theirs.orderId)).toHaveLength(1);
      expect(await paidRows(stack, mine.orderId)).toEqual([]);
      expect((await getOrder(stack.deps, mine.orderId)).status).toBe('pending');
      expect((await status(stack, b)).status).toBe('none');
    }
  });
});
