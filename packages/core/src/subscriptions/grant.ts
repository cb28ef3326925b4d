/**
 * What granting a paid order writes (spec "Subscription"; issue 4 §5, §7), as items of the order's settling
 * transaction (settle.ts):
 *
 * - the user's subscription: a renewal of an active subscription extends from its current expiry, otherwise
 *   the period starts now (an expired subscription is not active); it takes the plan title and tutor quota
 *   the order snapshotted. The update is pinned to the subscription as read (its expiry, or none), so two
 *   grants racing re-read instead of both extending from one expiry;
 * - on the buyer's first real payment (the first paid order with an amount above 0), `firstRealPaymentOrderId`
 *   (condition: not set yet, and the referrer as read) and, when they have a referrer, the referrer's
 *   commission row (referral.ts `COMMISSION_PERCENT` % of what was paid, whole toman).
 */
import { type StoredSubscription, type User, userKey } from '../auth';
import type { Db } from '../db/client';
import { type TxItem, update } from '../db/transact';
import { activeSubscription } from './active';
import { earnCommission } from './commission.entity';
import type { Order } from './order.entity';
import { commissionFor } from './referral';

/** One day, ms: a plan's `durationDays` is granted as that many 24-hour days. */
export const DAY_MS = 86_400_000;

/** What a grant records on its order (epoch ms; `previous` is the subscription it extended). */
export type GrantRecord = NonNullable<Order['grant']>;
/** The commission an order earned its buyer's referrer (toman). */
export type CommissionRecord = NonNullable<Order['commission']>;

/** Condition and values pinning the subscription as it was read (absent, or this expiry). */
function subscriptionAsRead(current: StoredSubscription | undefined) {
  return current
    ? { condition: 'subscription.expiresAt = :prevExpires', values: { ':prevExpires': current.expiresAt } }
    : { condition: 'attribute_not_exists(subscription)', values: {} };
}

/** The commission `order` earns when it is `user`'s first real payment and they have a referrer (see the module doc). */
function commissionOf(order: Order, user: User, firstRealPayment: boolean): CommissionRecord | undefined {
  const referrerId = firstRealPayment ? user.referredBy : undefined;
  if (referrerId === undefined) return undefined;
  const amount = commissionFor(order.amount);
  return amount > 0 ? { referrerId, amount } : undefined;
}

/**
 * The items that grant `order` to `user` at `now` (epoch ms): the user update and, if earned, the commission
 * row; with what the order records of them.
 */
export function grantWrites(
  db: Db,
  order: Order,
  user: User,
  now: number,
): { grant: GrantRecord; commission: CommissionRecord | undefined; items: TxItem[] } {
  const current = user.subscription;
  const fromMs = activeSubscription(user, now)?.expiresAt ?? now;
  const grant: GrantRecord = { days: order.durationDays, fromMs, toMs: fromMs + order.durationDays * DAY_MS, previous: current ?? null };
  const subscription: StoredSubscription = {
    planId: order.planId,
    planTitle: order.planTitle,
    aiDailyQuota: order.aiDailyQuota,
    expiresAt: grant.toMs,
  };
  const firstRealPayment = order.amount > 0 && user.firstRealPaymentOrderId === undefined;
  const commission = commissionOf(order, user, firstRealPayment);

  const pinned = subscriptionAsRead(current);
  const sets = ['subscription = :sub'];
  const conditions = ['attribute_exists(pk)', pinned.condition];
  const values: Record<string, unknown> = { ':sub': subscription, ...pinned.values };
  if (firstRealPayment) {
    sets.push('firstRealPaymentOrderId = :orderId');
    conditions.push('attribute_not_exists(firstRealPaymentOrderId)');
    values[':orderId'] = order.id;
    if (user.referredBy === undefined) conditions.push('attribute_not_exists(referredBy)');
    else {
      conditions.push('referredBy = :referrer');
      values[':referrer'] = user.referredBy;
    }
  }
  const items = [update(db, userKey(order.userId), `SET ${sets.join(', ')}`, { condition: conditions.join(' AND '), values })];
  if (commission) {
    items.push(
      earnCommission(db, commission.referrerId, { orderId: order.id, inviteeId: order.userId, amount: commission.amount, earnedAt: now }),
    );
  }
  return { grant, commission, items };
}
