/**
 * Taking and giving back a use of a discount code, always inside the transaction of the order it concerns (spec
 * Limits; issue 4 §6):
 *
 * - One code per order, applied only before the gateway step: at purchase (purchase.ts) or by
 *   `POST /api/discounts/redeem` (redeem.ts). A use is counted when the code is applied (the price is fixed then,
 *   and two buyers can never both take the last use): the code's counter (condition: active, in its window,
 *   under `maxUses`), the user's counter (condition: under `perUserLimit`) and a redemption record.
 * - When the order ends unpaid (failed at the gateway, or cancelled by staff) the use is given back in the same
 *   transaction ({@link releaseDiscountItems}); should that order be paid after all (a late successful
 *   verification), the use is taken again whatever the limit, since the money is in ({@link retakeDiscountItems}).
 *   {@link discountReleaseGuard} pins the order's discount state so a use is given back or taken again at most once.
 */
import type { Db } from '../db/client';
import type { TxItem } from '../db/transact';
import { addCodeUse, type DiscountCode } from './discountCode.entity';
import { paymentErrors } from './errors';
import type { Order } from './order.entity';
import { addUserUse, putRedemption, releaseRedemption, retakeRedemption } from './redemption.entity';

/**
 * The transaction items that use `discount` once for `userId` on order `orderId` at `now`, taking
 * `discountToman` off: [code counter, user counter, redemption record]. Their conditions fail when the code ran
 * out or ended, the user used it up, or the order already has this code; {@link redemptionFailure} names which.
 */
export const useDiscountItems = (
  db: Db,
  discount: DiscountCode,
  userId: number,
  orderId: number,
  now: number,
  discountToman: number,
): TxItem[] => [
  addCodeUse(db, discount.code, 1, { now }),
  addUserUse(db, discount.code, userId, 1, discount.perUserLimit),
  putRedemption(db, { code: discount.code, orderId, userId, percent: discount.percent, discount: discountToman, at: now }),
];

/** The error for the failed item `index` of {@link useDiscountItems}. */
export function redemptionFailure(index: number): Error {
  if (index === 1) return paymentErrors.discountInvalid('You have already used this discount code');
  if (index === 2) return paymentErrors.discountNotAllowed('This order already has a discount code');
  return paymentErrors.discountInvalid('This discount code is used up or no longer valid');
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
    addCodeUse(db, order.discountCode, -1),
    addUserUse(db, order.discountCode, order.userId, -1),
    releaseRedemption(db, order.discountCode, order.id, now),
  ];
}

/** Items that take the released discount use of `order` again when it is paid after all (no limit: the money is in). */
export function retakeDiscountItems(db: Db, order: Order): TxItem[] {
  if (!order.discountCode || !order.discountReleased) return [];
  return [
    addCodeUse(db, order.discountCode, 1),
    addUserUse(db, order.discountCode, order.userId, 1),
    retakeRedemption(db, order.discountCode, order.id),
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
