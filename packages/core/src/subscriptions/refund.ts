/**
 * Refunding a paid order (spec "Order": paid → refunded by the admin refund action after a confirmation page;
 * "Plan's subscription days taken back; referral commission undone"; DESIGN §9 `GET …/refund` then
 * `POST …/refund { confirm: true }`).
 *
 * What a refund takes back is computed once, by {@link refundEffects}, for both the confirmation page's data
 * ({@link refundPreview}) and the refund itself ({@link refundOrder}), so the page shows exactly what then
 * happens (as long as nothing changes in between): the order's granted days are taken from the buyer's
 * subscription end (when that end is exactly what this order granted, the plan it extended is restored), the
 * referral commission it earned is marked reversed, and an `admin_refund` row is written, all in one
 * conditional transaction. The money itself is returned outside the service.
 *
 * With a marketplace period running (period.ts), paid days are taken from the days held behind it. A marketplace
 * subscription order is no count of days (DESIGN §8 "Period truth"): refunding the order of its current period ends
 * that marketplace subscription now, as a refund at the marketplace would (its renewals end, the days held start),
 * in the same transaction; refunding an earlier period's order takes nothing back (that period is over). Refunding
 * an in-app product's order also ends its refund watch (`staff_refund`), so the marketplace is not asked again.
 */
import { getUser, type StoredSubscription, type User, updateUser, userCondition } from '../auth';
import { retryOptimistic } from '../db/conditions';
import { type TxItem, transact, update } from '../db/transact';
import type { Deps } from '../deps';
import { auditStaffAction } from '../log';
import { countEvent } from '../metrics';
import { reverseCommission } from './commission.entity';
import { paymentErrors } from './errors';
import { subscriptionAfterStoreEnd } from './marketplaceEnd';
import { endRefundWatchItem, endRenewalsItem, readMarketplacePurchase } from './marketplacePurchase.entity';
import { type Order, orderKey } from './order.entity';
import { orderHistory } from './orderHistory';
import { getOrder } from './orders';
import { eventItem } from './paymentEvent.entity';
import { DAY_MS, withoutPaidDays } from './period';

/** What refunding `order` takes back from `user` (undefined: the account was deleted). Epoch ms, toman. */
export interface RefundEffects {
  days: number;
  /** The buyer's subscription before and after (null when there is none to change). */
  subscription: { before: StoredSubscription; after: StoredSubscription } | null;
  commission: { referrerId: number; amount: number } | null;
}

/**
 * What refunding paid-days `order` takes back from `user`'s subscription (see the module doc): its days from the days
 * held behind a running marketplace period, else from the end. When that end is exactly what this order granted,
 * the plan it extended (title, tutor quota) comes back with the shorter end; the period fields stay the current
 * ones: a marketplace period the order was bought behind and that has ended since is not brought back (it would
 * read as a running marketplace subscription, and later paid days as held behind it).
 */
export function paidDaysEffects(order: Order, user: User | undefined): RefundEffects['subscription'] {
  const days = order.grant?.days ?? order.durationDays;
  const current = user?.subscription;
  if (!current) return null;
  const held = withoutPaidDays(current, days);
  if (held) return { before: current, after: held };
  const expiresAt = current.expiresAt - days * DAY_MS;
  const previous = order.grant?.previous;
  const after =
    previous && order.grant?.toMs === current.expiresAt
      ? { ...current, planId: previous.planId, planTitle: previous.planTitle, aiDailyQuota: previous.aiDailyQuota, expiresAt }
      : { ...current, expiresAt };
  return { before: current, after };
}

/**
 * The transaction item that sets `order`'s buyer's subscription to `change.after`, conditioned on it still being
 * `change.before` (so a grant or refund meanwhile makes the caller read again); none when there is no change.
 */
export const subscriptionItems = (deps: Pick<Deps, 'db'>, order: Order, change: RefundEffects['subscription']): TxItem[] =>
  change
    ? [updateUser(deps.db, order.userId, { set: { subscription: change.after } }, userCondition.subscriptionAsRead(change.before))]
    : [];

/**
 * An in-app product's refund watch (marketplaceInappWatch.ts), ended by the refund of its order (`staff_refund`): the
 * days are taken back now, so there is nothing left for a refund at the marketplace to take, and no check of it need
 * spend marketplace quota. Conditioned on the watch as read, so a job run that changed it meanwhile makes the refund
 * read again. None when `order` paid no watched purchase.
 */
async function endRefundWatch(deps: Deps, order: Order, now: number): Promise<TxItem[]> {
  if (!order.purchaseTokenDigest) return [];
  const purchase = await readMarketplacePurchase(deps.db, order.purchaseTokenDigest);
  return purchase?.refundWatch === 'active' ? [endRefundWatchItem(deps.db, purchase, { reason: 'staff_refund', now })] : [];
}

/**
 * See the module doc: the effects of refunding `order` at `now`, and the transaction items that carry them out
 * besides the order, commission and history rows: the buyer's subscription, and the end of its marketplace
 * subscription (when it paid that subscription's current period) or of its in-app product's refund watch.
 * Errors: `order_status_conflict` unless `order` is paid.
 */
