/**
 * Discount codes and their advertised form, offers (spec "Ticket, offer, affiliate, discount code", Limits;
 * issue 4 §6). The code's partition also holds its redemptions (redemption.entity.ts).
 *
 * | item          | pk              | sk       | notes                                            |
 * |---------------|-----------------|----------|--------------------------------------------------|
 * | discount code | DISCOUNT#<CODE> | DISCOUNT | gsi1 OFFERS / <CODE> when advertised (an offer)  |
 *
 * Codes are stored upper case. `uses` changes only inside an order's transaction (discountUse.ts).
 */
import { z } from 'zod';
import type { Db } from '../db/client';
import { getItem, putItem, queryAll } from '../db/items';
import type { Key } from '../db/keys';
import { type TxItem, update } from '../db/transact';

const OFFERS_PARTITION = 'OFFERS';

/** The partition of code `code`: the code, its redemptions and its per-user use counters. */
export const discountPartition = (code: string): string => `DISCOUNT#${code}`;
const discountKey = (code: string): Key => ({ pk: discountPartition(code), sk: 'DISCOUNT' });
/** gsi1 of an advertised code. */
const offerIndex = (code: string) => ({ gsi1pk: OFFERS_PARTITION, gsi1sk: code });

const epochMs = z.number().int();

export const DiscountCodeItem = z
  .object({
    /** Upper case, 3-32 of A-Z 0-9 _ -. */
    code: z.string(),
    title: z.string(),
    /** Whole percent off the list price, 1-100. */
    percent: z.number().int(),
    /** Epoch ms, inclusive; absent = since always. */
    validFrom: epochMs.optional(),
    /** Epoch ms, exclusive; absent = forever. */
    validUntil: epochMs.optional(),
    /** Total uses allowed; absent = unlimited. */
    maxUses: z.number().int().optional(),
    /** Uses allowed per user. */
    perUserLimit: z.number().int(),
    /** Plans the code applies to; absent = every plan. */
    planIds: z.array(z.number().int()).optional(),
    /** Listed by `GET /api/offers`. */
    advertised: z.boolean(),
    active: z.boolean(),
    /** Uses so far (applied to an order and not given back). */
    uses: z.number().int(),
  })
  .describe('discount code');
export type DiscountCode = z.infer<typeof DiscountCodeItem>;

/** The code `code` (upper case), or undefined. */
export const readDiscountCode = (db: Db, code: string): Promise<DiscountCode | undefined> =>
  getItem(db, discountKey(code), DiscountCodeItem);

/** Stores `discount` as it is (an advertised code also goes to the offers index), replacing any earlier one. */
export const putDiscountCode = (db: Db, discount: DiscountCode): Promise<void> =>
  putItem(db, { ...discountKey(discount.code), ...(discount.advertised ? offerIndex(discount.code) : {}), ...discount });

/** Every advertised code (gsi1 `OFFERS`), valid or not. */
export const advertisedCodes = (db: Db): Promise<DiscountCode[]> =>
  queryAll(db, { index: 'gsi1', partition: OFFERS_PARTITION }, DiscountCodeItem);

/**
 * Adds `delta` (+1 or −1) to the code's `uses`. With `limited`, only while the code is active, in its window at
 * `now` and under `maxUses` (the condition that makes two buyers unable to both take the last use).
 */
export function addCodeUse(db: Db, code: string, delta: 1 | -1, limited?: { now: number }): TxItem {
  if (!limited) return update(db, discountKey(code), 'ADD uses :delta', { values: { ':delta': delta } });
  return update(db, discountKey(code), 'ADD uses :delta', {
    condition:
      'attribute_exists(pk) AND active = :true AND (attribute_not_exists(maxUses) OR uses < maxUses) AND ' +
      '(attribute_not_exists(validUntil) OR validUntil > :now) AND (attribute_not_exists(validFrom) OR validFrom <= :now)',
    values: { ':delta': delta, ':true': true, ':now': limited.now },
  });
}
