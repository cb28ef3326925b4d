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
import { getItem, parseItem, putItem, queryAll } from '../db/items';
import type { Key } from '../db/keys';
import { put, remove, type TxItem, update } from '../db/transact';
import { lazySchema } from '../lazySchema';

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

export const DiscountCodeItem = lazySchema(() =>
  z
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
    .describe('discount code'),
);
export type DiscountCode = z.infer<typeof DiscountCodeItem>;

/** The code `code` (upper case), or undefined. */
export const readDiscountCode = (db: Db, code: string): Promise<DiscountCode | undefined> =>
  getItem(db, discountKey(code), DiscountCodeItem);

/** The item of `discount` with its index keys (an advertised code also goes to the offers index). */
const codeItem = (discount: DiscountCode) => ({
  ...discountKey(discount.code),
  ...codesIndex(discount.code),
  ...(discount.advertised ? offerIndex(discount.code) : {}),
  ...discount,
});

/** Stores `discount` as it is, replacing any earlier one (seeds, tests, the offers backfill). */
export const putDiscountCode = (db: Db, discount: DiscountCode): Promise<void> => putItem(db, codeItem(discount));

/** The transaction item creating `discount`; it fails (condition) when the code exists. */
export const newDiscountCodeItem = (db: Db, discount: DiscountCode): TxItem =>
  put(db, codeItem(discount), { condition: 'attribute_not_exists(pk)' });

/** Fields of a code the staff may change (never `code` or `uses`). */
export type DiscountCodeChanges = Partial<Omit<DiscountCode, 'code' | 'uses'>>;

/**
 * The transaction item applying `changes` to code `before.code` (so a use counted meanwhile is kept): given fields
 * are set, fields named in `removed` are removed, and the offers index follows `advertised`. It fails (condition) when
 * the code is gone or any field it changes no longer holds its value in `before` (another staff change won the race:
 * read again), so the history entry's befores are exactly what was replaced.
 */
export function discountCodeUpdate(db: Db, before: DiscountCode, changes: DiscountCodeChanges, removed: readonly string[]): TxItem {
  const names: Record<string, string> = { '#pk': 'pk' };
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  const guards = ['attribute_exists(#pk)'];
  const fields = [...Object.keys(changes).filter((f) => changes[f as keyof DiscountCodeChanges] !== undefined), ...removed];
  for (const [i, field] of fields.entries()) {
    names[`#f${i}`] = field;
    const was = before[field as keyof DiscountCode];
    if (was === undefined) guards.push(`attribute_not_exists(#f${i})`);
    else {
      values[`:b${i}`] = was;
      guards.push(`#f${i} = :b${i}`);
    }
    if (i < fields.length - removed.length) {
      values[`:v${i}`] = changes[field as keyof DiscountCodeChanges];
      sets.push(`#f${i} = :v${i}`);
    }
  }
  const removes = removed.map((_, j) => `#f${fields.length - removed.length + j}`);
  if (changes.advertised === true) {
    Object.assign(values, { ':opk': OFFERS_PARTITION, ':osk': before.code });
    sets.push('gsi1pk = :opk', 'gsi1sk = :osk');
  } else if (changes.advertised === false) removes.push('gsi1pk', 'gsi1sk');
  const expression = [sets.length ? `SET ${sets.join(', ')}` : '', removes.length ? `REMOVE ${removes.join(', ')}` : ''].join(' ').trim();
  if (!expression) names['#c'] = 'code';
  return update(db, discountKey(before.code), expression || 'SET #c = #c', {
    condition: guards.join(' AND '),
    names,
    ...(Object.keys(values).length ? { values } : {}),
  });
}

/** The code `before` after `changes` and `removed` (what {@link discountCodeUpdate} stores, `uses` as read). */
export function changedDiscountCode(before: DiscountCode, changes: DiscountCodeChanges, removed: readonly string[]): DiscountCode {
  const after: Record<string, unknown> = { ...before, ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) };
  for (const field of removed) delete after[field];
  return parseItem(DiscountCodeItem, after);
}

/** The transaction item deleting code `code` while it has no use; it fails (condition) when it is gone or used. */
export const discountCodeRemoval = (db: Db, code: string): TxItem =>
  remove(db, discountKey(code), { condition: 'attribute_exists(pk) AND uses = :zero', values: { ':zero': 0 } });

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
