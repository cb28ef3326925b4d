/**
 * Admin sessions (spec Authentication 6; DESIGN §3 "admin session cookie", §9): a 256-bit random token, stored
 * only as its SHA-256 (session.entity.ts, TTL {@link STAFF_SESSION_SECONDS}), carried by an HttpOnly,
 * SameSite=Strict cookie with `Path=/api` (Secure when PUBLIC_BASE_URL is https; the cookie itself is built at the
 * edge). Each request re-reads the staff member, so deactivating one or changing permissions takes effect at
 * once. A sign-in whose stored hash is an older algorithm or cost (a legacy scrypt hash) replaces it.
 */
import { randomBytes } from 'node:crypto';
import { epochSeconds } from '../clock';
import type { Deps } from '../deps';
import { adminErrors } from './errors';
import { DUMMY_HASH, hashPassword, needsRehash, verifyPassword } from './passwords';
import { hasPermission, type Permission, permissionsOf } from './permissions';
import { deleteStaffSession, putStaffSession, readStaffSession } from './session.entity';
import { normalizeUsername, publicStaff } from './staff';
import { readStaff, replaceStaff, type Staff, type StaffItem } from './staff.entity';

/** Admin session lifetime: 12 hours. */
export const STAFF_SESSION_SECONDS = 12 * 3600;
/** Name of the admin session cookie. */
export const ADMIN_COOKIE = 'mathisland_admin';

/**
 * Signs a staff member in. Returns the session token (for the cookie), the staff member and the cookie's
 * lifetime (seconds). Errors: `not_authenticated` (401) for a wrong username or password or an inactive
 * account, with one message for all.
 */
export async function staffLogin(
  deps: Deps,
  username: string,
  password: string,
): Promise<{ token: string; staff: Staff; maxAgeSeconds: number }> {
  const staff = await readStaff(deps.db, normalizeUsername(username));
  const ok = await verifyPassword(password, staff?.passwordHash ?? DUMMY_HASH);
  if (!staff || !ok || !staff.active) throw adminErrors.loginFailed();
  if (needsRehash(staff.passwordHash)) await rehash(deps, staff, password);
  const token = randomBytes(32).toString('base64url');
  const now = deps.clock.now();
  await putStaffSession(deps.db, token, { username: staff.username, createdAt: now, expiresAt: epochSeconds(now) + STAFF_SESSION_SECONDS });
  return { token, staff: publicStaff(staff), maxAgeSeconds: STAFF_SESSION_SECONDS };
}

/** Replaces `staff`'s hash by today's (a lost race with a password change keeps that change). */
async function rehash(deps: Deps, staff: StaffItem, password: string): Promise<void> {
  await replaceStaff(deps.db, { ...staff, passwordHash: await hashPassword(password) }, staff.passwordHash).catch(() => undefined);
}

/** What `GET /api/admin/me` and the login answer: the username, the superuser flag and every permission held. */
export const staffIdentity = (staff: Staff): { username: string; isSuperuser: boolean; permissions: Permission[] } => ({
  username: staff.username,
  isSuperuser: staff.isSuperuser,
  permissions: permissionsOf(staff),
});

/** The staff member of session `token`. Errors: `not_authenticated` (none, expired, ended, inactive). */
export async function authenticateStaff(deps: Deps, token: string | undefined): Promise<Staff> {
  if (!token) throw adminErrors.notAuthenticated();
  const session = await readStaffSession(deps.db, token);
  if (!session || session.expiresAt <= epochSeconds(deps.clock.now())) throw adminErrors.notAuthenticated();
  const staff = await readStaff(deps.db, normalizeUsername(session.username));
  if (!staff?.active) throw adminErrors.notAuthenticated();
  return publicStaff(staff);
}

/** Errors: `permission_denied` (403) unless `staff` has `permission`. */
export function requirePermission(staff: Staff, permission: Permission): void {
  if (!hasPermission(staff, permission)) throw adminErrors.permissionDenied(permission);
}

/** Ends the session of `token` (nothing to do without one). */
export async function staffLogout(deps: Deps, token: string | undefined): Promise<void> {
  if (!token) return;
  await deleteStaffSession(deps.db, token);
}
