/**
 * Settling an order (spec "States and transitions / Order", "Subscription"; DESIGN §5): every change of money
 * state is ONE conditional TransactWriteItems, so a retry or a race (two callbacks at once, a callback and a
 * status re-check) can never grant twice.
 *
 * Paid: the order's `pending|cancelled|failed → paid` update (condition on the status), the user's subscription
 * (condition on the expiry it was computed from), the `payment_result` row and, on the invitee's first real
 * payment, the referrer's commission row. A transaction that loses a race is re-read: an order that is no longer
 * payable makes this attempt a duplicate, recorded as an ignored `payment_result`.
 *
 * Granting: a paid order grants its snapshotted duration; a renewal of an active subscription extends from its
 * current expiry, otherwise the period starts now (expired subscriptions are not active). The subscription takes
 * the plan title and tutor quota of the order. A paid order never goes back to failed.
 */
import { getUser } from '../auth';
import { isConditionFailure } from '../db/conditions';
import { keys } from '../db/keys';
import { put, type TxItem, transact, update } from '../db/transact';
import type { Deps } from '../deps';
import { activeSubscription, type StoredSubscription } from './active';
import { discountReleaseGuard, releaseDiscountItems, retakeDiscountItems } from './discounts';
import { paymentErrors } from './errors';
import { eventItem, type PaymentPath, recordEvent } from './events';
import { getOrder, type Order, PAYABLE_STATUSES } from './orders';
import { commissionFor, type ReferralUser } from './referral';

export const DAY_MS = 86_400_000;
const MAX_ATTEMPTS = 8;

/** What the gateway said about a payment (public values only). */
export interface PaymentProof {
  gatewayCode?: number;
  refId?: string;
  cardPan?: string;
}

export interface SettleResult {
  order: Order;
  /** False when the order was already settled (a duplicate attempt, recorded as ignored). */
  changed: boolean;
}

/** Condition and values pinning the subscription as it was read (absent, or this expiry). */
function subscriptionAsRead(current: StoredSubscription | undefined) {
  return current
    ? { condition: 'subscription.expiresAt = :prevExpires', values: { ':prevExpires': current.expiresAt } }
    : { condition: 'attribute_not_exists(subscription)', values: {} };
}

async function ignored(deps: Deps, order: Order, via: PaymentPath, proof: PaymentProof): Promise<SettleResult> {
  await recordEvent(deps, order.id, 'payment_result', {
    userId: order.userId,
    via,
    result: 'unchanged',
    ignored: true,
    reason: order.status === 'paid' ? 'duplicate' : `order_${order.status}`,
    gatewayCode: proof.gatewayCode,
    refId: proof.refId,
  });
  return { order, changed: false };
}

/** What granting `order` to `user` at `now` writes to the user item, and the commission it earns. */
function grantFor(order: Order, user: ReferralUser, now: number) {
  const current = user.subscription;
  const fromMs = activeSubscription(user, now)?.expiresAt ?? now;
  const grant = { days: order.durationDays, fromMs, toMs: fromMs + order.durationDays * DAY_MS, previous: current ?? null };
  const subscription: StoredSubscription = {
    planId: order.planId,
    planTitle: order.planTitle,
    aiDailyQuota: order.aiDailyQuota,
    expiresAt: grant.toMs,
  };
  const firstRealPayment = order.amount > 0 && user.firstRealPaymentOrderId === undefined;
  const commissionAmount = firstRealPayment && user.referredBy !== undefined ? commissionFor(order.amount) : 0;
  const commission = commissionAmount > 0 ? { referrerId: user.referredBy as number, amount: commissionAmount } : undefined;

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
  return { grant, commission, userUpdate: { expression: `SET ${sets.join(', ')}`, condition: conditions.join(' AND '), values } };
}

/**
 * Marks order `orderId` paid through `via` and grants it, as one transaction (see the module doc). `known` is the
 * order as the caller just read it, used for the first attempt (the transaction's conditions guard a stale copy).
 * When the buyer deleted their account meanwhile, the order is still marked paid (payment records are kept, spec
 * Endpoints `POST /api/user/delete`) and nothing is granted. Returns the order as it is afterwards. Errors:
 * `not_found` (order), `database_busy` after repeated lost races.
 */
