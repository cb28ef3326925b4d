/**
 * The refund watch of in-app products (docs/marketplace.md "In-app products"; DESIGN §8 "Period truth": the
 * marketplace's word on what was paid is the truth). An in-app product is days bought outright, and the app consumes
 * it right after the verification, but the marketplace can still refund it later: its validate API then answers the
 * purchase with `purchaseState: 1` (providers.md §2). So the marketplace is asked again about each in-app purchase
 * {@link INAPP_CHECK_DAYS} days after it was verified, by the hourly marketplace job (the due-hour index, gsi1, as
 * for subscriptions; marketplacePurchase.entity.ts), with the token the verification sealed (purchaseToken.ts):
 *
 * - still purchased → asked again at the next of those days; after the last one the watch ends (`watch_over`);
 * - refunded (`purchaseState` 1), or 404 `not_found` (revoked, gone) → the order becomes `refunded` (`endedVia:
 *   'marketplace'`), its days are taken back from the learner's subscription as a staff refund takes them (refund.ts
 *   `paidDaysEffects`), its referral commission is reversed, and one `payment_result` row (via `marketplace`, result
 *   `refunded`, reason `marketplace_refunded` or `marketplace_not_found`) records it: ONE conditional transaction with
 *   the watch's end (condition: still watched, due at the `nextCheckAt` as read), so two job runs racing take the days
 *   back once;
 * - the order no longer paid → the watch ends (`order_closed`), nothing else, found before the marketplace is asked.
 *   A staff refund ends the watch itself in its own transaction (refund.ts, `staff_refund`), so this is an order
 *   refunded before refunds did that;
 * - the marketplace unavailable, or no credential → asked again in an hour, nothing changes;
 * - the sealed token unreadable (SECRET_KEY changed) → the watch ends (`token_unreadable`), logged.
 *
 * Five calls per purchase at most, against the marketplace's 50,000 calls a day (providers.md §2). Purchases verified
 * before the watch existed keep no sealed token and are not watched; staff record their refunds (admin refund).
 */
import { getUser } from '../auth';
import { isConditionFailure, retryOptimistic } from '../db/conditions';
import { transact } from '../db/transact';
import type { Deps } from '../deps';
import { logger } from '../log';
import { withMarketplaceAuth } from '../marketplace';
import { countEvent } from '../metrics';
import { MarketplaceError } from '../providers/ports';
import { paymentErrors } from './errors';
import { closeOrderItems } from './marketplaceEnd';
import {
  endRefundWatchItem,
  type MarketplacePurchase,
  readMarketplacePurchase,
  rescheduleRefundCheck,
  type StoreAnswer,
} from './marketplacePurchase.entity';
import { HOUR_MS } from './marketplaceSchedule';
import type { Order } from './order.entity';
import { getOrder } from './orders';
import { eventItem } from './paymentEvent.entity';
import { DAY_MS } from './period';
import { openPurchaseToken } from './purchaseToken';
import { paidDaysEffects, subscriptionItems } from './refund';

/** Days after its verification on which an in-app purchase is asked again whether it was refunded. */
export const INAPP_CHECK_DAYS = [1, 3, 7, 14, 30] as const;

/** The next check of an in-app purchase verified at `boundAt`, after an answer at `now` (epoch ms); none after the last day. */
export function nextInappCheck(boundAt: number, now: number): number | undefined {
  const day = INAPP_CHECK_DAYS.find((d) => boundAt + d * DAY_MS > now);
  return day === undefined ? undefined : boundAt + day * DAY_MS;
}

/** What one look at an in-app purchase came to (the job's counts). */
export type InappWatchOutcome = 'not_due' | 'unchanged' | 'refunded' | 'ended' | 'unavailable' | 'no_credential' | 'raced';

/** Why the watch of an in-app purchase ended (`endedReason`). */
type WatchEnd = 'refunded' | 'not_found' | 'watch_over' | 'order_closed' | 'token_unreadable';

const isDue = (purchase: MarketplacePurchase | undefined, now: number): purchase is MarketplacePurchase =>
  purchase?.productType === 'inapp' &&
  purchase.refundWatch === 'active' &&
  purchase.nextCheckAt !== undefined &&
  purchase.nextCheckAt <= now;

/** Whether `purchase` is still watched as `seen` was (the same check due). */
const stillWatched = (purchase: MarketplacePurchase | undefined, seen: MarketplacePurchase): purchase is MarketplacePurchase =>
  purchase?.refundWatch === 'active' && purchase.nextCheckAt === seen.nextCheckAt;

/** Ends the watch without a refund; `raced` when someone moved it first. */
async function endWatch(deps: Deps, purchase: MarketplacePurchase, reason: WatchEnd, now: number, answer?: StoreAnswer) {
  try {
    await transact(deps.db, [endRefundWatchItem(deps.db, purchase, { reason, now, answer })]);
    return 'ended' as const;
  } catch (error) {
    if (isConditionFailure(error)) return 'raced' as const;
    throw error;
  }
}

