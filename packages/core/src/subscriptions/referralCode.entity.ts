/**
 * Referral codes (spec "Ticket, offer, affiliate, discount code"; issue 4 §7): each user's code is stored on the
 * user item (`referralCode`, auth's UserItem) and kept unique by a constraint item claimed in the same
 * transaction.
 *
 * | item          | pk             | sk      | notes                          |
 * |---------------|----------------|---------|--------------------------------|
 * | referral code | REFCODE#<code> | REFCODE | unique constraint → `userId`   |
 */
import * as z from 'zod';
import type { Db } from '../db/client';
import { getItem } from '../db/items';
import type { Key } from '../db/keys';
import { put, type TxItem } from '../db/transact';
import { lazySchema } from '../lazySchema';

const referralCodeKey = (code: string): Key => ({ pk: `REFCODE#${code}`, sk: 'REFCODE' });

const ReferralCodeItem = lazySchema(() => z.object({ userId: z.number().int().positive() }).describe('referral code'));

/** The owner of referral code `code` (upper case), or undefined. */
export async function userIdOfReferralCode(db: Db, code: string): Promise<number | undefined> {
  return (await getItem(db, referralCodeKey(code), ReferralCodeItem))?.userId;
}

/** The transaction item that gives `code` to `userId` (condition: nobody has it). */
export const claimReferralCode = (db: Db, code: string, userId: number): TxItem =>
  put(db, { ...referralCodeKey(code), userId }, { condition: 'attribute_not_exists(pk)' });
