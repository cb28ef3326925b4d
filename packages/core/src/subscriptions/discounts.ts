/**
 * Discount codes (spec "Ticket, offer, affiliate, discount code", Limits; issue 4 §6): what a code is worth and
 * when it may be applied. Storage: discountCode.entity.ts; taking and giving back a use: discountUse.ts;
 * `POST /api/discounts/redeem`: redeem.ts; `GET /api/offers`: offers.ts.
 *
 * - A code takes a whole percentage (1-100) off the order's list price. Arithmetic in whole toman: discount =
 *   floor(listPrice × percent / 100), amount = listPrice − discount (the buyer never pays a fraction, and a 100%
 *   code makes the amount exactly 0).
 * - Limits: validity window [validFrom, validUntil) in epoch ms, a total use limit (`maxUses`, absent =
 *   unlimited), a per-user limit (`perUserLimit`, default 1), optionally only some plans.
 * - Codes are matched case-insensitively (stored upper case).
 */
import type { Db } from '../db/client';
import type { Deps } from '../deps';
import { commonErrors } from '../errors';
import { type DiscountCode, putDiscountCode, readDiscountCode } from './discountCode.entity';
import { paymentErrors } from './errors';

const CODE_PATTERN = /^[A-Z0-9_-]{3,32}$/;

/** A code as typed: trimmed, upper case. */
export const normalizeDiscountCode = (code: string): string => code.trim().toUpperCase();

/** Discount of `percent` % on `listPrice` toman: whole toman, rounded down. */
export const discountFor = (listPrice: number, percent: number): number => Math.floor((listPrice * percent) / 100);

/**
 * Creates or replaces a discount code (migrations, tests, and later the admin); an existing code keeps its use
 * count. Errors: `validation_error` for a bad code, percent or per-user limit.
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
  const existing = await readDiscountCode(db, code);
  await putDiscountCode(db, { ...input, code, perUserLimit, uses: existing?.uses ?? 0 });
}

/** The code `rawCode` as typed (any case, spaces around), or undefined when there is none. */
export async function getDiscount(deps: Pick<Deps, 'db'>, rawCode: string): Promise<DiscountCode | undefined> {
  const code = normalizeDiscountCode(rawCode);
  if (!CODE_PATTERN.test(code)) return undefined;
  return readDiscountCode(deps.db, code);
}

/** Whether `discount` is active, in its window at `now` (epoch ms) and not used up: what offers list. */
export const usableNow = (discount: DiscountCode, now: number): boolean =>
  discount.active &&
  (discount.validFrom === undefined || discount.validFrom <= now) &&
  (discount.validUntil === undefined || now < discount.validUntil) &&
  (discount.maxUses === undefined || discount.uses < discount.maxUses);

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

/** What applying `discount` to `listPrice` toman gives: the order's discount fields and the amount to pay. */
export const priced = (listPrice: number, discount: DiscountCode) => {
  const off = discountFor(listPrice, discount.percent);
  return { discountCode: discount.code, discountPercent: discount.percent, discount: off, amount: listPrice - off };
};