/**
 * The marketplace refunded (or no longer knows) `seen`, whose order was `seenOrder` when it was read: the order refunded
 * with its days and commission taken back, and the watch ended, in one transaction (see the module doc); only the watch
 * ends when the order is no longer paid. Retried, both read again, when the order or the learner's subscription changed
 * under it. Errors: `database_busy`.
 */
function refundAtMarketplace(deps: Deps, seen: MarketplacePurchase, seenOrder: Order, answer: StoreAnswer): Promise<InappWatchOutcome> {
  return retryOptimistic(
    async (n): Promise<InappWatchOutcome> => {
      const purchase = n === 0 ? seen : await readMarketplacePurchase(deps.db, seen.tokenDigest);
      if (!stillWatched(purchase, seen)) return 'raced';
      const now = deps.clock.now();
      const order = n === 0 ? seenOrder : await getOrder(deps, purchase.orderId);
      if (order.status !== 'paid') return endWatch(deps, purchase, 'order_closed', now, answer);
      const user = await getUser(deps.db, order.userId);
      const subscription = paidDaysEffects(order, user);
      const reason = answer.outcome === 'refunded' ? 'refunded' : 'not_found';
      await transact(deps.db, [
        endRefundWatchItem(deps.db, purchase, { reason, now, answer }),
        ...closeOrderItems(deps, order, 'refunded', now),
        ...subscriptionItems(deps, order, subscription),
        eventItem(deps.db, order.id, now, 'payment_result', {
          userId: order.userId,
          via: 'marketplace',
          result: 'refunded',
          reason: `marketplace_${reason}`,
          sku: purchase.sku,
          marketplaceStatus: answer.httpStatus,
          amount: order.amount,
          days: order.grant?.days ?? order.durationDays,
          ...(order.commission ? { commission: order.commission.amount } : {}),
          note:
            reason === 'refunded'
              ? 'The marketplace reports this in-app purchase refunded; its days were taken back'
              : 'The marketplace no longer knows this in-app purchase (404); its days were taken back',
        }),
      ]);
      countEvent('Refunds', { by: 'store' });
      return 'refunded';
    },
    () => undefined,
    { busy: paymentErrors.busy },
  );
}

/**
 * Asks the marketplace again about the in-app purchase `seen` (as the due index listed it) when its check is due, and
 * acts on the answer (see the module doc). It is re-read first (indexes are eventually consistent).
 */
export async function watchInappPurchase(deps: Deps, seen: MarketplacePurchase): Promise<InappWatchOutcome> {
  const now = deps.clock.now();
  if (!isDue(seen, now)) return 'not_due';
  const purchase = await readMarketplacePurchase(deps.db, seen.tokenDigest);
  if (!isDue(purchase, now)) return 'not_due';
  // Nothing left to take back (the order was closed without ending the watch): no marketplace call spent on it.
  const order = await getOrder(deps, purchase.orderId);
  if (order.status !== 'paid') return endWatch(deps, purchase, 'order_closed', now);
  const token = purchase.sealedToken && openPurchaseToken(deps.secretKey, purchase.sealedToken, purchase.tokenDigest);
  if (!token) {
    logger.error('in-app refund watch: the sealed purchase token cannot be opened (SECRET_KEY changed?)', { orderId: purchase.orderId });
    return endWatch(deps, purchase, 'token_unreadable', now);
  }
  let heard: StoreAnswer;
  try {
    const answer = await withMarketplaceAuth(deps, (auth) => deps.marketplace.validateInapp(auth, purchase.sku, token));
    if (!answer) {
      await rescheduleRefundCheck(deps.db, purchase, { nextCheckAt: now + HOUR_MS, now }).catch(ignoreRace);
      return 'no_credential';
    }
    heard = { at: now, outcome: answer.value.purchaseState === 0 ? 'valid' : 'refunded', httpStatus: 200 };
  } catch (error) {
    if (!(error instanceof MarketplaceError)) throw error;
    if (error.kind !== 'not_found') {
      logger.warn('in-app refund watch: the marketplace could not answer', {
        orderId: purchase.orderId,
        kind: error.kind,
        status: error.status,
      });
      await rescheduleRefundCheck(deps.db, purchase, { nextCheckAt: now + HOUR_MS, now }).catch(ignoreRace);
      return 'unavailable';
    }
    heard = { at: now, outcome: 'not_found', httpStatus: 404 };
  }
  if (heard.outcome !== 'valid') return refundAtMarketplace(deps, purchase, order, heard);
  const next = nextInappCheck(purchase.boundAt, now);
  if (next === undefined) return endWatch(deps, purchase, 'watch_over', now, heard);
  await rescheduleRefundCheck(deps.db, purchase, { nextCheckAt: next, answer: heard, now }).catch(ignoreRace);
  return 'unchanged';
}

const ignoreRace = (error: unknown) => {
  if (!isConditionFailure(error)) throw error;
};
