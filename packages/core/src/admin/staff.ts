/**
 * Staff (admin) accounts (spec Authentication 6; DESIGN §1 admin, §2 createsuperuser, §9): a username, a
 * password (passwords.ts), a superuser flag and permissions (staff.entity.ts `STAFF_PERMISSIONS`). A superuser
 * has every permission; adding staff is a superuser's job (today: `npm run createsuperuser`).
 */
import type { Clock } from '../clock';
import type { Db } from '../db/client';
import { isConditionFailure } from '../db/conditions';
import { commonErrors } from '../errors';
import { hashPassword, MIN_PASSWORD_LENGTH } from './passwords';
import { putNewStaff, STAFF_PERMISSIONS, type Staff, type StaffPermission } from './staff.entity';

const USERNAME_PATTERN = /^[a-z0-9_.@-]{3,64}$/;

/** A username as typed: trimmed, lower case. */
export const normalizeUsername = (username: string): string => username.trim().toLowerCase();

/** Whether `staff` holds `permission` (a superuser holds every one). */
export const hasPermission = (staff: Staff, permission: StaffPermission): boolean =>
  staff.isSuperuser || staff.permissions.includes(permission);

/** The public part of a staff record (never the hash). */
export const publicStaff = ({ username, isSuperuser, permissions, active, createdAt }: Staff): Staff => ({
  username,
  isSuperuser,
  permissions,
  active,
  createdAt,
});

/**
 * Creates an active staff member, created now by `clock`. Errors: `validation_error` (username not 3-64 of
 * a-z 0-9 _ . @ -, password shorter than {@link MIN_PASSWORD_LENGTH}, unknown permission, username taken).
 */
export async function createStaff(
  db: Db,
  clock: Clock,
  input: { username: string; password: string; isSuperuser: boolean; permissions?: StaffPermission[] },
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
  const staff: Staff = { username, isSuperuser: input.isSuperuser, permissions, active: true, createdAt: clock.now() };
  try {
    await putNewStaff(db, { ...staff, passwordHash: await hashPassword(input.password) });
  } catch (error) {
    if (isConditionFailure(error)) throw commonErrors.validation(`username ${username} is taken`, { username: ['taken'] });
    throw error;
  }
  return staff;
}
