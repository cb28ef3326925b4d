/**
 * Marketplace auto-renewal (spec "Subscription": "when the paid period is near its end, the service asks the
 * marketplace again (on status reads and on paywall checks); each new period becomes a new paid order"; DESIGN §8).
 *
 * A marketplace subscription (marketplacePurchase.entity.ts) is due from MARKETPLACE_RENEWAL_WINDOW_HOURS (24)
 * before its `validUntil`. Due subscriptions are asked again with their subscription status API by
 * {@link syncMarketplaceRenewals} (status reads, the tutor's quota check) and by the hourly job
 * ({@link renewDueMarketplaceSubscriptions}, which finds them through the due-hour index, gsi1, never a Scan):
 *
 * - a later `validUntil` → exactly one new order of the same plan (the first order's snapshot, `renewalOf` it),
 *   created pending with the period's move in one transaction conditioned on the `validUntil` as read (readers and
 *   the job racing move it once), then paid through settle.ts (`payment_result` via `marketplace_renewal`), which
 *   also schedules the next check; whoever reads a subscription with a pending renewal order settles it first;
 * - the same `validUntil` → asked again at most every {@link RECHECK_BEFORE_END_HOURS} hours before it, every
 *   {@link RECHECK_AFTER_END_MINUTES} minutes after it; renewals end when it has passed and the subscription is not
 *   auto-renewing, or {@link RENEWAL_GRACE_HOURS} hours after it;
 * - 404 (refunded, cancelled and gone, unknown) → renewals end, nothing granted;
 * - the marketplace unavailable, or no credential → nothing changes (a status read still answers; the job asks
 *   again next hour).
 */
import { getUser, type StoredSubscription } from '../auth';
import { isConditionFailure } from '../db/conditions';
import { nextId } from '../db/counters';
import { transact } from '../db/transact';
import type { Deps } from '../deps';
import { DomainError } from '../errors';
import { logger } from '../log';
import { withMarketplaceAuth } from '../marketplace';
import { MarketplaceError, type SubscriptionPurchase } from '../providers/ports';
import { recordEvent } from './events';
import {
  advancePeriod,
  dueOnDay,
  endRenewals,
  type MarketplacePurchase,
  readMarketplacePurchase,
  reschedule,
  settlePendingPeriod,
  subscriptionsOfUser,
} from './marketplacePurchase.entity';
import { createOrder, type Order } from './order.entity';
import { getOrder } from './orders';
import { eventItem } from './paymentEvent.entity';
import { openPurchaseToken } from './purchaseToken';
import { markPaid } from './settle';

const HOUR_MS = 3_600_000;
export const RECHECK_BEFORE_END_HOURS = 6;
export const RECHECK_AFTER_END_MINUTES = 15;
export const RENEWAL_GRACE_HOURS = 72;
/** Days of due partitions the job reads back (catching up after it did not run). */
export const DUE_LOOKBACK_DAYS = 7;

export type RenewalOutcome = 'not_due' | 'renewed' | 'unchanged' | 'ended' | 'unavailable' | 'no_credential' | 'raced';

/** When a period ending `validUntil` (epoch ms) is first due to be asked again. */
export const renewalCheckAt = (deps: Pick<Deps, 'settings'>, validUntil: number): number =>
  validUntil - deps.settings.marketplace.renewalWindowHours * HOUR_MS;

/** Pays the pending renewal order `orderId` of `purchase` and schedules its next check (idempotent: settle.ts). */
async function settleRenewalOrder(deps: Deps, purchase: MarketplacePurchase, orderId: number): Promise<void> {
  const order = await getOrder(deps, orderId);
  const next = renewalCheckAt(deps, order.validUntil ?? purchase.validUntil ?? deps.clock.now());
  await markPaid(deps, orderId, 'marketplace_renewal', { purchaseTokenDigest: purchase.tokenDigest, validUntil: order.validUntil }, order, {
    items: [settlePendingPeriod(deps.db, purchase.tokenDigest, orderId, next)],
  });
}

/** Ends the renewals of `purchase` for `reason` (a lost race means someone else moved it: fine). */
async function end(deps: Deps, purchase: MarketplacePurchase, reason: string, now: number): Promise<RenewalOutcome> {
  try {
    await endRenewals(deps.db, purchase, reason, now);
  } catch (error) {
    if (isConditionFailure(error)) return 'raced';
    throw error;
  }
  await recordEvent(deps, purchase.orderId, 'payment_result', {
    userId: purchase.userId,
    via: 'marketplace_renewal',
    result: 'unchanged',
    reason: `renewals_ended_${reason}`,
    validUntil: purchase.validUntil,
  });
  return 'ended';
}

