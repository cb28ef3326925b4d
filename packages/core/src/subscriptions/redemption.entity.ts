/**
 * The uses of a discount code: one redemption record per order it was applied to, and one use counter per user
 * (the per-user limit). Both live in the code's partition (discountCode.entity.ts) and are payment records: they
 * stay when an account is deleted.
 *
 * | item                    | pk              | sk                      | notes                                       |
 * |-------------------------|-----------------|-------------------------|---------------------------------------------|
 * | discount redemption     | DISCOUNT#<CODE> | REDEMPTION#<orderId 12> | `releasedAt` while its use is given back    |
 * | discount uses of a user | DISCOUNT#<CODE> | USER#<userId>           | `count`, `userId`: the per-user limit counter |
 *
 * Both change only inside an order's transaction (discountUse.ts builds those items).
 */
import * as z from 'zod';
import type { Db } from '../db/client';
import { getItem } from '../db/items';
import { type Key, pad } from '../db/keys';
import { put, type TxItem, update } from '../db/transact';
import { lazySchema } from '../lazySchema';
import { discountPartition } from './discountCode.entity';

const redemptionKey = (code: string, orderId: number): Key => ({ pk: discountPartition(code), sk: `REDEMPTION#${pad(orderId, 12)}` });
const userUsesKey = (code: string, userId: number): Key => ({ pk: discountPartition(code), sk: `USER#${userId}` });

const epochMs = z.number().int();

export const RedemptionItem = lazySchema(() =>
  z
    .object({
      code: z.string(),
      orderId: z.number().int(),
      userId: z.number().int(),
      percent: z.number().int(),
      /** Toman taken off. */
      discount: z.number().int(),
      /** Epoch ms applied. */
      at: epochMs,
      /** Epoch ms its use was given back (the order ended unpaid); removed when it is paid after all. */
      releasedAt: epochMs.optional(),
    })
    .describe('discount redemption'),
);
export type Redemption = z.infer<typeof RedemptionItem>;

/** The redemption of `code` on order `orderId`, or undefined. */
export const readRedemption = (db: Db, code: string, orderId: number): Promise<Redemption | undefined> =>
  getItem(db, redemptionKey(code, orderId), RedemptionItem);

/** Adds `delta` to the uses of `code` by `userId`; with `limit`, only while they are under it. */
export function addUserUse(db: Db, code: string, userId: number, delta: 1 | -1, limit?: number): TxItem {
  const key = userUsesKey(code, userId);
  const names = { '#count': 'count' };
  if (limit === undefined) return update(db, key, 'ADD #count :delta', { names, values: { ':delta': delta } });
  return update(db, key, 'ADD #count :delta SET userId = :user', {
    condition: 'attribute_not_exists(#count) OR #count < :limit',
    names,
    values: { ':delta': delta, ':limit': limit, ':user': userId },
  });
}

/** The transaction item that records `redemption` (condition: the order has none yet for this code). */
export const putRedemption = (db: Db, redemption: Redemption): TxItem =>
  put(db, { ...redemptionKey(redemption.code, redemption.orderId), ...redemption }, { condition: 'attribute_not_exists(pk)' });

/** Marks the redemption of `code` on `orderId` released at `now` (condition: it exists). */
export const releaseRedemption = (db: Db, code: string, orderId: number, now: number): TxItem =>
  update(db, redemptionKey(code, orderId), 'SET releasedAt = :now', { condition: 'attribute_exists(pk)', values: { ':now': now } });

/** Clears the release mark of the redemption of `code` on `orderId` (the order is paid after all). */
export const retakeRedemption = (db: Db, code: string, orderId: number): TxItem =>
  update(db, redemptionKey(code, orderId), 'REMOVE releasedAt');