export async function markPaid(
  deps: Deps,
  orderId: number,
  via: PaymentPath,
  proof: PaymentProof = {},
  known?: Order,
): Promise<SettleResult> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const order = attempt === 0 && known ? known : await getOrder(deps, orderId);
    if (!PAYABLE_STATUSES.includes(order.status)) return ignored(deps, order, via, proof);
    const user = (await getUser(deps.db, order.userId)) as ReferralUser | undefined;
    const now = deps.clock.now();
    const granted = user ? grantFor(order, user, now) : undefined;
    const commission = granted?.commission;

    const orderSets = ['#s = :paid', 'paidAt = :now', 'paidVia = :via', 'updatedAt = :now'];
    const orderValues: Record<string, unknown> = {
      ':paid': 'paid',
      ':now': now,
      ':via': via,
      ':pending': 'pending',
      ':cancelled': 'cancelled',
      ':failed': 'failed',
    };
    const orderNames: Record<string, string> = { '#s': 'status' };
    const optional = { grant: granted?.grant, refId: proof.refId, cardPan: proof.cardPan, commission };
    for (const [name, value] of Object.entries(optional)) {
      if (value === undefined) continue;
      orderSets.push(`#${name} = :${name}`);
      orderNames[`#${name}`] = name;
      orderValues[`:${name}`] = value;
    }

    const guard = discountReleaseGuard(order, 'retake');
    const items: TxItem[] = [
      update(deps.db, keys.order(order.id), `SET ${orderSets.join(', ')}${guard.remove}`, {
        condition: `#s IN (:pending, :cancelled, :failed) AND ${guard.condition}`,
        names: orderNames,
        values: { ...orderValues, ...guard.values },
      }),
      ...retakeDiscountItems(deps.db, order),
      eventItem(deps.db, order.id, now, 'payment_result', {
        userId: order.userId,
        via,
        result: 'paid',
        ignored: false,
        ...(user ? {} : { reason: 'account_deleted', note: 'The buyer deleted the account; nothing was granted' }),
        gatewayCode: proof.gatewayCode,
        refId: proof.refId,
        amount: order.amount,
        commission: commission?.amount,
      }),
    ];
    if (granted) {
      const { expression, condition, values } = granted.userUpdate;
      items.push(update(deps.db, keys.user(order.userId), expression, { condition, values }));
    }
    if (commission) {
      items.push(
        put(
          deps.db,
          {
            ...keys.commission(commission.referrerId, order.id),
            orderId: order.id,
            inviteeId: order.userId,
            amount: commission.amount,
            earnedAt: now,
          },
          { condition: 'attribute_not_exists(pk)' },
        ),
      );
    }
    try {
      await transact(deps.db, items);
    } catch (error) {
      if (isConditionFailure(error)) continue; // re-read: a duplicate, or the subscription changed under us
      throw error;
    }
    const { discountReleased: _released, ...unreleased } = order;
    const settled: Order = { ...unreleased, status: 'paid', paidAt: now, paidVia: via, updatedAt: now };
    for (const [name, value] of Object.entries(optional)) if (value !== undefined) Object.assign(settled, { [name]: value });
    return { order: settled, changed: true };
  }
  throw paymentErrors.busy();
}

/**
 * Marks a pending order failed (the gateway's verification proved it unpaid), with its `payment_result` row, as
 * one transaction. An order that is not pending is left as it is (a paid order never goes back to failed; a
 * cancelled one stays cancelled) and the attempt is recorded as ignored.
 */
export async function markFailed(
  deps: Deps,
  orderId: number,
  via: PaymentPath,
  proof: PaymentProof & { note?: string },
): Promise<SettleResult> {
  const order = await getOrder(deps, orderId);
  if (order.status !== 'pending') return ignored(deps, order, via, proof);
  const now = deps.clock.now();
  const guard = discountReleaseGuard(order, 'release');
  try {
    await transact(deps.db, [
      update(deps.db, keys.order(order.id), `SET #s = :failed, failedAt = :now, updatedAt = :now${guard.set}`, {
        condition: `#s = :pending AND ${guard.condition}`,
        names: { '#s': 'status' },
        values: { ':failed': 'failed', ':pending': 'pending', ':now': now, ...guard.values },
      }),
      ...releaseDiscountItems(deps.db, order, now),
      eventItem(deps.db, order.id, now, 'payment_result', {
        userId: order.userId,
        via,
        result: 'failed',
        ignored: false,
        reason: 'not_paid',
        gatewayCode: proof.gatewayCode,
        note: proof.note,
      }),
    ]);
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return ignored(deps, await getOrder(deps, orderId), via, proof);
  }
  return {
    order: { ...order, status: 'failed', failedAt: now, updatedAt: now, ...(order.discountCode ? { discountReleased: true } : {}) },
    changed: true,
  };
}
