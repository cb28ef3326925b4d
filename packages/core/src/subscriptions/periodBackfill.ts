/**
 * Migration `0005-marketplace-period-truth` (DESIGN §8 "Period truth"; idempotent, no Scan): brings marketplace
 * subscriptions verified before period truth to what this code expects.
 *
 * - Each running marketplace subscription (found through the marketplace orders of the all-orders index) moves to
 *   the due index's partition of its re-check hour (marketplacePurchase.entity.ts; the day partitions before it are
 *   left empty), and is re-checked within a day: its next check moves to that hour when it comes first
 *   (marketplaceSchedule.ts).
 * - Each learner with one gets the period on their subscription: `storeUntil` = the latest `validUntil` of their
 *   running marketplace subscriptions, `source: 'marketplace'`, and whatever the old end gave beyond it held as paid
 *   days after it (`carriedMs`). Nobody loses time they were shown: the end becomes the later of the old end and the
 *   marketplace's. From then on the marketplace's answers move it (period.ts).
 */
import { getUser, userCondition, writeUser } from '../auth';
import type { Db } from '../db/client';
import { isConditionFailure } from '../db/conditions';
import { type MarketplacePurchase, readMarketplacePurchase, scheduleCheck } from './marketplacePurchase.entity';
import { nextDailyCheck } from './marketplaceSchedule';
import { allOrders } from './order.entity';

/** The running marketplace subscriptions, by learner. */
async function runningSubscriptions(db: Db): Promise<Map<number, MarketplacePurchase[]>> {
  const digests = new Set<string>();
  for (const order of await allOrders(db)) {
    if (order.provider === 'marketplace' && order.purchaseTokenDigest && order.renewalOf === undefined)
      digests.add(order.purchaseTokenDigest);
  }
  const byUser = new Map<number, MarketplacePurchase[]>();
  for (const digest of digests) {
    const purchase = await readMarketplacePurchase(db, digest);
    if (purchase?.productType !== 'subscription' || purchase.renewalState !== 'active' || purchase.validUntil === undefined) continue;
    byUser.set(purchase.userId, [...(byUser.get(purchase.userId) ?? []), purchase]);
  }
  return byUser;
}

/** See the module doc; `now` (epoch ms) is the migration run's clock. */
export async function backfillMarketplacePeriods(db: Db, now: number): Promise<void> {
  const ignoreMoved = (error: unknown) => {
    if (!isConditionFailure(error)) throw error; // changed meanwhile: the running code already keeps it
  };
  for (const [userId, purchases] of await runningSubscriptions(db)) {
    for (const purchase of purchases) {
      const daily = nextDailyCheck(purchase.tokenDigest, now);
      await scheduleCheck(db, purchase, Math.min(daily, purchase.nextCheckAt ?? daily)).catch(ignoreMoved);
    }
    const before = (await getUser(db, userId))?.subscription;
    if (!before || before.storeUntil !== undefined) continue;
    const storeUntil = Math.max(...purchases.map((p) => p.validUntil as number));
    const carriedMs = Math.max(0, before.expiresAt - storeUntil);
    const subscription = { ...before, source: 'marketplace' as const, storeUntil, carriedMs, expiresAt: storeUntil + carriedMs };
    await writeUser(db, userId, { set: { subscription } }, userCondition.subscriptionAsRead(before)).catch(ignoreMoved);
  }
}
