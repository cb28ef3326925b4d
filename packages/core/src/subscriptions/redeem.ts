/**
 * `POST /api/discounts/redeem` (spec "Ticket, offer, affiliate, discount code"; issue 4 §6): applies a discount
 * code to the caller's pending order before its gateway step, as one transaction: the order's new amount
 * (condition: still pending, no gateway authority, no code), the use of the code (discountUse.ts) and a
 * `discount_applied` row. A 100% code then makes the order paid with no gateway (settle.ts `markPaid` via
 * `discount`).
 */
import type { User } from '../auth';
import { failedItems, isConditionFailure } from '../db/conditions';
import { type TxItem, transact, update } from '../db/transact';
import type { Deps } from '../deps';
import { getDiscount, priced, requireUsable } from './discounts';
import { redemptionFailure, useDiscountItems } from './discountUse';
import { paymentErrors } from './errors';
import { type Order, orderKey } from './order.entity';
import { getOwnOrder } from './orders';
import { eventItem } from './paymentEvent.entity';
import { markPaid } from './settle';

/**
 * Errors when `order` cannot take a discount code now (see {@link redeemDiscount}). A marketplace order takes one
 * only while MARKETPLACE_DYNAMIC_PRICE_KEY is set (its lower price goes to the marketplace as a signed dynamic price)
 * and before its start step (spec Errors; DESIGN §8).
 */
function requireDiscountable(deps: Deps, order: Order): void {
  if (order.status === 'paid') throw paymentErrors.alreadyPaid();
  if (order.status !== 'pending') throw paymentErrors.orderStatusConflict(order.status, 'only a pending order can take a discount code');
  if (order.discountCode) throw paymentErrors.discountNotAllowed('This order already has a discount code (one code per order)');
  if (order.authority)
    throw paymentErrors.discountNotAllowed('The payment of this order has started; a discount code can only be applied before');
  if (order.provider !== 'marketplace') return;
  if (!deps.settings.marketplace.dynamicPriceKey) {
    throw paymentErrors.marketplaceDiscountRefused(
      'Discount codes cannot be used on marketplace orders here (no dynamic-price key is configured)',
    );
  }
  if (order.marketplaceStartedAt) {
    throw paymentErrors.marketplaceDiscountRefused(
      'The marketplace purchase of this order has started; a discount code can only be applied before',
    );
  }
}

/**
 * Applies `rawCode` to `user`'s order `orderId` (see the module doc). Returns the order after (paid for a 100%
 * code).
 *
 * Errors: `not_found` (not the caller's order), `already_paid`, `order_status_conflict` (failed, refunded,
 * cancelled), `discount_not_allowed` (the order has a code already, or its gateway step has begun; 400 for a
 * marketplace order without the dynamic-price key or after its start step),
 * `discount_invalid`, `database_busy` (lost a race that left the order discountable).
 */
export async function redeemDiscount(deps: Deps, user: User, rawCode: string, orderId: number): Promise<Order> {
  const order = await getOwnOrder(deps, user.id, orderId);
  requireDiscountable(deps, order);
  const now = deps.clock.now();
  const discount = requireUsable(await getDiscount(deps, rawCode), now, order.planId);
  const price = priced(order.listPrice, discount);
  const items: TxItem[] = [
    update(
      deps.db,
      orderKey(order.id),
      'SET discountCode = :code, discountPercent = :percent, discount = :discount, amount = :amount, updatedAt = :now',
      {
        condition:
          '#s = :pending AND attribute_not_exists(authority) AND attribute_not_exists(marketplaceStartedAt) AND attribute_not_exists(discountCode)',
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
    ...useDiscountItems(deps.db, discount, user.id, order.id, now, price.discount),
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
    if (failed.includes(0)) requireDiscountable(deps, await getOwnOrder(deps, user.id, orderId));
    const redemption = failed.find((i) => i > 0);
    if (redemption !== undefined) throw redemptionFailure(redemption - 1);
    if (isConditionFailure(error)) throw paymentErrors.busy();
    throw error;
  }
  const applied: Order = { ...order, ...price, updatedAt: now };
  if (applied.amount === 0) return (await markPaid(deps, order.id, 'discount')).order;
  return applied;
}