/** A new period ending `status.validUntil`: the new pending order and the period's move, then its payment. */
async function newPeriod(deps: Deps, purchase: MarketplacePurchase, status: SubscriptionPurchase, now: number): Promise<RenewalOutcome> {
  // The same plan as the first order bought, at its list price (a first-period discount does not renew).
  const { userId, planId, planTitle, durationDays, aiDailyQuota, listPrice } = await getOrder(deps, purchase.orderId);
  const id = await nextId(deps.db, 'order');
  const order: Order = {
    ...{ id, userId, planId, planTitle, durationDays, aiDailyQuota, listPrice },
    discount: 0,
    amount: listPrice,
    status: 'pending',
    provider: 'marketplace',
    idempotencyKey: `marketplace-renewal:${purchase.tokenDigest.slice(0, 16)}:${status.validUntil}`,
    createdAt: now,
    updatedAt: now,
    marketplaceSku: purchase.sku,
    marketplaceProductType: 'subscription',
    purchaseTokenDigest: purchase.tokenDigest,
    validUntil: status.validUntil,
    renewalOf: purchase.orderId,
  };
  try {
    await transact(deps.db, [
      createOrder(deps.db, order),
      advancePeriod(deps.db, purchase, { validUntil: status.validUntil, autoRenewing: status.autoRenewing, orderId: id, now }),
      eventItem(deps.db, id, now, 'order_created', {
        userId: order.userId,
        planId: order.planId,
        amount: order.amount,
        via: 'marketplace_renewal',
        sku: purchase.sku,
      }),
    ]);
  } catch (error) {
    if (isConditionFailure(error)) return 'raced'; // another reader or the job moved this period first
    throw error;
  }
  await settleRenewalOrder(deps, purchase, id);
  return 'renewed';
}

/** What the marketplace says of `purchase` now, or why it could not say. */
async function askAgain(
  deps: Deps,
  purchase: MarketplacePurchase,
): Promise<SubscriptionPurchase | 'not_found' | 'unavailable' | 'no_credential'> {
  const token = purchase.sealedToken && openPurchaseToken(deps.secretKey, purchase.sealedToken, purchase.tokenDigest);
  if (!token) return 'no_credential';
  try {
    const answer = await withMarketplaceAuth(deps, (auth) => deps.marketplace.subscriptionStatus(auth, purchase.sku, token));
    return answer ? answer.value : 'no_credential';
  } catch (error) {
    if (!(error instanceof MarketplaceError)) throw error;
    if (error.kind === 'not_found') return 'not_found';
    logger.warn('marketplace renewal check failed', { orderId: purchase.orderId, kind: error.kind, status: error.status });
    return 'unavailable';
  }
}

/** Whether `purchase` has something to do at `now`: a renewal order to settle, or a check that is due. */
const isDue = (purchase: MarketplacePurchase, now: number): boolean =>
  purchase.renewalState === 'active' &&
  purchase.validUntil !== undefined &&
  (purchase.pendingOrderId !== undefined || (purchase.nextCheckAt !== undefined && purchase.nextCheckAt <= now));

/**
 * Asks the marketplace again about the subscription `seen` (as an index listed it) when it is due, and records what
 * it says (see the module doc). It is re-read first (indexes are eventually consistent). `retryLater` (the job)
 * schedules the next try an hour on when the marketplace cannot answer.
 */
