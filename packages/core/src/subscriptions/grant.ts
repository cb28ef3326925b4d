/**
 * What granting a paid order writes (spec "Subscription"; issue 4 §5, §7), as items of the order's settling
 * transaction (settle.ts):
 *
 * - the user's subscription (period.ts): paid days extend an active subscription from its current expiry,
 *   otherwise start now (an expired subscription is not active); a marketplace subscription's period (its
 *   `validUntil`, DESIGN §8 "Period truth") ends where the marketplace says, with days already held after it.
 *   It takes the plan title and tutor quota the order snapshotted. The update is pinned to the subscription as
 *   read (auth's `userCondition.subscriptionAsRead`), so two grants racing re-read instead of both extending from one expiry;
 * - on the buyer's first real payment (the first paid order with an amount above 0), `firstRealPaymentOrderId`
 *   (condition: not set yet, and the referrer as read) and, when they have a referrer, the referrer's
 *   commission row (referral.ts `COMMISSION_PERCENT` % of what was paid, whole toman).
 */
import { type User, updateUser, userCondition } from '../auth';
import type { Db } from '../db/client';
import type { TxItem } from '../db/transact';
import { earnCommission } from './commission.entity';
import type { Order } from './order.entity';
import { DAY_MS, withPaidDays, withStorePeriod } from './period';
import { commissionFor } from './referral';

export { DAY_MS };

/** What a grant records on its order (epoch ms; `previous` is the subscription it extended). */
export type GrantRecord = NonNullable<Order['grant']>;
/** The commission an order earned its buyer's referrer (toman). */
export type CommissionRecord = NonNullable<Order['commission']>;

/** The commission `order` earns when it is `user`'s first real payment and they have a referrer (see the module doc). */
function commissionOf(order: Order, user: User, firstRealPayment: boolean): CommissionRecord | undefined {
  const referrerId = firstRealPayment ? user.referredBy : undefined;
  if (referrerId === undefined) return undefined;
  const amount = commissionFor(order.amount);
  return amount > 0 ? { referrerId, amount } : undefined;
}

/**
 * The items that grant `order` to `user` at `now` (epoch ms): the user update and, if earned, the commission
 * row; with what the order records of them. `storeUntil` is the marketplace period a subscription purchase paid
 * (its `validUntil`, epoch ms); without it the order grants its plan's days. The record's `days` is then the
 * period's length in whole days (rounded).
 */
export function grantWrites(
  db: Db,
  order: Order,
  user: User,
  now: number,
  storeUntil?: number,
): { grant: GrantRecord; commission: CommissionRecord | undefined; items: TxItem[] } {
  const current = user.subscription;
  const fromMs = current && current.expiresAt > now ? current.expiresAt : now;
  const subscription =
    storeUntil === undefined ? withPaidDays(current, order, order.durationDays, now) : withStorePeriod(current, order, storeUntil, now);
  const days = storeUntil === undefined ? order.durationDays : Math.max(0, Math.round((subscription.expiresAt - fromMs) / DAY_MS));
  const grant: GrantRecord = { days, fromMs, toMs: subscription.expiresAt, previous: current ?? null };
  const firstRealPayment = order.amount > 0 && user.firstRealPaymentOrderId === undefined;
  const commission = commissionOf(order, user, firstRealPayment);

  const condition = userCondition.all(
    userCondition.exists(),
    userCondition.subscriptionAsRead(current),
    ...(firstRealPayment
      ? [
          userCondition.lacks('firstRealPaymentOrderId'),
          user.referredBy === undefined ? userCondition.lacks('referredBy') : userCondition.is({ referredBy: user.referredBy }),
        ]
      : []),
  );
  const change = { set: { subscription, ...(firstRealPayment ? { firstRealPaymentOrderId: order.id } : {}) } };
  const items = [updateUser(db, order.userId, change, condition)];
  if (commission) {
    items.push(
      earnCommission(db, commission.referrerId, { orderId: order.id, inviteeId: order.userId, amount: commission.amount, earnedAt: now }),
    );
  }
  return { grant, commission, items };
}
