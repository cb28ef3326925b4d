/**
 * Discount codes and offers (spec "Ticket, offer, affiliate, discount code", Limits; issue 4 §6).
 *
 * - A code takes a whole percentage (1-100) off the order's list price. Arithmetic in whole toman: discount =
 *   floor(listPrice × percent / 100), amount = listPrice − discount (the buyer never pays a fraction, and a 100%
 *   code makes the amount exactly 0).
 * - One code per order, applied only before the gateway step: at purchase (`discountCode`) or by
 *   `POST /api/discounts/redeem` while the order is pending and has no gateway authority yet.
 * - Limits: validity window [validFrom, validUntil) in epoch ms, a total use limit (`maxUses`, absent =
 *   unlimited), a per-user limit (`perUserLimit`, default 1), optionally only some plans. A use is counted when
 *   the code is applied to an order (the price is fixed then, and two buyers can never both take the last use).
 *   When the order ends unpaid (failed at the gateway, or cancelled by staff) the use is given back in the same
 *   transaction ({@link releaseDiscountItems}); should that order be paid after all (a late successful
 *   verification), the use is taken again whatever the limit, since the money is in ({@link retakeDiscountItems}).
 * - Applying writes, in the order's own transaction: the order's new amount, the code's use counter (condition:
 *   active, in its window, under its limit), the user's use counter (condition: under the per-user limit), a
 *   redemption record `DISCOUNT#<CODE>` / `REDEMPTION#<orderId>` and a `discount_applied` event.
 * - A code that brings the amount to 0 makes the order paid with no gateway (grant.ts `markPaid` via
 *   `discount`); it is not a "real payment" for referral commission.
 * - Codes are matched case-insensitively (stored upper case). Offers (`GET /api/offers`) are the advertised
 *   codes valid now (gsi1 partition `OFFERS`).
 */
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { User } from '../auth';
import type { Db } from '../db/client';
import { failedItems, isConditionFailure } from '../db/conditions';
import { keys } from '../db/keys';
import { put, type TxItem, transact, update } from '../db/transact';
import type { Deps } from '../deps';
import { commonErrors } from '../errors';
import { paymentErrors } from './errors';
import { eventItem } from './events';
import { markPaid } from './grant';
import { getOwnOrder, type Order } from './orders';

export interface DiscountCode {
  /** Upper case, 3-32 of A-Z 0-9 _ -. */
  code: string;
  title: string;
  /** Whole percent off the list price, 1-100. */
  percent: number;
  /** Epoch ms, inclusive; absent = since always. */
  validFrom?: number;
  /** Epoch ms, exclusive; absent = forever. */
  validUntil?: number;
  /** Total uses allowed; absent = unlimited. */
  maxUses?: number;
  /** Uses allowed per user. */
  perUserLimit: number;
  /** Plans the code applies to; absent = every plan. */
  planIds?: number[];
  /** Listed by `GET /api/offers`. */
  advertised: boolean;
  active: boolean;
  /** Uses so far. */
  uses: number;
}

const CODE_PATTERN = /^[A-Z0-9_-]{3,32}$/;

export const normalizeDiscountCode = (code: string): string => code.trim().toUpperCase();

/** Discount of `percent` % on `listPrice` toman: whole toman, rounded down. */
export const discountFor = (listPrice: number, percent: number): number => Math.floor((listPrice * percent) / 100);

/**
 * Creates or replaces a discount code (tests, seed data, and later the admin); an existing code keeps its use
 * count. Errors: `validation_error` for a bad code, percent or limit.
 */
export async function saveDiscountCode(
  db: Db,
  input: Omit<DiscountCode, 'uses' | 'perUserLimit'> & { perUserLimit?: number },
): Promise<void> {
  const code = normalizeDiscountCode(input.code);
  if (!CODE_PATTERN.test(code)) throw commonErrors.validation('code must be 3-32 of A-Z 0-9 _ -', { code: ['3-32 of A-Z 0-9 _ -'] });
  if (!Number.isInteger(input.percent) || input.percent < 1 || input.percent > 100) {
    throw commonErrors.validation('percent must be a whole number from 1 to 100', { percent: ['1 to 100'] });
  }
  const perUserLimit = input.perUserLimit ?? 1;
  if (!Number.isInteger(perUserLimit) || perUserLimit < 1) throw commonErrors.validation('perUserLimit must be at least 1');
  const existing = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: keys.discount(code), ConsistentRead: true }));
  const item: Record<string, unknown> = {
    ...keys.discount(code),
    ...(input.advertised ? keys.offer(code) : {}),
    ...input,
    code,
    perUserLimit,
    uses: Number(existing.Item?.uses ?? 0),
  };
  await db.doc.send(new PutCommand({ TableName: db.tableName, Item: item }));
}

const fromItem = (item: Record<string, unknown>): DiscountCode => {
  const { pk: _pk, sk: _sk, gsi1pk: _a, gsi1sk: _b, ...code } = item;
  return code as unknown as DiscountCode;
};

