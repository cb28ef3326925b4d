/**
 * Orders (spec "Order", "States and transitions / Order"; DESIGN §3 statuses): the record of one purchase of a
 * plan, with the plan's title, list price, duration and tutor quota snapshotted at creation (later edits of the
 * plan never change an order). Money is whole toman; times are epoch ms.
 *
 * | item  | pk              | sk    | gsi1 (the user's orders)                 | gsi2 (every order, the admin list)       |
 * |-------|-----------------|-------|------------------------------------------|------------------------------------------|
 * | order | ORDER#<orderId> | ORDER | USERORDERS#<userId> / ORDER#<orderId 12> | ORDERS / <createdAt ms 15>#<orderId 12>  |
 *
 * gsi2 is one partition: fine for this shop's order rate, and never read by the app. Status changes are
 * conditional updates built by the use cases (settle.ts, checkout.ts, redeem.ts, staffActions.ts).
 */
import * as z from 'zod';
import { StoredSubscription } from '../auth';
import type { Db } from '../db/client';
import { getItem, type Page, queryAll, queryPage, timeRange } from '../db/items';
import { type Key, pad } from '../db/keys';
import { put, type TxItem } from '../db/transact';
import { lazySchema } from '../lazySchema';
import { MarketplaceProductType } from './plan.entity';

const ALL_ORDERS_PARTITION = 'ORDERS';

export const orderKey = (orderId: number): Key => ({ pk: `ORDER#${orderId}`, sk: 'ORDER' });
const userOrdersPartition = (userId: number): string => `USERORDERS#${userId}`;
/** gsi1 of an order: the user's orders by id. */
const userOrdersIndex = (userId: number, orderId: number) => ({ gsi1pk: userOrdersPartition(userId), gsi1sk: `ORDER#${pad(orderId, 12)}` });
/** gsi2 of an order: every order by creation time. */
const allOrdersIndex = (createdAtMs: number, orderId: number) => ({
  gsi2pk: ALL_ORDERS_PARTITION,
  gsi2sk: `${pad(createdAtMs, 15)}#${pad(orderId, 12)}`,
});

export const ORDER_STATUSES = ['pending', 'paid', 'failed', 'refunded', 'cancelled'] as const;
export const OrderStatus = z.enum(ORDER_STATUSES);
export type OrderStatus = z.infer<typeof OrderStatus>;
export const Provider = z.enum(['gateway', 'marketplace']);
export type Provider = z.infer<typeof Provider>;

const toman = z.number().int().nonnegative();
const epochMs = z.number().int();

export const OrderItem = lazySchema(() =>
  z
    .object({
      id: z.number().int().positive(),
      userId: z.number().int().positive(),
      planId: z.number().int(),
      /** Snapshots of the plan at creation. */
      planTitle: z.string(),
      durationDays: z.number().int().nonnegative(),
      aiDailyQuota: z.number().int().nonnegative(),
      /** List price, toman. */
      listPrice: toman,
      /** Discount code applied (upper case), at most one per order. */
      discountCode: z.string().optional(),
      /** The order ended unpaid (failed or cancelled) and its discount use was given back (discountUse.ts). */
      discountReleased: z.boolean().optional(),
      discountPercent: z.number().int().optional(),
      /** Discount, toman. */
      discount: toman,
      /** What the buyer pays, toman: listPrice − discount. */
      amount: toman,
      status: OrderStatus,
      provider: Provider,
      idempotencyKey: z.string(),
      createdAt: epochMs,
      updatedAt: epochMs,
      /** Gateway session, set on the first visit of the pay link. */
      authority: z.string().optional(),
      gatewayStartedAt: epochMs.optional(),
      paidAt: epochMs.optional(),
      paidVia: z.enum(['callback', 'recheck', 'discount', 'marketplace', 'marketplace_renewal']).optional(),
      /** The gateway's payment reference. */
      refId: z.string().optional(),
      /** Masked card number as the gateway reports it (e.g. 502229******5995). */
      cardPan: z.string().optional(),
      failedAt: epochMs.optional(),
      cancelledAt: epochMs.optional(),
      cancelledBy: z.string().optional(),
      refundedAt: epochMs.optional(),
      refundedBy: z.string().optional(),
      /** Set when the marketplace ended the order (refunded or cancelled there, marketplaceEnd.ts); staff ends name `refundedBy`/`cancelledBy`. */
      endedVia: z.literal('marketplace').optional(),
      /** What paying granted: days, the subscription end before and after (epoch ms), and the subscription it extended. */
      grant: z.object({ days: z.number().int(), fromMs: epochMs, toMs: epochMs, previous: StoredSubscription.nullable() }).optional(),
      /** Referral commission paid for this order (toman), if it was the invitee's first real payment. */
      commission: z.object({ referrerId: z.number().int(), amount: toman }).optional(),
      /** Marketplace orders: the plan's SKU and product type, snapshotted at purchase (never from the app). */
      marketplaceSku: z.string().optional(),
      marketplaceProductType: MarketplaceProductType.optional(),
      /** Set by the marketplace start step: the payload binding the purchase to this order, and when. */
      developerPayload: z.string().optional(),
      marketplaceStartedAt: epochMs.optional(),
      /** SHA-256 (hex) of the marketplace purchase token that paid the order; the token itself is never stored here. */
      purchaseTokenDigest: z.string().optional(),
      /** End of the marketplace subscription period this order paid for, from the marketplace's answer (epoch ms). */
      validUntil: epochMs.optional(),
      /** A marketplace renewal: the id of the order that first bought the subscription. */
      renewalOf: z.number().int().positive().optional(),
    })
    .describe('order'),
);
export type Order = z.infer<typeof OrderItem>;

