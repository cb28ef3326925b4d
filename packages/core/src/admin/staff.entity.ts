/**
 * Staff (admin) accounts (spec Authentication 6; DESIGN §9).
 *
 * | item         | pk                | sk    | notes                                              |
 * |--------------|-------------------|-------|----------------------------------------------------|
 * | staff member | STAFF#<username>  | STAFF | username lower case; scrypt `passwordHash` (passwords.ts) |
 *
 * The hash never leaves this domain: {@link Staff} is the public part.
 */
import { z } from 'zod';
import type { Db } from '../db/client';
import { getItem, putItem } from '../db/items';
import type { Key } from '../db/keys';

const staffKey = (username: string): Key => ({ pk: `STAFF#${username}`, sk: 'STAFF' });

/** `orders.view`: list and read orders and their payment events; `orders.change`: cancel, refund (spec "change permission"). */
export const STAFF_PERMISSIONS = ['orders.view', 'orders.change', 'view_marketplacecredential', 'change_marketplacecredential'] as const;
export const StaffPermission = z.enum(STAFF_PERMISSIONS);
export type StaffPermission = z.infer<typeof StaffPermission>;

const StaffFields = z.object({
  /** Lower case, 3-64 of a-z 0-9 _ . @ -. */
  username: z.string(),
  isSuperuser: z.boolean(),
  permissions: z.array(StaffPermission),
  active: z.boolean(),
  /** Epoch ms. */
  createdAt: z.number().int(),
});
/** A staff member as the API and the request pipeline see it: never the password hash. */
export type Staff = z.infer<typeof StaffFields>;

const StaffItem = StaffFields.extend({
  /** `scrypt$N$r$p$<salt b64>$<hash b64>`. */
  passwordHash: z.string(),
}).describe('staff member');
export type StaffItem = z.infer<typeof StaffItem>;

/** The staff member `username` (already normalized), or undefined. */
export const readStaff = (db: Db, username: string): Promise<StaffItem | undefined> => getItem(db, staffKey(username), StaffItem);

/** Stores a new staff member. Errors: ConditionalCheckFailedException when the username is taken. */
export const putNewStaff = (db: Db, staff: StaffItem): Promise<void> =>
  putItem(db, { ...staffKey(staff.username), ...staff }, { condition: 'attribute_not_exists(pk)' });
