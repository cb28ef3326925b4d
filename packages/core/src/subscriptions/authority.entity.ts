/**
 * The gateway authority of an order (providers.md §1; DESIGN §5: lookups by authority go through a
 * unique-constraint item, never Scan).
 *
 * | item              | pk                    | sk        | notes                                 |
 * |-------------------|-----------------------|-----------|---------------------------------------|
 * | gateway authority | AUTHORITY#<authority> | AUTHORITY | unique constraint → `orderId`         |
 *
 * Written in the transaction that stores the authority on its order (checkout.ts `startPayment`).
 */
import * as z from 'zod';
import type { Db } from '../db/client';
import { getItem } from '../db/items';
import type { Key } from '../db/keys';
import { put, type TxItem } from '../db/transact';
import { lazySchema } from '../lazySchema';

const authorityKey = (authority: string): Key => ({ pk: `AUTHORITY#${authority}`, sk: 'AUTHORITY' });

const AuthorityItem = lazySchema(() => z.object({ orderId: z.number().int().positive() }).describe('gateway authority'));

/** The order the gateway issued `authority` for, or undefined. */
export async function orderIdOfAuthority(db: Db, authority: string): Promise<number | undefined> {
  return (await getItem(db, authorityKey(authority), AuthorityItem))?.orderId;
}

/** The transaction item that ties `authority` to `orderId` (condition: the authority is new). */
export const claimAuthority = (db: Db, authority: string, orderId: number): TxItem =>
  put(db, { ...authorityKey(authority), orderId }, { condition: 'attribute_not_exists(pk)' });
