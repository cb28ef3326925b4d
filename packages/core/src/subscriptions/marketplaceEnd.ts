/**
 * The end of a marketplace subscription (DESIGN §8 "Period truth"; docs/decisions.md "Marketplace"): the
 * marketplace is the source of truth of the period, so what it says ends access when it says it.
 *
 * - `refunded`: the subscription status API answers 404 `not_found` (refunded, revoked or gone). Access ends at that
 *   answer; the order of the current period becomes `refunded` (`endedVia: 'marketplace'`), its referral commission
 *   is reversed.
 * - `cancelled`: the marketplace reports a period end earlier than the one paid (cancelled there). Access ends at
 *   that end; the order of the current period becomes `cancelled` (`endedVia: 'marketplace'`), its commission is
 *   reversed.
 * - `not_renewed` (the period ended and the marketplace does not bill it again) and `token_unreadable` (the sealed
 *   token cannot be opened after a SECRET_KEY change): the renewals end and the subscription keeps the period it
 *   paid; no order changes.
 *
 * Each end is ONE conditional transaction: the renewals end (condition: still renewing from the `validUntil` as
 * read, no renewal order pending), the learner's subscription (period.ts `withoutStorePeriod`, pinned as read),
 * the order and the commission when it closes one, and one `payment_result` row carrying the marketplace's answer.
 * Status reads, paywall checks and the job racing end it once; the others see `raced`.
 */
import { getUser, updateUser, userCondition } from '../auth';
import { retryOptimistic } from '../db/conditions';
import { type TxItem, transact, update } from '../db/transact';
import type { Deps } from '../deps';
import { countEvent } from '../metrics';
import { reverseCommission } from './commission.entity';
import { paymentErrors } from './errors';
import {
  endRenewalsItem,
  type MarketplacePurchase,
  type RenewalEndReason,
  readMarketplacePurchase,
  type StoreAnswer,
  stillRenewing,
  subscriptionsOfUser,
} from './marketplacePurchase.entity';
import { type Order, orderKey } from './order.entity';
import { getOrder } from './orders';
import { eventItem, type PaymentEventDetails } from './paymentEvent.entity';
import { withoutStorePeriod } from './period';

/** How a marketplace subscription ended, and when its period ends (epoch ms). */
export type StoreEnd =
  | { kind: 'refunded' | 'cancelled'; endsAt: number; answer: StoreAnswer }
  | { kind: 'not_renewed'; endsAt: number; answer?: StoreAnswer }
  | { kind: 'token_unreadable'; endsAt: number };

const REASON: Record<StoreEnd['kind'], RenewalEndReason> = {
  refunded: 'not_found',
  cancelled: 'cancelled',
  not_renewed: 'not_renewed',
  token_unreadable: 'token_unreadable',
};

/** The latest period end of `purchase`'s owner's other running marketplace subscriptions, if any. */
async function othersUntil(deps: Pick<Deps, 'db'>, purchase: MarketplacePurchase): Promise<number | undefined> {
  const ends = (await subscriptionsOfUser(deps.db, purchase.userId))
    .filter((p) => p.tokenDigest !== purchase.tokenDigest && p.renewalState === 'active' && p.validUntil !== undefined)
    .map((p) => p.validUntil as number);
  return ends.length ? Math.max(...ends) : undefined;
}

/**
 * The learner's subscription before and after the period of `purchase` ends at `endsAt` (period.ts), with the
 * transaction item writing it (pinned as read); null when there is nothing to change (no account or no
 * subscription, or nothing moves). `closes`: the marketplace took the period back (a subscription written before
 * period truth is then cut at `endsAt`; otherwise it is left alone).
 */
export async function subscriptionAfterStoreEnd(deps: Pick<Deps, 'db'>, purchase: MarketplacePurchase, endsAt: number, closes: boolean) {
  const before = (await getUser(deps.db, purchase.userId))?.subscription;
  if (!before || (before.storeUntil === undefined && !closes)) return null;
  const others = before.storeUntil === undefined ? undefined : await othersUntil(deps, purchase);
  const after = withoutStorePeriod(before, endsAt, others);
  if (JSON.stringify(after) === JSON.stringify(before)) return null;
  const item = updateUser(deps.db, purchase.userId, { set: { subscription: after } }, userCondition.subscriptionAsRead(before));
  return { before, after, item };
}

