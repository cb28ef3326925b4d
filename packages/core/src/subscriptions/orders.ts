/**
 * Orders (spec "Order", "States and transitions / Order"; DESIGN §3 statuses): the record of one purchase of a
 * plan. The plan's title, list price, duration and tutor quota are snapshotted at creation; later edits of the
 * plan never change an order. Money is whole toman.
 *
 * Storage: `ORDER#<id>` / `ORDER`, with gsi1 = the user's orders (`USERORDERS#<userId>`, by id) and gsi2 = every
 * order by creation time (`ORDERS`, the admin list; one GSI partition, fine for this shop's order rate and never
 * read by the app). Times are epoch ms.
 */
import { createHmac } from 'node:crypto';
import { GetCommand, paginateQuery } from '@aws-sdk/lib-dynamodb';
import { safeEqual } from '../auth/crypto';
import type { Db } from '../db/client';
import { keys } from '../db/keys';
import type { Deps } from '../deps';
import type { StoredSubscription } from './active';
import { paymentErrors } from './errors';

export type OrderStatus = 'pending' | 'paid' | 'failed' | 'refunded' | 'cancelled';
export type Provider = 'gateway' | 'marketplace';

/** Statuses from which a successful verification still makes the order paid (money taken is always granted). */
export const PAYABLE_STATUSES: readonly OrderStatus[] = ['pending', 'cancelled', 'failed'];

export interface Order {
  id: number;
  userId: number;
  planId: number;
  /** Snapshots of the plan at creation. */
  planTitle: string;
  durationDays: number;
  aiDailyQuota: number;
  /** List price, toman. */
  listPrice: number;
  /** Discount code applied (upper case), at most one per order. */
  discountCode?: string;
  /** The order ended unpaid (failed or cancelled) and its discount use was given back (discounts.ts). */
  discountReleased?: boolean;
  discountPercent?: number;
  /** Discount, toman. */
  discount: number;
  /** What the buyer pays, toman: listPrice − discount. */
  amount: number;
  status: OrderStatus;
  provider: Provider;
  idempotencyKey: string;
  createdAt: number;
  updatedAt: number;
  /** Gateway session, set on the first visit of the pay link. */
  authority?: string;
  gatewayStartedAt?: number;
  paidAt?: number;
  paidVia?: 'callback' | 'recheck' | 'discount';
  /** The gateway's payment reference. */
  refId?: string;
  /** Masked card number as the gateway reports it (e.g. 502229******5995). */
  cardPan?: string;
  failedAt?: number;
  cancelledAt?: number;
  cancelledBy?: string;
  refundedAt?: number;
  refundedBy?: string;
  /** What paying granted: days, the subscription end before and after (epoch ms), and the subscription it extended. */
  grant?: { days: number; fromMs: number; toMs: number; previous: StoredSubscription | null };
  /** Referral commission paid for this order (toman), if it was the invitee's first real payment. */
  commission?: { referrerId: number; amount: number };
}

/** What an order snapshotted and what it costs: the fields its invoice and its API views share. */
export const orderPricing = (order: Order) => ({
  planId: order.planId,
  planTitle: order.planTitle,
  durationDays: order.durationDays,
  listPrice: order.listPrice,
  discountCode: order.discountCode ?? null,
  discount: order.discount,
  amount: order.amount,
});

export const fromOrderItem = (item: Record<string, unknown>): Order => {
  const { pk: _pk, sk: _sk, gsi1pk: _a, gsi1sk: _b, gsi2pk: _c, gsi2sk: _d, ...order } = item;
  return order as unknown as Order;
};

export async function readOrder(db: Db, orderId: number): Promise<Order | undefined> {
  const result = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: keys.order(orderId), ConsistentRead: true }));
  return result.Item ? fromOrderItem(result.Item) : undefined;
}

/** The order. Errors: `not_found`. */
export async function getOrder(deps: Deps, orderId: number): Promise<Order> {
  const order = await readOrder(deps.db, orderId);
  if (!order) throw paymentErrors.orderNotFound();
  return order;
}

/** The order when it belongs to `userId`; someone else's order is `not_found` too (no probing). */
export async function getOwnOrder(deps: Deps, userId: number, orderId: number): Promise<Order> {
  const order = await readOrder(deps.db, orderId);
  if (!order || order.userId !== userId) throw paymentErrors.orderNotFound();
  return order;
}

/** Every order of `userId`, newest first (gsi1; eventually consistent like every GSI read). */
export async function ordersOfUser(deps: Deps, userId: number): Promise<Order[]> {
  const items: Order[] = [];
  const pages = paginateQuery(
    { client: deps.db.doc },
    {
      TableName: deps.db.tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.userOrdersPartition(userId) },
      ScanIndexForward: false,
    },
  );
  for await (const page of pages) items.push(...(page.Items ?? []).map(fromOrderItem));
  return items;
}

/** The order's item as stored, with its index keys. */
export const orderItem = (order: Order) => ({
  ...keys.order(order.id),
  ...keys.userOrders(order.userId, order.id),
  ...keys.allOrders(order.createdAt, order.id),
  ...order,
});

/**
 * The signature that makes an order's pay link unguessable: HMAC-SHA256 under SECRET_KEY of `pay:<orderId>`,
 * base64url, 22 characters (128 bits). Order ids are sequential; without it anyone could open other people's
 * pay links, see their plan and amount, and start their gateway step (which ends the discount-code window).
 */
export const payLinkSignature = (deps: Pick<Deps, 'secretKey'>, orderId: number): string =>
  createHmac('sha256', deps.secretKey).update(`pay:${orderId}`).digest('base64url').slice(0, 22);

/** Whether `signature` is the pay link signature of `orderId` (constant time). */
export const validPayLinkSignature = (deps: Pick<Deps, 'secretKey'>, orderId: number, signature: string | undefined): boolean =>
  signature !== undefined && safeEqual(signature, payLinkSignature(deps, orderId));

/** The URL of the order's pay link under the API base URL `baseUrl`. */
export const paymentUrl = (deps: Pick<Deps, 'secretKey'>, baseUrl: string, orderId: number): string =>
  `${baseUrl}/api/payment/orders/${orderId}/pay?sig=${payLinkSignature(deps, orderId)}`;
