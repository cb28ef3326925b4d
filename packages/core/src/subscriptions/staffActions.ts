/**
 * Staff actions on orders (spec "Order" table rows "admin cancel", "admin refund"; Authentication 6; issue 4
 * §10). Status is never edited directly: only these actions change it, each as one conditional transaction with
 * its audit row.
 *
 * - Cancel: pending → `cancelled` (DESIGN §3). A later successful gateway verification still makes it paid
 *   (grant.ts). A paid order is 409 `already_paid`; others 409 `order_status_conflict`.
 * - Refund (after the confirmation step): paid → refunded; the order's days are taken back from the user's
 *   subscription end (if that end is exactly what this order granted, the plan it extended is restored), the
 *   referral commission it earned is marked reversed, and an `admin_refund` row is written. The money itself is
 *   returned outside the service.
 * - The admin list reads gsi2 (`ORDERS`, newest first); a cursor is the opaque base64url of DynamoDB's last key.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { getUser } from '../auth';
import { isConditionFailure } from '../db/conditions';
import { keys } from '../db/keys';
import { type TxItem, transact, update } from '../db/transact';
import type { Deps } from '../deps';
import { commonErrors } from '../errors';
import type { StoredSubscription } from './active';
import { discountReleaseGuard, releaseDiscountItems } from './discounts';
import { paymentErrors } from './errors';
import { eventItem } from './events';
import { DAY_MS } from './grant';
import { fromOrderItem, getOrder, type Order, type OrderStatus } from './orders';

const MAX_ATTEMPTS = 8;

/**
 * Cancels pending order `orderId` on behalf of staff member `actor`. Errors: `not_found`, `already_paid`,
 * `order_status_conflict`.
 */
export async function cancelOrder(deps: Deps, orderId: number, actor: string): Promise<Order> {
  const order = await getOrder(deps, orderId);
  if (order.status === 'paid') throw paymentErrors.alreadyPaid();
  if (order.status !== 'pending') throw paymentErrors.orderStatusConflict(order.status, 'only a pending order can be cancelled');
  const now = deps.clock.now();
  const guard = discountReleaseGuard(order, 'release');
  try {
    await transact(deps.db, [
      update(deps.db, keys.order(order.id), `SET #s = :cancelled, cancelledAt = :now, cancelledBy = :actor, updatedAt = :now${guard.set}`, {
        condition: `#s = :pending AND ${guard.condition}`,
        names: { '#s': 'status' },
        values: { ':cancelled': 'cancelled', ':pending': 'pending', ':now': now, ':actor': actor, ...guard.values },
      }),
      ...releaseDiscountItems(deps.db, order, now),
      eventItem(deps.db, order.id, now, 'admin_cancel', { userId: order.userId, actor }),
    ]);
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    // The status changed meanwhile: answer for the new one.
    if ((await getOrder(deps, orderId)).status === 'pending') throw paymentErrors.busy();
    return cancelOrder(deps, orderId, actor);
  }
  return {
    ...order,
    status: 'cancelled',
    cancelledAt: now,
    cancelledBy: actor,
    updatedAt: now,
    ...(order.discountCode ? { discountReleased: true } : {}),
  };
}

export interface RefundResult {
  order: Order;
  /** Days taken back from the subscription. */
  daysTakenBack: number;
  /** Toman of commission reversed (0 when none was earned). */
  commissionReversed: number;
}

/**
 * Refunds paid order `orderId` on behalf of `actor` (see the module doc), as one transaction, retried when the
 * user's subscription changed under it. Errors: `not_found`, `order_status_conflict` (not paid).
 */
export async function refundOrder(deps: Deps, orderId: number, actor: string): Promise<RefundResult> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const order = await getOrder(deps, orderId);
    if (order.status !== 'paid') throw paymentErrors.orderStatusConflict(order.status, 'only a paid order can be refunded');
    const user = await getUser(deps.db, order.userId);
    const now = deps.clock.now();
    const days = order.grant?.days ?? order.durationDays;
    const commission = order.commission?.amount ?? 0;
    const items: TxItem[] = [
      update(deps.db, keys.order(order.id), 'SET #s = :refunded, refundedAt = :now, refundedBy = :actor, updatedAt = :now', {
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
        update(deps.db, keys.user(order.userId), 'SET subscription = :sub', {
          condition: 'subscription.expiresAt = :prev',
          values: { ':sub': restored, ':prev': current.expiresAt },
        }),
      );
    }
    if (order.commission) {
      items.push(
        update(deps.db, keys.commission(order.commission.referrerId, order.id), 'SET reversedAt = :now', {
          condition: 'attribute_exists(pk) AND attribute_not_exists(reversedAt)',
          values: { ':now': now },
        }),
      );
    }
    items.push(eventItem(deps.db, order.id, now, 'admin_refund', { userId: order.userId, actor, days, commission, amount: order.amount }));
    try {
      await transact(deps.db, items);
    } catch (error) {
      if (isConditionFailure(error)) continue;
      throw error;
    }
    return {
      order: { ...order, status: 'refunded', refundedAt: now, refundedBy: actor, updatedAt: now },
      daysTakenBack: days,
      commissionReversed: commission,
    };
  }
  throw paymentErrors.busy();
}

const encodeCursor = (key: Record<string, unknown>) => Buffer.from(JSON.stringify(key)).toString('base64url');

function decodeCursor(cursor: string): Record<string, unknown> {
  try {
    const key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (key && typeof key === 'object' && key.gsi2pk === keys.allOrdersPartition) return key;
  } catch {
    // fall through
  }
  throw commonErrors.validation('cursor is not valid', { cursor: ['not a cursor of this list'] });
}

/** Orders newest first, `limit` per page, optionally only of one status. Errors: `validation_error` (cursor). */
export async function listOrders(
  deps: Deps,
  options: { status?: OrderStatus; limit?: number; cursor?: string } = {},
): Promise<{ items: Order[]; nextCursor?: string }> {
  const limit = options.limit ?? 50;
  const items: Order[] = [];
  let startKey = options.cursor ? decodeCursor(options.cursor) : undefined;
  do {
    const page = await deps.db.doc.send(
      new QueryCommand({
        TableName: deps.db.tableName,
        IndexName: 'gsi2',
        KeyConditionExpression: 'gsi2pk = :pk',
        ...(options.status ? { FilterExpression: '#s = :status', ExpressionAttributeNames: { '#s': 'status' } } : {}),
        ExpressionAttributeValues: { ':pk': keys.allOrdersPartition, ...(options.status ? { ':status': options.status } : {}) },
        ScanIndexForward: false,
        Limit: limit - items.length,
        ExclusiveStartKey: startKey,
      }),
    );
    items.push(...(page.Items ?? []).map(fromOrderItem));
    startKey = page.LastEvaluatedKey;
  } while (startKey && items.length < limit);
  return { items, ...(startKey ? { nextCursor: encodeCursor(startKey) } : {}) };
}
