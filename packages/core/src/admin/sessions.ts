/**
 * Admin sessions (spec Authentication 6; DESIGN §3 "admin session cookie"): a 256-bit random token, stored only
 * as its SHA-256 (session.entity.ts, TTL {@link STAFF_SESSION_SECONDS}), carried by an HttpOnly,
 * SameSite=Strict cookie (Secure except on a plain-http local server; the cookie itself is built at the edge).
 * Each request re-reads the staff member, so deactivating one or changing permissions takes effect at once.
 */
import { randomBytes } from 'node:crypto';
import { epochSeconds } from '../clock';
import type { Deps } from '../deps';
import { adminErrors } from './errors';
import { DUMMY_HASH, verifyPassword } from './passwords';
import { deleteStaffSession, putStaffSession, readStaffSession } from './session.entity';
import { hasPermission, normalizeUsername, publicStaff } from './staff';
import { readStaff, type Staff, type StaffPermission } from './staff.entity';

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
  const token = randomBytes(32).toString('base64url');
  const now = deps.clock.now();
  await putStaffSession(deps.db, token, { username: staff.username, createdAt: now, expiresAt: epochSeconds(now) + STAFF_SESSION_SECONDS });
  return { token, staff: publicStaff(staff), maxAgeSeconds: STAFF_SESSION_SECONDS };
}

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
export function requirePermission(staff: Staff, permission: StaffPermission): void {
  if (!hasPermission(staff, permission)) throw adminErrors.permissionDenied(permission);
}

/** Ends the session of `token` (nothing to do without one). */
export async function staffLogout(deps: Deps, token: string | undefined): Promise<void> {
  if (!token) return;
  await deleteStaffSession(deps.db, token);
}
