/**
 * Staff (admin) accounts (spec Authentication 6; DESIGN §1 admin, §2 createsuperuser).
 *
 * A staff member is `STAFF#<username>` with a password hash, a superuser flag and permissions. Passwords are
 * hashed with scrypt from node:crypto (N=16384, r=8, p=1, 64-byte key, 16-byte random salt), stored as
 * `scrypt$N$r$p$<salt b64>$<hash b64>` so the cost can be raised later, and compared in constant time.
 *
 * Permissions: `orders.view` (list and read orders and their payment events) and `orders.change` (cancel,
 * refund: the spec's "change permission"). A superuser has every permission; adding staff is a superuser's job
 * (today: `npm run createsuperuser`).
 */
import { randomBytes, type ScryptOptions, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from '../db/client';
import { isConditionFailure } from '../db/conditions';
import { keys } from '../db/keys';
import { put, transact } from '../db/transact';
import { commonErrors } from '../errors';

export const STAFF_PERMISSIONS = ['orders.view', 'orders.change'] as const;
export type StaffPermission = (typeof STAFF_PERMISSIONS)[number];

export interface Staff {
  username: string;
  isSuperuser: boolean;
  permissions: StaffPermission[];
  active: boolean;
  /** Epoch ms. */
  createdAt: number;
}

interface StaffItem extends Staff {
  passwordHash: string;
}

export const MIN_PASSWORD_LENGTH = 10;
const USERNAME_PATTERN = /^[a-z0-9_.@-]{3,64}$/;
const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 64 };

const scrypt = (password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> =>
  new Promise((resolve, reject) =>
    scryptCallback(password, salt, keylen, { ...options, maxmem: 64 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );

/** A storable scrypt hash of `password`. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, SCRYPT.keylen, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p });
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Whether `password` matches `stored` (constant-time compare; false for a malformed hash). */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, { N: Number(n), r: Number(r), p: Number(p) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

export const normalizeUsername = (username: string): string => username.trim().toLowerCase();

export const hasPermission = (staff: Staff, permission: StaffPermission): boolean =>
  staff.isSuperuser || staff.permissions.includes(permission);

const fromItem = (item: Record<string, unknown>): StaffItem => {
  const { pk: _pk, sk: _sk, ...staff } = item;
  return staff as unknown as StaffItem;
};

export async function readStaff(db: Db, username: string): Promise<StaffItem | undefined> {
  const result = await db.doc.send(
    new GetCommand({ TableName: db.tableName, Key: keys.staff(normalizeUsername(username)), ConsistentRead: true }),
  );
  return result.Item ? fromItem(result.Item) : undefined;
}

/** The public part of a staff record (never the hash). */
export const publicStaff = ({ username, isSuperuser, permissions, active, createdAt }: Staff): Staff => ({
  username,
  isSuperuser,
  permissions,
  active,
  createdAt,
});

/**
 * Creates a staff member. Errors: `validation_error` (username not 3-64 of a-z 0-9 _ . @ -, password shorter
 * than {@link MIN_PASSWORD_LENGTH}, unknown permission, username taken).
 */
export async function createStaff(
  db: Db,
  input: { username: string; password: string; isSuperuser: boolean; permissions?: StaffPermission[]; now?: number },
): Promise<Staff> {
  const username = normalizeUsername(input.username);
  if (!USERNAME_PATTERN.test(username)) {
    throw commonErrors.validation('username must be 3-64 of a-z 0-9 _ . @ -', { username: ['3-64 of a-z 0-9 _ . @ -'] });
  }
  if (input.password.length < MIN_PASSWORD_LENGTH) {
    throw commonErrors.validation(`password must be at least ${MIN_PASSWORD_LENGTH} characters`, {
      password: [`at least ${MIN_PASSWORD_LENGTH} characters`],
    });
  }
  const permissions = input.permissions ?? [];
  const unknown = permissions.filter((p) => !STAFF_PERMISSIONS.includes(p));
  if (unknown.length) throw commonErrors.validation(`unknown permissions: ${unknown.join(', ')}`);
  const staff: Staff = { username, isSuperuser: input.isSuperuser, permissions, active: true, createdAt: input.now ?? Date.now() };
  try {
    await transact(db, [
      put(
        db,
        { ...keys.staff(username), ...staff, passwordHash: await hashPassword(input.password) },
        { condition: 'attribute_not_exists(pk)' },
      ),
    ]);
  } catch (error) {
    if (isConditionFailure(error)) throw commonErrors.validation(`username ${username} is taken`, { username: ['taken'] });
    throw error;
  }
  return staff;
}
