/**
 * Discount codes and their advertised form, offers (spec "Ticket, offer, affiliate, discount code", Limits;
 * issue 4 §6). The code's partition also holds its redemptions (redemption.entity.ts).
 *
 * | item          | pk              | sk       | notes                                            |
 * |---------------|-----------------|----------|--------------------------------------------------|
 * | discount code | DISCOUNT#<CODE> | DISCOUNT | gsi1 OFFERS / <CODE> when advertised (an offer); gsi2 DISCOUNTS / <CODE> (staff list) |
 *
 * Codes are stored upper case. `uses` changes only inside an order's transaction (discountUse.ts).
 */
import * as z from 'zod';
import type { Db } from '../db/client';
import { deleteItem, getItem, parseItem, putItem, queryAll, updateItem } from '../db/items';
import type { Key } from '../db/keys';
import { type TxItem, update } from '../db/transact';

const OFFERS_PARTITION = 'OFFERS';
const ALL_CODES_PARTITION = 'DISCOUNTS';

/** The partition of code `code`: the code, its redemptions and its per-user use counters. */
export const discountPartition = (code: string): string => `DISCOUNT#${code}`;
const discountKey = (code: string): Key => ({ pk: discountPartition(code), sk: 'DISCOUNT' });
/** gsi1 of an advertised code. */
const offerIndex = (code: string) => ({ gsi1pk: OFFERS_PARTITION, gsi1sk: code });
/** gsi2 of every code. */
const codesIndex = (code: string) => ({ gsi2pk: ALL_CODES_PARTITION, gsi2sk: code });

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

/**
 * Stores `discount` as it is (an advertised code also goes to the offers index), replacing any earlier one, or
 * with `create` only when there is none. Errors: ConditionalCheckFailedException (`create`, the code exists).
 */
export const putDiscountCode = (db: Db, discount: DiscountCode, options: { create?: boolean } = {}): Promise<void> =>
  putItem(
    db,
    { ...discountKey(discount.code), ...codesIndex(discount.code), ...(discount.advertised ? offerIndex(discount.code) : {}), ...discount },
    options.create ? { condition: 'attribute_not_exists(pk)' } : {},
  );

/** Fields of a code the staff may change (never `code` or `uses`). */
export type DiscountCodeChanges = Partial<Omit<DiscountCode, 'code' | 'uses'>>;

/**
 * Applies `changes` to code `code` in one UpdateItem (so a use counted meanwhile is kept): given fields are
 * set, fields given as undefined-by-null are removed (`remove`), and the offers index follows `advertised`.
 * Returns the code after the change. Errors: ConditionalCheckFailedException when there is no such code.
 */
export async function updateDiscountCode(db: Db, code: string, changes: DiscountCodeChanges, remove: string[]): Promise<DiscountCode> {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  for (const [i, [field, value]] of Object.entries(changes)
    .filter(([, v]) => v !== undefined)
    .entries()) {
    names[`#f${i}`] = field;
    values[`:v${i}`] = value;
    sets.push(`#f${i} = :v${i}`);
  }
  names['#pk'] = 'pk';
  const removes = remove.map((field, i) => {
    names[`#r${i}`] = field;
    return `#r${i}`;
  });
  if (changes.advertised === true) {
    Object.assign(values, { ':opk': OFFERS_PARTITION, ':osk': code });
    sets.push('gsi1pk = :opk', 'gsi1sk = :osk');
  } else if (changes.advertised === false) removes.push('gsi1pk', 'gsi1sk');
  const expression = [sets.length ? `SET ${sets.join(', ')}` : '', removes.length ? `REMOVE ${removes.join(', ')}` : ''].join(' ').trim();
  const after = await updateItem(
    db,
    discountKey(code),
    expression || 'SET #c = #c',
    {
      condition: 'attribute_exists(#pk)',
      names: expression ? names : { '#c': 'code', '#pk': 'pk' },
      ...(Object.keys(values).length ? { values } : {}),
    },
    'ALL_NEW',
  );
  return parseItem(DiscountCodeItem, after);
}

/** Deletes code `code` while it has no use. Errors: ConditionalCheckFailedException (none, or used). */
export const deleteDiscountCode = (db: Db, code: string): Promise<void> =>
  deleteItem(db, discountKey(code), { condition: 'attribute_exists(pk) AND uses = :zero', values: { ':zero': 0 } });

/** Every code, by code (gsi2 `DISCOUNTS`). */
export const allDiscountCodes = (db: Db): Promise<DiscountCode[]> =>
  queryAll(db, { index: 'gsi2', partition: ALL_CODES_PARTITION }, DiscountCodeItem);

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