export async function renewOne(deps: Deps, seen: MarketplacePurchase, options: { retryLater?: boolean } = {}): Promise<RenewalOutcome> {
  const now = deps.clock.now();
  if (!isDue(seen, now)) return 'not_due';
  const purchase = await readMarketplacePurchase(deps.db, seen.tokenDigest);
  if (!purchase?.validUntil || !isDue(purchase, now)) return 'not_due';
  if (purchase.pendingOrderId !== undefined) {
    await settleRenewalOrder(deps, purchase, purchase.pendingOrderId);
    return 'renewed';
  }
  if (purchase.sealedToken && !openPurchaseToken(deps.secretKey, purchase.sealedToken, purchase.tokenDigest)) {
    logger.error('marketplace renewal: the sealed purchase token cannot be opened (SECRET_KEY changed?)', { orderId: purchase.orderId });
    return end(deps, purchase, 'token_unreadable', now);
  }
  const answer = await askAgain(deps, purchase);
  if (answer === 'not_found') return end(deps, purchase, 'not_found', now);
  if (answer === 'unavailable' || answer === 'no_credential') {
    if (options.retryLater) await reschedule(deps.db, purchase, { nextCheckAt: now + HOUR_MS, now }).catch(ignoreRace);
    return answer;
  }
  if (answer.validUntil > purchase.validUntil) return newPeriod(deps, purchase, answer, now);
  if (answer.validUntil <= now && (!answer.autoRenewing || now - answer.validUntil > RENEWAL_GRACE_HOURS * HOUR_MS)) {
    return end(deps, purchase, 'not_renewed', now);
  }
  const nextCheckAt =
    answer.validUntil > now
      ? Math.min(answer.validUntil, now + RECHECK_BEFORE_END_HOURS * HOUR_MS)
      : now + RECHECK_AFTER_END_MINUTES * 60_000;
  await reschedule(deps.db, purchase, { nextCheckAt, autoRenewing: answer.autoRenewing, now }).catch(ignoreRace);
  return 'unchanged';
}

const ignoreRace = (error: unknown) => {
  if (!isConditionFailure(error)) throw error;
};

/** Whether `subscription` is near its end or recently ended at `now`: when a paywall or status read asks again. */
function nearItsEnd(deps: Deps, subscription: StoredSubscription | undefined, now: number): boolean {
  if (!subscription) return false;
  const window = deps.settings.marketplace.renewalWindowHours * HOUR_MS;
  return subscription.expiresAt - window <= now && now - subscription.expiresAt <= RENEWAL_GRACE_HOURS * HOUR_MS;
}

/**
 * Renewal sync of one user, for status reads and paywall checks (the tutor's quota): when the user's subscription
 * is near its end (or ended within the grace), asks the marketplace again about their due marketplace
 * subscriptions, and returns the user with the subscription as it is afterwards (the same object when nothing
 * changed). Never fails for the marketplace's sake (a paywall keeps working when it is down); database errors
 * propagate.
 */
export async function syncMarketplaceRenewals<U extends { id: number; subscription?: StoredSubscription }>(
  deps: Deps,
  user: U,
): Promise<U> {
  if (!nearItsEnd(deps, user.subscription, deps.clock.now())) return user;
  let renewed = false;
  for (const purchase of await subscriptionsOfUser(deps.db, user.id)) {
    try {
      if ((await renewOne(deps, purchase)) === 'renewed') renewed = true;
    } catch (error) {
      if (!(error instanceof DomainError) || error.code !== 'database_busy') throw error;
      logger.warn('marketplace renewal sync: too many changes at once; left for the next read', { userId: user.id });
    }
  }
  if (!renewed) return user;
  const fresh = await getUser(deps.db, user.id);
  return fresh ? { ...user, subscription: fresh.subscription } : user;
}

/**
 * The hourly job (DESIGN §8; `packages/functions/src/jobs/marketplaceRenewal.ts`): every subscription due by now,
 * found in the due-hour index over the last {@link DUE_LOOKBACK_DAYS} days, asked again one by one. Returns how
 * many came out each way. A failure of one subscription is logged and does not stop the others.
 */
export async function renewDueMarketplaceSubscriptions(deps: Deps): Promise<Record<RenewalOutcome | 'failed', number>> {
  const counts: Record<RenewalOutcome | 'failed', number> = {
    not_due: 0,
    renewed: 0,
    unchanged: 0,
    ended: 0,
    unavailable: 0,
    no_credential: 0,
    raced: 0,
    failed: 0,
  };
  const now = deps.clock.now();
  const hour = new Date(now).toISOString().slice(0, 13);
  for (let back = DUE_LOOKBACK_DAYS; back >= 0; back--) {
    const day = new Date(now - back * 24 * HOUR_MS).toISOString().slice(0, 10);
    for (const purchase of await dueOnDay(deps.db, day, hour)) {
      try {
        counts[await renewOne(deps, purchase, { retryLater: true })]++;
      } catch (error) {
        counts.failed++;
        logger.error('marketplace renewal failed', { orderId: purchase.orderId, error: error instanceof Error ? error.name : 'Error' });
      }
    }
  }
  return counts;
}
