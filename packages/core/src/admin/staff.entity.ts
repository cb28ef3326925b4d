/**
 * Staff (admin) accounts (spec Authentication 6; DESIGN §9).
 *
 * | item         | pk                | sk    | gsi1                   | notes                                          |
 * |--------------|-------------------|-------|------------------------|------------------------------------------------|
 * | staff member | STAFF#<username>  | STAFF | STAFF / <username>     | username lower case; `passwordHash` (passwords.ts); `credentialVersion` |
 *
 * gsi1 lists the staff for superusers. Accounts made before it carry their gsi1 keys from their next sign-in
 * (every sign-in that rehashes a password rewrites the item; docs/decisions.md "Staff panel").
 * The hash never leaves this domain: {@link Staff} is the public part. `credentialVersion` (DESIGN §12) is copied into
 * every session at sign-in and compared on each request: a new one (password change, deactivation, reactivation,
 * "end sessions") ends every session made before it. Accounts made before it have none until their first change.
 */
import { randomUUID } from 'node:crypto';
import * as z from 'zod';
import type { Db } from '../db/client';
import { getItem, putItem, queryAll } from '../db/items';
import type { Key } from '../db/keys';
import { put, remove, type TxItem, update } from '../db/transact';
import { lazySchema } from '../lazySchema';
import { StaffPermission } from './permissions';

const STAFF_INDEX = 'STAFF';
const staffKey = (username: string): Key => ({ pk: `STAFF#${username}`, sk: 'STAFF' });
const staffIndex = (username: string) => ({ gsi1pk: STAFF_INDEX, gsi1sk: username });

/** Permission names stored before the Django-style ones (issue 4), read (and accepted) as their new names. */
export const RENAMED_PERMISSIONS: Readonly<Record<string, StaffPermission>> = {
  'orders.view': 'view_order',
  'orders.change': 'change_order',
};
const RENAMED = RENAMED_PERMISSIONS;

/** Stored permission names → granted permissions: renamed ones mapped, unknown ones dropped, no duplicates. */
const storedPermissions = (names: string[]): StaffPermission[] => [
  ...new Set(
    names.flatMap((n) => {
      const name = RENAMED[n] ?? n;
      return StaffPermission.safeParse(name).success ? [name as StaffPermission] : [];
    }),
  ),
];

const StaffFields = lazySchema(() =>
  z.object({
    /** Lower case, 3-64 of a-z 0-9 _ . @ -. */
    username: z.string(),
    isSuperuser: z.boolean(),
    /** Granted permissions (a superuser holds every one whatever this says); see {@link storedPermissions}. */
    permissions: z.array(z.string()).transform(storedPermissions),
    active: z.boolean(),
    /** Epoch ms. */
    createdAt: z.number().int(),
    /** Epoch ms of the last change through the API. */
    updatedAt: z.number().int().optional(),
  }),
);
/** A staff member as the API and the request pipeline see it: never the password hash. */
export type Staff = z.infer<typeof StaffFields>;

const StaffItem = lazySchema(() =>
  StaffFields.unwrap()
    .extend({
      /** Argon2id PHC string, or a legacy `scrypt$…` one until the next sign-in. */
      passwordHash: z.string(),
      /** A random stamp of the member's credentials; sessions made under another one are over (see the module doc). */
      credentialVersion: z.string().optional(),
    })
    .describe('staff member'),
);
export type StaffItem = z.infer<typeof StaffItem>;

/** The staff member `username` (already normalized), or undefined. */
export const readStaff = (db: Db, username: string): Promise<StaffItem | undefined> => getItem(db, staffKey(username), StaffItem);

/** The transaction item storing a new staff member; it fails (condition) when the username is taken. */
export const newStaffItem = (db: Db, staff: StaffItem): TxItem =>
  put(db, { ...staffKey(staff.username), ...staffIndex(staff.username), ...staff }, { condition: 'attribute_not_exists(pk)' });

/** A new credential version (a random UUID). */
export const newCredentialVersion = (): string => randomUUID();

/** The condition that the stored credentials are still `previous`'s (its hash and credential version). */
function sameCredentials(previous: Pick<StaffItem, 'passwordHash' | 'credentialVersion'>) {
  return previous.credentialVersion === undefined
    ? { condition: 'passwordHash = :previous AND attribute_not_exists(credentialVersion)', values: { ':previous': previous.passwordHash } }
    : {
        condition: 'passwordHash = :previous AND credentialVersion = :version',
        values: { ':previous': previous.passwordHash, ':version': previous.credentialVersion },
      };
}

/**
 * The transaction item replacing staff member `staff.username`, only while its stored credentials are still those of
 * `previous` (the hash and the credential version), so a password changed or sessions ended meanwhile are never
 * overwritten.
 */
export const staffReplacement = (db: Db, staff: StaffItem, previous: Pick<StaffItem, 'passwordHash' | 'credentialVersion'>): TxItem =>
  put(db, { ...staffKey(staff.username), ...staffIndex(staff.username), ...staff }, sameCredentials(previous));

/** {@link staffReplacement} on its own. Errors: ConditionalCheckFailedException. */
export const replaceStaff = (db: Db, staff: StaffItem, previous: Pick<StaffItem, 'passwordHash' | 'credentialVersion'>): Promise<void> =>
  putItem(db, { ...staffKey(staff.username), ...staffIndex(staff.username), ...staff }, sameCredentials(previous));

/**
 * The transaction item giving staff member `username` (normalized) a new credential version, `updatedAt` epoch ms:
 * every session made before ends. It fails (condition) when there is no such member.
 */
export const credentialRenewal = (db: Db, username: string, updatedAt: number): TxItem =>
  update(db, staffKey(username), 'SET credentialVersion = :version, updatedAt = :at', {
    condition: 'attribute_exists(pk)',
    values: { ':version': newCredentialVersion(), ':at': updatedAt },
  });

/** The transaction item deleting staff member `username`; it fails (condition) when there is none. */
export const staffRemoval = (db: Db, username: string): TxItem => remove(db, staffKey(username), { condition: 'attribute_exists(pk)' });

/** Every staff member, by username (gsi1). */
export const allStaff = (db: Db): Promise<StaffItem[]> => queryAll(db, { index: 'gsi1', partition: STAFF_INDEX }, StaffItem);