async function refundPlan(
  deps: Deps,
  order: Order,
  user: User | undefined,
  now: number,
): Promise<{ effects: RefundEffects; items: TxItem[] }> {
  if (order.status !== 'paid') throw paymentErrors.orderStatusConflict(order.status, 'only a paid order can be refunded');
  const commission = order.commission ?? null;
  if (order.validUntil === undefined || !order.purchaseTokenDigest) {
    const subscription = paidDaysEffects(order, user);
    return {
      effects: { days: order.grant?.days ?? order.durationDays, subscription, commission },
      items: [...subscriptionItems(deps, order, subscription), ...(await endRefundWatch(deps, order, now))],
    };
  }
  const purchase = await readMarketplacePurchase(deps.db, order.purchaseTokenDigest);
  const current =
    purchase?.renewalState === 'active' && purchase.pendingOrderId === undefined && (purchase.lastOrderId ?? purchase.orderId) === order.id;
  if (!purchase || !current) return { effects: { days: 0, subscription: null, commission }, items: [] };
  const change = await subscriptionAfterStoreEnd(deps, purchase, now, true);
  const taken = change ? change.before.expiresAt - change.after.expiresAt : 0;
  return {
    effects: {
      days: Math.max(0, Math.round(taken / DAY_MS)),
      subscription: change && { before: change.before, after: change.after },
      commission,
    },
    items: [endRenewalsItem(deps.db, purchase, { reason: 'staff_refund', now }), ...(change ? [change.item] : [])],
  };
}

/** The confirmation page's data: what refunding paid order `orderId` would take back. */
export interface RefundPreview {
  order: Order;
  /** The buyer's publicId, when the account still exists. */
  userPublicId: string | null;
  /** The referrer's publicId, when the commission's account still exists. */
  referrerPublicId: string | null;
  effects: RefundEffects;
}

/** Errors: `not_found`, `order_status_conflict` (not paid). */
export async function refundPreview(deps: Deps, orderId: number): Promise<RefundPreview> {
  const order = await getOrder(deps, orderId);
  const user = await getUser(deps.db, order.userId);
  const { effects } = await refundPlan(deps, order, user, deps.clock.now());
  const referrer = effects.commission ? await getUser(deps.db, effects.commission.referrerId) : undefined;
  return { order, userPublicId: user?.publicId ?? null, referrerPublicId: referrer?.publicId ?? null, effects };
}

export interface RefundResult {
  order: Order;
  /** Days taken back from the subscription. */
  daysTakenBack: number;
  /** Toman of commission reversed (0 when none was earned). */
  commissionReversed: number;
}

/** One attempt of {@link refundOrder}. */
async function refundOnce(deps: Deps, orderId: number, actor: string): Promise<RefundResult> {
  const order = await getOrder(deps, orderId);
  const now = deps.clock.now();
  const { effects, items: planItems } = await refundPlan(deps, order, await getUser(deps.db, order.userId), now);
  const commission = effects.commission?.amount ?? 0;
  const items: TxItem[] = [
    update(deps.db, orderKey(order.id), 'SET #s = :refunded, refundedAt = :now, refundedBy = :actor, updatedAt = :now', {
      condition: '#s = :paid',
      names: { '#s': 'status' },
      values: { ':refunded': 'refunded', ':paid': 'paid', ':now': now, ':actor': actor },
    }),
  ];
  items.push(...planItems);
  if (effects.commission) items.push(reverseCommission(deps.db, effects.commission.referrerId, order.id, now));
  items.push(
    eventItem(deps.db, order.id, now, 'admin_refund', {
      userId: order.userId,
      actor,
      days: effects.days,
      commission,
      amount: order.amount,
    }),
  );
  const refunded: Order = { ...order, status: 'refunded', refundedAt: now, refundedBy: actor, updatedAt: now };
  const expiry = (s: { expiresAt: number } | undefined) => (s ? new Date(s.expiresAt).toISOString() : null);
  const more = {
    ...(effects.subscription
      ? { subscriptionExpiresAt: [expiry(effects.subscription.before), expiry(effects.subscription.after)] as [unknown, unknown] }
      : {}),
    ...(commission ? { commissionReversed: [0, commission] as [unknown, unknown] } : {}),
    ...(effects.days ? { daysTakenBack: [0, effects.days] as [unknown, unknown] } : {}),
  };
  items.push(...orderHistory(deps, { actor, action: 'refund', at: now }, order, refunded, more));
  await transact(deps.db, items);
  return { order: refunded, daysTakenBack: effects.days, commissionReversed: commission };
}

/**
 * Refunds paid order `orderId` on behalf of `actor` (see the module doc), as one transaction, retried when the
 * user's subscription changed under it. Errors: `not_found`, `order_status_conflict` (not paid), `database_busy`.
 */
export async function refundOrder(deps: Deps, orderId: number, actor: string): Promise<RefundResult> {
  const result = await retryOptimistic(
    () => refundOnce(deps, orderId, actor),
    () => undefined,
    { busy: paymentErrors.busy },
  );
  auditStaffAction(actor, 'refund', 'order', orderId);
  countEvent('Refunds', { by: 'staff' });
  return result;
}
