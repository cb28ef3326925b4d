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
 */
import { getUser, type StoredSubscription, type User, userKey } from '../auth';
import { retryOptimistic } from '../db/conditions';
import { type TxItem, transact, update } from '../db/transact';
import type { Deps } from '../deps';
import { auditStaffAction } from '../log';
import { reverseCommission } from './commission.entity';
import { paymentErrors } from './errors';
import { DAY_MS } from './grant';
import { type Order, orderKey } from './order.entity';
import { getOrder } from './orders';
import { eventItem } from './paymentEvent.entity';

/** What refunding `order` takes back from `user` (undefined: the account was deleted). Epoch ms, toman. */
export interface RefundEffects {
  days: number;
  /** The buyer's subscription before and after (null when there is none to change). */
  subscription: { before: StoredSubscription; after: StoredSubscription } | null;
  commission: { referrerId: number; amount: number } | null;
}

/** See the module doc. Errors: `order_status_conflict` unless `order` is paid. */
export function refundEffects(order: Order, user: User | undefined): RefundEffects {
  if (order.status !== 'paid') throw paymentErrors.orderStatusConflict(order.status, 'only a paid order can be refunded');
  const days = order.grant?.days ?? order.durationDays;
  const current = user?.subscription;
  let subscription: RefundEffects['subscription'] = null;
  if (current) {
    const expiresAt = current.expiresAt - days * DAY_MS;
    const previous = order.grant?.previous;
    const after = previous && order.grant?.toMs === current.expiresAt ? { ...previous, expiresAt } : { ...current, expiresAt };
    subscription = { before: current, after };
  }
  return { days, subscription, commission: order.commission ?? null };
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
  const effects = refundEffects(order, user);
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
  const effects = refundEffects(order, await getUser(deps.db, order.userId));
  const now = deps.clock.now();
  const commission = effects.commission?.amount ?? 0;
  const items: TxItem[] = [
    update(deps.db, orderKey(order.id), 'SET #s = :refunded, refundedAt = :now, refundedBy = :actor, updatedAt = :now', {
      condition: '#s = :paid',
      names: { '#s': 'status' },
      values: { ':refunded': 'refunded', ':paid': 'paid', ':now': now, ':actor': actor },
    }),
  ];
  if (effects.subscription) {
    items.push(
      update(deps.db, userKey(order.userId), 'SET subscription = :sub', {
        condition: 'subscription.expiresAt = :prev',
        values: { ':sub': effects.subscription.after, ':prev': effects.subscription.before.expiresAt },
      }),
    );
  }
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
  await transact(deps.db, items);
  return {
    order: { ...order, status: 'refunded', refundedAt: now, refundedBy: actor, updatedAt: now },
    daysTakenBack: effects.days,
    commissionReversed: commission,
  };
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
  return result;
}