/** The items closing paid `order` at the marketplace's word: its status, and its commission reversed. */
export function closeOrderItems(deps: Pick<Deps, 'db'>, order: Order, status: 'refunded' | 'cancelled', now: number): TxItem[] {
  const at = status === 'refunded' ? 'refundedAt' : 'cancelledAt';
  return [
    update(deps.db, orderKey(order.id), `SET #s = :to, ${at} = :now, endedVia = :via, updatedAt = :now`, {
      condition: '#s = :paid',
      names: { '#s': 'status' },
      values: { ':to': status, ':paid': 'paid', ':now': now, ':via': 'marketplace' },
    }),
    ...(order.commission ? [reverseCommission(deps.db, order.commission.referrerId, order.id, now)] : []),
  ];
}

/** The `payment_result` row of an end (see the module doc). */
function endRow(purchase: MarketplacePurchase, end: StoreEnd, order: Order | undefined): PaymentEventDetails {
  const answer = 'answer' in end ? end.answer : undefined;
  const heard = { marketplaceStatus: answer?.httpStatus, autoRenewing: answer?.autoRenewing };
  if (end.kind === 'refunded' || end.kind === 'cancelled') {
    const closed = order?.status === 'paid';
    return {
      userId: purchase.userId,
      via: 'marketplace',
      result: closed ? end.kind : 'unchanged',
      reason: end.kind === 'refunded' ? 'marketplace_not_found' : 'marketplace_cancelled',
      sku: purchase.sku,
      validUntil: end.endsAt,
      ...heard,
      note:
        end.kind === 'refunded'
          ? 'The marketplace no longer knows this purchase (404): refunded or revoked; access ended'
          : 'The marketplace ended this subscription before the period paid; access ends then',
      ...(closed ? { amount: order.amount, commission: order.commission?.amount } : { ignored: true }),
    };
  }
  return {
    userId: purchase.userId,
    via: 'marketplace_renewal',
    result: 'unchanged',
    reason: `renewals_ended_${REASON[end.kind]}`,
    sku: purchase.sku,
    validUntil: purchase.validUntil,
    ...heard,
  };
}

/** One attempt of {@link endStoreSubscription} on `purchase` as read. */
async function endOnce(deps: Deps, purchase: MarketplacePurchase, end: StoreEnd): Promise<void> {
  const now = deps.clock.now();
  const closes = end.kind === 'refunded' || end.kind === 'cancelled';
  const orderId = closes ? (purchase.lastOrderId ?? purchase.orderId) : purchase.orderId;
  const order = closes ? await getOrder(deps, orderId) : undefined;
  const subscription = await subscriptionAfterStoreEnd(deps, purchase, end.endsAt, closes);
  await transact(deps.db, [
    endRenewalsItem(deps.db, purchase, { reason: REASON[end.kind], now, answer: 'answer' in end ? end.answer : undefined }),
    ...(subscription ? [subscription.item] : []),
    ...(order?.status === 'paid' && closes ? closeOrderItems(deps, order, end.kind, now) : []),
    eventItem(deps.db, orderId, now, 'payment_result', endRow(purchase, end, order)),
  ]);
  if (order?.status === 'paid' && end.kind === 'refunded') countEvent('Refunds', { by: 'store' });
}

/**
 * Ends the marketplace subscription `seen` (as just read) the way `end` says (see the module doc). Returns `ended`,
 * or `raced` when someone else ended or moved it first. Errors: `database_busy` after repeated lost races on the
 * learner's subscription.
 */
export function endStoreSubscription(deps: Deps, seen: MarketplacePurchase, end: StoreEnd): Promise<'ended' | 'raced'> {
  return retryOptimistic(
    async (n) => {
      const purchase = n === 0 ? seen : await readMarketplacePurchase(deps.db, seen.tokenDigest);
      if (!stillRenewing(purchase, seen)) return 'raced';
      await endOnce(deps, purchase, end);
      return 'ended';
    },
    () => undefined,
    { busy: paymentErrors.busy },
  );
}
