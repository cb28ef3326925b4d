/**
 * Marketplace auto-renewal and re-check (spec "Subscription": "when the paid period is near its end, the service asks
 * the marketplace again (on status reads and on paywall checks); each new period becomes a new paid order"; DESIGN §8
 * "Renewal", "Period truth").
 *
 * A marketplace subscription (marketplacePurchase.entity.ts) is asked again with its subscription status API when
 * its schedule says (marketplaceSchedule.ts: daily, spread over the day, until MARKETPLACE_RENEWAL_WINDOW_HOURS (24)
 * before its `validUntil`, then more often) by the hourly job ({@link renewDueMarketplaceSubscriptions}, which finds
 * them through the due-hour index, gsi1, never a Scan), and by {@link syncMarketplaceRenewals} (status reads, the
 * tutor's quota check), which also asks at every read inside the renewal window. What it says:
 *
 * - a later `validUntil` → exactly one new order of the same plan (the first order's snapshot, `renewalOf` it),
 *   created pending with the period's move in one transaction conditioned on the `validUntil` as read (readers and
 *   the job racing move it once), then paid through settle.ts (`payment_result` via `marketplace_renewal`), which
 *   moves the subscription's end to that `validUntil` and schedules the next check; whoever reads a subscription
 *   with a pending renewal order settles it first;
 * - the same `validUntil` → asked again on schedule; renewals end when it has passed and the subscription is not
 *   auto-renewing, or {@link RENEWAL_GRACE_HOURS} hours after it (the subscription keeps its period);
 * - 404 (refunded, revoked, gone) → access ends now and the current period's order is `refunded`; an earlier
 *   `validUntil` than the one paid (cancelled at the marketplace) → access ends then and the order is `cancelled`
 *   (marketplaceEnd.ts);
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
import { endStoreSubscription } from './marketplaceEnd';
import { type InappWatchOutcome, watchInappPurchase } from './marketplaceInappWatch';
import {
  advancePeriod,
  DUE_PARTITIONS,
  dueInPartition,
  type MarketplacePurchase,
  readMarketplacePurchase,
  reschedule,
  settlePendingPeriod,
  subscriptionsOfUser,
  validAnswer,
} from './marketplacePurchase.entity';
import { firstCheckAt, HOUR_MS, isDue, nextCheckAt, pastGrace, RENEWAL_GRACE_HOURS, wantedByRead } from './marketplaceSchedule';
import { createOrder, type Order } from './order.entity';
import { getOrder } from './orders';
import { eventItem } from './paymentEvent.entity';
import { openPurchaseToken } from './purchaseToken';
import { markPaid } from './settle';

export { RECHECK_AFTER_END_MINUTES, RECHECK_BEFORE_END_HOURS, RENEWAL_GRACE_HOURS } from './marketplaceSchedule';

export type RenewalOutcome = 'not_due' | 'renewed' | 'unchanged' | 'ended' | 'unavailable' | 'no_credential' | 'raced';

/**
 * Pays the pending renewal order `orderId` of `purchase` and schedules its next check (idempotent: settle.ts);
 * `autoRenewing` is what the marketplace said with the new period.
 */
async function settleRenewalOrder(
  deps: Deps,
  purchase: MarketplacePurchase,
  orderId: number,
  autoRenewing = purchase.autoRenewing,
): Promise<void> {
  const order = await getOrder(deps, orderId);
  const validUntil = order.validUntil ?? purchase.validUntil ?? deps.clock.now();
  const next = firstCheckAt(deps, purchase.tokenDigest, validUntil, deps.clock.now());
  const proof = { purchaseTokenDigest: purchase.tokenDigest, validUntil: order.validUntil, marketplaceStatus: 200, autoRenewing };
  await markPaid(deps, orderId, 'marketplace_renewal', proof, order, {
    items: [settlePendingPeriod(deps.db, purchase.tokenDigest, orderId, next)],
  });
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
      advancePeriod(deps.db, purchase, {
        validUntil: status.validUntil,
        autoRenewing: status.autoRenewing,
        orderId: id,
        now,
        answer: validAnswer(status, now),
      }),
      eventItem(deps.db, id, now, 'order_created', {
        userId: order.userId,
        planId: order.planId,
        amount: order.amount,
        via: 'marketplace_renewal',
        sku: purchase.sku,
        validUntil: status.validUntil,
        marketplaceStatus: 200,
        autoRenewing: status.autoRenewing,
      }),
    ]);
  } catch (error) {
    if (isConditionFailure(error)) return 'raced'; // another reader or the job moved this period first
    throw error;
  }
  await settleRenewalOrder(deps, purchase, id, status.autoRenewing);
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

