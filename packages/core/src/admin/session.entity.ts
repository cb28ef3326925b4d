/**
 * Admin sessions (spec Authentication 6; DESIGN §3 "admin session cookie"): the cookie carries a random token,
 * the table only its SHA-256.
 *
 * | item          | pk                           | sk           | notes                               |
 * |---------------|------------------------------|--------------|-------------------------------------|
 * | staff session | STAFFSESSION#<sha256(token)> | STAFFSESSION | username, createdAt (ms), credentialVersion; TTL `expiresAt` (s) |
 */
import { createHash } from 'node:crypto';
import * as z from 'zod';
import type { Db } from '../db/client';
import { getItem } from '../db/items';
import type { Key } from '../db/keys';
import { put, remove, type TxItem } from '../db/transact';
import { lazySchema } from '../lazySchema';

const staffSessionKey = (token: string): Key => {
  const hash = createHash('sha256').update(token).digest('hex');
  return { pk: `STAFFSESSION#${hash}`, sk: 'STAFFSESSION' };
};

const StaffSessionItem = lazySchema(() =>
  z
    .object({
      username: z.string(),
      /** Epoch ms. */
      createdAt: z.number().int(),
      /** TTL, epoch seconds; reads check it too (DynamoDB deletes late). */
      expiresAt: z.number().int(),
      /** The member's credential version at sign-in (staff.entity.ts); the session is over once it differs. */
      credentialVersion: z.string().optional(),
    })
    .describe('staff session'),
);
export type StaffSession = z.infer<typeof StaffSessionItem>;

/** The session of cookie token `token`, or undefined. */
export const readStaffSession = (db: Db, token: string): Promise<StaffSession | undefined> =>
  getItem(db, staffSessionKey(token), StaffSessionItem);

/** The transaction item storing the session of `token`. */
export const staffSessionItem = (db: Db, token: string, session: StaffSession): TxItem =>
  put(db, { ...staffSessionKey(token), ...session });

/** The transaction item deleting the session of `token`; it fails (condition) when there is none. */
export const staffSessionRemoval = (db: Db, token: string): TxItem =>
  remove(db, staffSessionKey(token), { condition: 'attribute_exists(pk)' });
