/**
 * Staff actions on orders (spec "Order" table rows "admin cancel", "admin refund"; Authentication 6; issue 4
 * §10). Status is never edited directly: only these actions change it, each as one conditional transaction with
 * its audit row.
 *
 * - Cancel: pending → `cancelled` (DESIGN §3), giving its discount use back. A later successful gateway
 *   verification still makes it paid (settle.ts). A paid order is 409 `already_paid`; others 409
 *   `order_status_conflict`.
 * - Refund (after the confirmation step): refund.ts.
 * - The admin list reads gsi2 (every order, newest first) a page at a time, with an opaque cursor.
 */
import { retryOptimistic } from '../db/conditions';
import type { Page } from '../db/items';
import { fillPage } from '../db/pages';
import { transact, update } from '../db/transact';
import type { Deps } from '../deps';
import { auditStaffAction } from '../log';
import { discountReleaseGuard, releaseDiscountItems } from './discountUse';
import { paymentErrors } from './errors';
import { type Order, type OrderFilter, orderKey, ordersPage } from './order.entity';
import { orderHistory } from './orderHistory';
import { getOrder } from './orders';
import { eventItem } from './paymentEvent.entity';

export { type RefundResult, refundOrder } from './refund';

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
      const cancelled: Order = {
        ...order,
        status: 'cancelled',
        cancelledAt: now,
        cancelledBy: actor,
        updatedAt: now,
        ...(order.discountCode ? { discountReleased: true } : {}),
      };
      await transact(deps.db, [
        update(deps.db, orderKey(order.id), `SET #s = :cancelled, cancelledAt = :now, cancelledBy = :actor, updatedAt = :now${guard.set}`, {
          condition: `#s = :pending AND ${guard.condition}`,
          names: { '#s': 'status' },
          values: { ':cancelled': 'cancelled', ':pending': 'pending', ':now': now, ':actor': actor, ...guard.values },
        }),
        ...releaseDiscountItems(deps.db, order, now),
        eventItem(deps.db, order.id, now, 'admin_cancel', { userId: order.userId, actor }),
        ...orderHistory(deps, { actor, action: 'cancel', at: now }, order, cancelled),
      ]);
      auditStaffAction(actor, 'cancel', 'order', order.id);
      return cancelled;
    },
    // Still pending: lost to another change of its discount state, give up. Otherwise the next attempt answers
    // for the new status.
    async () => {
      if ((await getOrder(deps, orderId)).status === 'pending') throw paymentErrors.busy();
      return undefined;
    },
    { busy: paymentErrors.busy },
  );

/**
 * Orders newest first, `limit` a page from `cursor` (a `nextCursor` of the same list), optionally only
 * `userId`'s and only of one status or provider. Errors: `validation_error` (cursor).
 */
export const listOrders = (
  deps: Pick<Deps, 'db'>,
  options: OrderFilter & { userId?: number; limit: number; cursor?: string },
): Promise<Page<Order>> => fillPage((limit, cursor) => ordersPage(deps.db, { ...options, limit, cursor }), options);