export async function getDiscount(deps: Deps, rawCode: string): Promise<DiscountCode | undefined> {
  const code = normalizeDiscountCode(rawCode);
  if (!CODE_PATTERN.test(code)) return undefined;
  const result = await deps.db.doc.send(new GetCommand({ TableName: deps.db.tableName, Key: keys.discount(code), ConsistentRead: true }));
  return result.Item ? fromItem(result.Item) : undefined;
}

/**
 * The code when it can be applied now to plan `planId`. Errors: `discount_invalid` (unknown, inactive, not yet
 * valid, expired, used up, not for this plan).
 */
export function requireUsable(discount: DiscountCode | undefined, now: number, planId: number): DiscountCode {
  if (!discount?.active) throw paymentErrors.discountInvalid('No such discount code');
  if (discount.validFrom !== undefined && now < discount.validFrom)
    throw paymentErrors.discountInvalid('This discount code is not valid yet');
  if (discount.validUntil !== undefined && now >= discount.validUntil)
    throw paymentErrors.discountInvalid('This discount code has expired');
  if (discount.maxUses !== undefined && discount.uses >= discount.maxUses)
    throw paymentErrors.discountInvalid('This discount code is used up');
  if (discount.planIds && !discount.planIds.includes(planId))
    throw paymentErrors.discountInvalid('This discount code is not for this plan');
  return discount;
}

/** What applying `discount` to a list price gives. */
export const priced = (listPrice: number, discount: DiscountCode) => {
  const off = discountFor(listPrice, discount.percent);
  return { discountCode: discount.code, discountPercent: discount.percent, discount: off, amount: listPrice - off };
};

/**
 * The transaction items that use `discount` once for `userId` on order `orderId` (taking `discountToman` off):
 * [code counter, user counter, redemption record]. Their conditions fail when the code ran out or ended, or the user used it up.
 */
export function redemptionItems(
  db: Db,
  discount: DiscountCode,
  userId: number,
  orderId: number,
  now: number,
  discountToman: number,
): TxItem[] {
  return [
    update(db, keys.discount(discount.code), 'ADD uses :one', {
      condition:
        'attribute_exists(pk) AND active = :true AND (attribute_not_exists(maxUses) OR uses < maxUses) AND ' +
        '(attribute_not_exists(validUntil) OR validUntil > :now) AND (attribute_not_exists(validFrom) OR validFrom <= :now)',
      values: { ':one': 1, ':true': true, ':now': now },
    }),
    update(db, keys.discountUserUses(discount.code, userId), 'ADD #count :one SET userId = :user', {
      condition: 'attribute_not_exists(#count) OR #count < :limit',
      names: { '#count': 'count' },
      values: { ':one': 1, ':limit': discount.perUserLimit, ':user': userId },
    }),
    put(
      db,
      {
        ...keys.discountRedemption(discount.code, orderId),
        code: discount.code,
        orderId,
        userId,
        percent: discount.percent,
        discount: discountToman,
        at: now,
      },
      { condition: 'attribute_not_exists(pk)' },
    ),
  ];
}

/**
 * Items that give back the discount use of `order`, which is ending unpaid at `now`: the code's and the user's
 * counters go down by one and the redemption record is marked released. The caller's transaction also sets
 * `discountReleased` on the order with {@link discountReleaseGuard}, under a condition on its status, so a use is
 * given back at most once. No items for an order without a code.
 */
export function releaseDiscountItems(db: Db, order: Order, now: number): TxItem[] {
  if (!order.discountCode) return [];
  return [
    update(db, keys.discount(order.discountCode), 'ADD uses :minus', { values: { ':minus': -1 } }),
    update(db, keys.discountUserUses(order.discountCode, order.userId), 'ADD #count :minus', {
      names: { '#count': 'count' },
      values: { ':minus': -1 },
    }),
    update(db, keys.discountRedemption(order.discountCode, order.id), 'SET releasedAt = :now', {
      condition: 'attribute_exists(pk)',
      values: { ':now': now },
    }),
  ];
}

/** Items that take the released discount use of `order` again when it is paid after all (no limit: the money is in). */
export function retakeDiscountItems(db: Db, order: Order): TxItem[] {
  if (!order.discountCode || !order.discountReleased) return [];
  return [
    update(db, keys.discount(order.discountCode), 'ADD uses :one', { values: { ':one': 1 } }),
    update(db, keys.discountUserUses(order.discountCode, order.userId), 'ADD #count :one', {
      names: { '#count': 'count' },
      values: { ':one': 1 },
    }),
    update(db, keys.discountRedemption(order.discountCode, order.id), 'REMOVE releasedAt'),
  ];
}

/**
 * The part of an order update that pins its discount state as read: the code (or none) and whether its use was
 * released, so a code applied or a use released meanwhile makes the transaction fail and re-read. `release` adds
 * the SET of `discountReleased`; `retake` its REMOVE.
 */
