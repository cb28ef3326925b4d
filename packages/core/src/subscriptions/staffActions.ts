/**
 * Staff actions on orders (spec "Order" table rows "admin cancel", "admin refund"; Authentication 6; issue 4
 * §10). Status is never edited directly: only these actions change it, each as one conditional transaction with
 * its audit row.
 *
 * - Cancel: pending → `cancelled` (DESIGN §3), giving its discount use back. A later successful gateway
 *   verification still makes it paid (settle.ts). A paid order is 409 `already_paid`; others 409
 *   `order_status_conflict`.
 * - Refund (after the confirmation step): paid → refunded; the order's days are taken back from the user's
 *   subscription end (if that end is exactly what this order granted, the plan it extended is restored), the
 *   referral commission it earned is marked reversed, and an `admin_refund` row is written. The money itself is
 *   returned outside the service.
 * - The admin list reads gsi2 (every order, newest first) a page at a time, with an opaque cursor.
 */
import { getUser, type StoredSubscription, userKey } from '../auth';
import { retryOptimistic } from '../db/conditions';
import { type TxItem, transact, update } from '../db/transact';
import type { Deps } from '../deps';
import { reverseCommission } from './commission.entity';
import { discountReleaseGuard, releaseDiscountItems } from './discountUse';
import { paymentErrors } from './errors';
import { DAY_MS } from './grant';
import { type Order, type OrderStatus, orderKey, ordersByTime } from './order.entity';
import { getOrder } from './orders';
import { eventItem } from './paymentEvent.entity';

/** Errors unless `order` can be cancelled: `already_paid`, `order_status_conflict`. */
function requireCancellable(order: Order): void {
  if (order.status === 'paid') throw paymentErrors.alreadyPaid();
  if (order.status !== 'pending') throw paymentErrors.orderStatusConflict(order.status, 'only a pending order can be cancelled');
}

/**
 * Cancels pending order `orderId` on behalf of staff member `actor` (a username). When the status changes
 * meanwhile, answers for the new one. Errors: `not_found`, `already_paid`, `order_status_conflict`,
 * `database_busy`.
 */
export const cancelOrder = (deps: Deps, orderId: number, actor: string): Promise<Order> =>
  retryOptimistic(
    async () => {
      const order = await getOrder(deps, orderId);
      requireCancellable(order);
      const now = deps.clock.now();
      const guard = discountReleaseGuard(order, 'release');
      await transact(deps.db, [
        update(deps.db, orderKey(order.id), `SET #s = :cancelled, cancelledAt = :now, cancelledBy = :actor, updatedAt = :now${guard.set}`, {
          condition: `#s = :pending AND ${guard.condition}`,
          names: { '#s': 'status' },
          values: { ':cancelled': 'cancelled', ':pending': 'pending', ':now': now, ':actor': actor, ...guard.values },
        }),
        ...releaseDiscountItems(deps.db, order, now),
        eventItem(deps.db, order.id, now, 'admin_cancel', { userId: order.userId, actor }),
      ]);
      const cancelled: Order = { ...order, status: 'cancelled', cancelledAt: now, cancelledBy: actor, updatedAt: now };
      return order.discountCode ? { ...cancelled, discountReleased: true } : cancelled;
    },
    // Still pending: lost to another change of its discount state, give up. Otherwise the next attempt answers
    // for the new status.
    async () => {
      if ((await getOrder(deps, orderId)).status === 'pending') throw paymentErrors.busy();
      return undefined;
    },
    { busy: paymentErrors.busy },
  );

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
  if (order.status !== 'paid') throw paymentErrors.orderStatusConflict(order.status, 'only a paid order can be refunded');
  const user = await getUser(deps.db, order.userId);
  const now = deps.clock.now();
  const days = order.grant?.days ?? order.durationDays;
  const commission = order.commission?.amount ?? 0;
  const items: TxItem[] = [
    update(deps.db, orderKey(order.id), 'SET #s = :refunded, refundedAt = :now, refundedBy = :actor, updatedAt = :now', {
      condition: '#s = :paid',
      names: { '#s': 'status' },
      values: { ':refunded': 'refunded', ':paid': 'paid', ':now': now, ':actor': actor },
    }),
  ];
  const current = user?.subscription;
  if (current) {
    const expiresAt = current.expiresAt - days * DAY_MS;
    const previous = order.grant?.previous;
    const restored: StoredSubscription =
      previous && order.grant?.toMs === current.expiresAt ? { ...previous, expiresAt } : { ...current, expiresAt };
    items.push(
      update(deps.db, userKey(order.userId), 'SET subscription = :sub', {
        condition: 'subscription.expiresAt = :prev',
        values: { ':sub': restored, ':prev': current.expiresAt },
      }),
    );
  }
  if (order.commission) items.push(reverseCommission(deps.db, order.commission.referrerId, order.id, now));
  items.push(eventItem(deps.db, order.id, now, 'admin_refund', { userId: order.userId, actor, days, commission, amount: order.amount }));
  await transact(deps.db, items);
  return {
    order: { ...order, status: 'refunded', refundedAt: now, refundedBy: actor, updatedAt: now },
    daysTakenBack: days,
    commissionReversed: commission,
  };
}

/**
 * Refunds paid order `orderId` on behalf of `actor` (see the module doc), as one transaction, retried when the
 * user's subscription changed under it. Errors: `not_found`, `order_status_conflict` (not paid), `database_busy`.
 */
export const refundOrder = (deps: Deps, orderId: number, actor: string): Promise<RefundResult> =>
  retryOptimistic(
    () => refundOnce(deps, orderId, actor),
    () => undefined,
    { busy: paymentErrors.busy },
  );

/**
 * Orders newest first, `limit` (default 50) per page, optionally only of one status, from `cursor` (a
 * `nextCursor` of this list). Errors: `validation_error` (cursor).
 */
export async function listOrders(
  deps: Deps,
  options: { status?: OrderStatus; limit?: number; cursor?: string } = {},
): Promise<{ items: Order[]; nextCursor?: string }> {
  const limit = options.limit ?? 50;
  const items: Order[] = [];
  let cursor = options.cursor;
  do {
    const page = await ordersByTime(deps.db, { status: options.status, limit: limit - items.length, cursor });
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor && items.length < limit);
  return { items, ...(cursor ? { nextCursor: cursor } : {}) };
}