/** The order `orderId`, or undefined (strongly consistent). */
export const readOrder = (db: Db, orderId: number): Promise<Order | undefined> => getItem(db, orderKey(orderId), OrderItem);

/** Every order of `userId`, newest first (gsi1; eventually consistent like every GSI read). */
export const ordersOfUser = (db: Db, userId: number): Promise<Order[]> =>
  queryAll(db, { index: 'gsi1', partition: userOrdersPartition(userId), descending: true }, OrderItem);

/** Which orders a staff list keeps (DynamoDB filter on the page read). */
export interface OrderFilter {
  status?: OrderStatus;
  provider?: Provider;
  /** Created at or after, epoch ms. */
  from?: number;
  /** Created at or before, epoch ms. */
  to?: number;
  /** Newest first (default) or oldest first. */
  order?: 'asc' | 'desc';
}

/** The FilterExpression of `filter` (with `byTime`, the creation-time range too: the user's index is by id). */
function orderFilter(filter: OrderFilter, byTime: boolean) {
  const parts: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  for (const field of ['status', 'provider'] as const) {
    if (filter[field] === undefined) continue;
    parts.push(`#${field} = :${field}`);
    names[`#${field}`] = field;
    values[`:${field}`] = filter[field];
  }
  if (byTime && (filter.from !== undefined || filter.to !== undefined)) {
    names['#createdAt'] = 'createdAt';
    values[':from'] = filter.from ?? 0;
    values[':to'] = filter.to ?? Number.MAX_SAFE_INTEGER;
    parts.push('#createdAt BETWEEN :from AND :to');
  }
  return parts.length ? { filter: { condition: parts.join(' AND '), names, values } } : {};
}

/**
 * One page of orders, newest first (`order: 'asc'`: oldest first): every order (gsi2, a creation-time range as its
 * sort key), or `userId`'s (gsi1, by id: the range filtered); at most `limit` read before `filter` keeps some,
 * starting at `cursor` (a `nextCursor` of the same list). Errors: `validation_error` on `cursor`.
 */
export const ordersPage = (db: Db, options: OrderFilter & { userId?: number; limit: number; cursor?: string }): Promise<Page<Order>> =>
  queryPage(
    db,
    {
      ...(options.userId === undefined
        ? { index: 'gsi2', partition: ALL_ORDERS_PARTITION, sortKey: timeRange('', 15, options) }
        : { index: 'gsi1', partition: userOrdersPartition(options.userId) }),
      descending: options.order !== 'asc',
      limit: options.limit,
      ...orderFilter(options, options.userId !== undefined),
    },
    OrderItem,
    options.cursor,
  );

/** Every order, newest first (gsi2): for migrations. */
export const allOrders = (db: Db): Promise<Order[]> => queryAll(db, { index: 'gsi2', partition: ALL_ORDERS_PARTITION }, OrderItem);

/** The transaction item that creates `order` with its index keys (condition: no order with its id). */
export const createOrder = (db: Db, order: Order): TxItem =>
  put(
    db,
    { ...orderKey(order.id), ...userOrdersIndex(order.userId, order.id), ...allOrdersIndex(order.createdAt, order.id), ...order },
    { condition: 'attribute_not_exists(pk)' },
  );