export function discountReleaseGuard(order: Order, change: 'release' | 'retake' | 'none') {
  const condition = order.discountCode
    ? `discountCode = :dcode AND ${order.discountReleased ? 'discountReleased = :dtrue' : 'attribute_not_exists(discountReleased)'}`
    : 'attribute_not_exists(discountCode)';
  const values: Record<string, unknown> = order.discountCode ? { ':dcode': order.discountCode } : {};
  if (order.discountCode && (order.discountReleased || change === 'release')) values[':dtrue'] = true;
  const release = change === 'release' && order.discountCode;
  const retake = change === 'retake' && order.discountReleased;
  return {
    condition,
    values,
    set: release ? ', discountReleased = :dtrue' : '',
    remove: retake ? ' REMOVE discountReleased' : '',
  };
}

/** The error for a failed redemption item (index within {@link redemptionItems}). */
export function redemptionFailure(index: number): Error {
  if (index === 1) return paymentErrors.discountInvalid('You have already used this discount code');
  if (index === 2) return paymentErrors.discountNotAllowed('This order already has a discount code');
  return paymentErrors.discountInvalid('This discount code is used up or no longer valid');
}

/**
 * `POST /api/discounts/redeem`: applies `rawCode` to the caller's pending order `orderId` before the gateway
 * step, as one transaction; a 100% code then makes the order paid with no gateway. Returns the order after.
 *
 * Errors: `not_found` (not the caller's order), `already_paid`, `order_status_conflict` (failed, refunded,
 * cancelled), `discount_not_allowed` (the order has a code already, or its gateway step has begun),
 * `discount_invalid`.
 */
export async function redeemDiscount(deps: Deps, user: User, rawCode: string, orderId: number): Promise<Order> {
  const order = await getOwnOrder(deps, user.id, orderId);
  requireDiscountable(order);
  const now = deps.clock.now();
  const discount = requireUsable(await getDiscount(deps, rawCode), now, order.planId);
  const price = priced(order.listPrice, discount);
  const items: TxItem[] = [
    update(
      deps.db,
      keys.order(order.id),
      'SET discountCode = :code, discountPercent = :percent, discount = :discount, amount = :amount, updatedAt = :now',
      {
        condition: '#s = :pending AND attribute_not_exists(authority) AND attribute_not_exists(discountCode)',
        names: { '#s': 'status' },
        values: {
          ':code': price.discountCode,
          ':percent': price.discountPercent,
          ':discount': price.discount,
          ':amount': price.amount,
          ':now': now,
          ':pending': 'pending',
        },
      },
    ),
    ...redemptionItems(deps.db, discount, user.id, order.id, now, price.discount),
    eventItem(deps.db, order.id, now, 'discount_applied', {
      userId: user.id,
      discountCode: discount.code,
      percent: discount.percent,
      discount: price.discount,
      amount: price.amount,
    }),
  ];
  try {
    await transact(deps.db, items);
  } catch (error) {
    const failed = failedItems(error);
    if (failed.includes(0)) requireDiscountable(await getOwnOrder(deps, user.id, orderId));
    const redemption = failed.find((i) => i > 0);
    if (redemption !== undefined) throw redemptionFailure(redemption - 1);
    if (isConditionFailure(error)) throw paymentErrors.busy();
    throw error;
  }
  const applied: Order = { ...order, ...price, updatedAt: now };
  if (applied.amount === 0) return (await markPaid(deps, order.id, 'discount')).order;
  return applied;
}

/** Errors when `order` cannot take a discount code now (see {@link redeemDiscount}). */
function requireDiscountable(order: Order): void {
  if (order.status === 'paid') throw paymentErrors.alreadyPaid();
  if (order.status !== 'pending') throw paymentErrors.orderStatusConflict(order.status, 'only a pending order can take a discount code');
  if (order.discountCode) throw paymentErrors.discountNotAllowed('This order already has a discount code (one code per order)');
  if (order.authority)
    throw paymentErrors.discountNotAllowed('The payment of this order has started; a discount code can only be applied before');
}

export interface Offer {
  code: string;
  title: string;
  percent: number;
  validUntil: number | null;
  planIds: number[] | null;
}

/** `GET /api/offers`: advertised codes that are active, in their window and not used up, by code. */
export async function listOffers(deps: Deps): Promise<Offer[]> {
  const result = await deps.db.doc.send(
    new QueryCommand({
      TableName: deps.db.tableName,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.offersPartition },
    }),
  );
  const now = deps.clock.now();
  return (result.Items ?? [])
    .map(fromItem)
    .filter(
      (d) =>
        d.active &&
        (d.validFrom === undefined || d.validFrom <= now) &&
        (d.validUntil === undefined || now < d.validUntil) &&
        (d.maxUses === undefined || d.uses < d.maxUses),
    )
    .map((d) => ({ code: d.code, title: d.title, percent: d.percent, validUntil: d.validUntil ?? null, planIds: d.planIds ?? null }));
}