/**
 * Asks the marketplace again about the subscription `seen` (as an index listed it) when it is due (`reading`: also
 * at every read inside its renewal window), and records what it says (see the module doc). It is re-read first
 * (indexes are eventually consistent). `retryLater` (the job) schedules the next try an hour on when the
 * marketplace cannot answer.
 */
export async function renewOne(
  deps: Deps,
  seen: MarketplacePurchase,
  options: { retryLater?: boolean; reading?: boolean } = {},
): Promise<RenewalOutcome> {
  const now = deps.clock.now();
  const wanted = (p: MarketplacePurchase) => (options.reading ? wantedByRead(deps, p, now) : isDue(p, now));
  if (!wanted(seen)) return 'not_due';
  const purchase = await readMarketplacePurchase(deps.db, seen.tokenDigest);
  if (!purchase?.validUntil || !wanted(purchase)) return 'not_due';
  if (purchase.pendingOrderId !== undefined) {
    await settleRenewalOrder(deps, purchase, purchase.pendingOrderId);
    return 'renewed';
  }
  if (purchase.sealedToken && !openPurchaseToken(deps.secretKey, purchase.sealedToken, purchase.tokenDigest)) {
    logger.error('marketplace renewal: the sealed purchase token cannot be opened (SECRET_KEY changed?)', { orderId: purchase.orderId });
    return endStoreSubscription(deps, purchase, { kind: 'token_unreadable', endsAt: purchase.validUntil });
  }
  const answer = await askAgain(deps, purchase);
  if (answer === 'not_found') {
    return endStoreSubscription(deps, purchase, {
      kind: 'refunded',
      endsAt: now,
      answer: { at: now, outcome: 'not_found', httpStatus: 404 },
    });
  }
  if (answer === 'unavailable' || answer === 'no_credential') {
    if (options.retryLater) await reschedule(deps.db, purchase, { nextCheckAt: now + HOUR_MS, now }).catch(ignoreRace);
    return answer;
  }
  const heard = validAnswer(answer, now);
  if (answer.validUntil > purchase.validUntil) return newPeriod(deps, purchase, answer, now);
  if (answer.validUntil < purchase.validUntil) {
    return endStoreSubscription(deps, purchase, { kind: 'cancelled', endsAt: answer.validUntil, answer: heard });
  }
  if (answer.validUntil <= now && (!answer.autoRenewing || pastGrace(answer.validUntil, now))) {
    return endStoreSubscription(deps, purchase, { kind: 'not_renewed', endsAt: purchase.validUntil, answer: heard });
  }
  await reschedule(deps.db, purchase, {
    nextCheckAt: nextCheckAt(deps, purchase.tokenDigest, answer.validUntil, now),
    answer: heard,
    now,
  }).catch(ignoreRace);
  return 'unchanged';
}

const ignoreRace = (error: unknown) => {
  if (!isConditionFailure(error)) throw error;
};

/**
 * Whether a read of `subscription` at `now` looks for marketplace subscriptions to ask about: while a marketplace
 * period runs (`storeUntil`), and, for subscriptions written before period truth, near its end or recently ended.
 */
function mayHaveStorePeriod(deps: Deps, subscription: StoredSubscription | undefined, now: number): boolean {
  if (!subscription) return false;
  if (subscription.storeUntil !== undefined) return true;
  const window = deps.settings.marketplace.renewalWindowHours * HOUR_MS;
  return subscription.expiresAt - window <= now && now - subscription.expiresAt <= RENEWAL_GRACE_HOURS * HOUR_MS;
}

/**
 * Renewal sync of one user, for status reads and paywall checks (the tutor's quota): while the user's subscription
 * has a marketplace period, asks the marketplace again about their marketplace subscriptions that are due (the
 * daily re-check) or inside their renewal window (see the module doc), and returns the user with the subscription
 * as it is afterwards (the same object when nothing changed). Never fails for the marketplace's sake (a paywall
 * keeps working when it is down); database errors propagate.
 */
export async function syncMarketplaceRenewals<U extends { id: number; subscription?: StoredSubscription }>(
  deps: Deps,
  user: U,
): Promise<U> {
  if (!mayHaveStorePeriod(deps, user.subscription, deps.clock.now())) return user;
  let changed = false;
  for (const purchase of await subscriptionsOfUser(deps.db, user.id)) {
    try {
      const outcome = await renewOne(deps, purchase, { reading: true });
      if (outcome === 'renewed' || outcome === 'ended' || outcome === 'raced') changed = true;
    } catch (error) {
      if (!(error instanceof DomainError) || error.code !== 'database_busy') throw error;
      logger.warn('marketplace renewal sync: too many changes at once; left for the next read', { userId: user.id });
    }
  }
  if (!changed) return user;
  const fresh = await getUser(deps.db, user.id);
  return fresh ? { ...user, subscription: fresh.subscription } : user;
}

/** How many purchases one run of the hourly job left each way. */
export type MarketplaceJobCounts = Record<RenewalOutcome | InappWatchOutcome | 'failed' | 'deferred', number>;

/**
 * The hourly job (DESIGN §8; `packages/functions/src/jobs/marketplaceRenewal.ts`): every subscription due by now
 * (a renewal, or its daily re-check), and every in-app purchase whose refund check is due (marketplaceInappWatch.ts;
 * `refunded` counts those the marketplace refunded), found in the {@link DUE_PARTITIONS} partitions of the due-hour
 * index (one Query each, however long ago it fell due), asked again one by one. Returns how many came out each way. A
 * failure of one purchase is logged and does not stop the others.
 *
 * At `deadlineMs` (epoch ms: the Lambda's timeout less a margin) the run stops taking purchases; what it had read
 * and not asked about is `deferred`, and stays due for the next run. The partitions are taken from the current UTC
 * hour's on (the daily re-checks just due come first), so a run cut short day after day does not always leave the
 * same partitions for later.
 */
export async function renewDueMarketplaceSubscriptions(deps: Deps, options: { deadlineMs?: number } = {}): Promise<MarketplaceJobCounts> {
  const counts: MarketplaceJobCounts = {
    not_due: 0,
    renewed: 0,
    unchanged: 0,
    ended: 0,
    refunded: 0,
    unavailable: 0,
    no_credential: 0,
    raced: 0,
    failed: 0,
    deferred: 0,
  };
  const now = deps.clock.now();
  const hour = new Date(now).toISOString().slice(0, 13);
  const pastDeadline = () => options.deadlineMs !== undefined && Date.now() >= options.deadlineMs;
  const first = new Date(now).getUTCHours() % DUE_PARTITIONS;
  for (let k = 0; k < DUE_PARTITIONS && !pastDeadline(); k++) {
    const due = await dueInPartition(deps.db, (first + k) % DUE_PARTITIONS, hour);
    for (const [i, purchase] of due.entries()) {
      if (pastDeadline()) {
        counts.deferred += due.length - i;
        break;
      }
      try {
        counts[
          purchase.productType === 'inapp' ? await watchInappPurchase(deps, purchase) : await renewOne(deps, purchase, { retryLater: true })
        ]++;
      } catch (error) {
        counts.failed++;
        logger.error('marketplace renewal failed', { orderId: purchase.orderId, error: error instanceof Error ? error.name : 'Error' });
      }
    }
  }
  return counts;
}
