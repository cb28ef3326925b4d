/**
 * Admin sessions (spec Authentication 6; DESIGN §3 "admin session cookie", §9): a 256-bit random token, stored
 * only as its SHA-256 (session.entity.ts, TTL {@link STAFF_SESSION_SECONDS}), carried by an HttpOnly,
 * SameSite=Strict cookie with `Path=/api` (Secure when PUBLIC_BASE_URL is https; the cookie itself is built at the
 * edge). Each request re-reads the staff member, so deactivating one or changing permissions takes effect at
 * once, and compares the session's credential version with the member's (DESIGN §12): a password change, a
 * deactivation (and the reactivation after it) and "end sessions" give the member a new one, which ends every
 * session made before, for good. A sign-in whose stored hash is an older algorithm or cost (a legacy scrypt hash)
 * replaces it. Sign-in attempts are limited by signInGuard.ts.
 */
import { randomBytes } from 'node:crypto';
import { epochSeconds } from '../clock';
import { isConditionFailure } from '../db/conditions';
import { transact } from '../db/transact';
import type { Deps } from '../deps';
import { type HistoryAction, historyItems } from '../history';
import { adminErrors } from './errors';
import { DUMMY_HASH, hashPassword, needsRehash, verifyPassword } from './passwords';
import { hasPermission, type Permission, permissionsOf } from './permissions';
import { readStaffSession, staffSessionItem, staffSessionRemoval } from './session.entity';
import { guardedSignIn } from './signInGuard';
import { normalizeUsername, publicStaff } from './staff';
import { readStaff, replaceStaff, type Staff, type StaffItem } from './staff.entity';

/** Admin session lifetime: 12 hours. */
export const STAFF_SESSION_SECONDS = 12 * 3600;
/** Name of the admin session cookie. */
export const ADMIN_COOKIE = 'mathisland_admin';

/** A new staff session: the cookie's token, the member and the cookie's lifetime (seconds). */
export interface StaffSessionStart {
  token: string;
  staff: Staff;
  maxAgeSeconds: number;
}

/** The history entry items of a sign-in or sign-out of `username` at `at` (DESIGN §9): no changes, never the token. */
const sessionHistory = (deps: Deps, action: HistoryAction, username: string, at: number) =>
  historyItems(deps.db, { at, staff: username, action, model: 'staff', objectId: username, objectRepr: username, changes: {} });

/**
 * Starts a session of `staff` under its current credential version; a sign-in (`signIn`) records its history
 * entry in the same transaction.
 */
async function startStaffSession(deps: Deps, staff: StaffItem, options: { signIn?: boolean } = {}): Promise<StaffSessionStart> {
  const token = randomBytes(32).toString('base64url');
  const now = deps.clock.now();
  const session = staffSessionItem(deps.db, token, {
    username: staff.username,
    createdAt: now,
    expiresAt: epochSeconds(now) + STAFF_SESSION_SECONDS,
    ...(staff.credentialVersion === undefined ? {} : { credentialVersion: staff.credentialVersion }),
  });
  await transact(deps.db, [session, ...(options.signIn ? sessionHistory(deps, 'sign_in', staff.username, now) : [])]);
  return { token, staff: publicStaff(staff), maxAgeSeconds: STAFF_SESSION_SECONDS };
}

/**
 * Signs a staff member in, `address` being the caller's (the viewer address, for the attempt limits). The username
 * is taken exactly as sent (no trimming, no case folding: signInGuard.ts). Returns the session. Errors:
 * `not_authenticated` (401) for a wrong username or password or an inactive account, with one message for all;
 * `throttled` (429, Retry-After) when the attempt limits hold this username at this address.
 */
export async function staffLogin(deps: Deps, username: string, password: string, address: string): Promise<StaffSessionStart> {
  return guardedSignIn(deps, username, address, async () => {
    const staff = await readStaff(deps.db, username);
    const ok = await verifyPassword(password, staff?.passwordHash ?? DUMMY_HASH);
    if (!staff || !ok || !staff.active) return undefined;
    if (needsRehash(staff.passwordHash)) await rehash(deps, staff, password);
    return startStaffSession(deps, staff, { signIn: true });
  });
}

/**
 * A new session for `username` under its credentials as they are now: the one who changed their own password keeps
 * working in this browser while every other session of theirs ended. Errors: `not_authenticated` (gone, inactive).
 */
export async function continueStaffSession(deps: Deps, username: string): Promise<StaffSessionStart> {
  const staff = await readStaff(deps.db, normalizeUsername(username));
  if (!staff?.active) throw adminErrors.notAuthenticated();
  return startStaffSession(deps, staff);
}

/** Replaces `staff`'s hash by today's (a lost race with a password change keeps that change). */
async function rehash(deps: Deps, staff: StaffItem, password: string): Promise<void> {
  await replaceStaff(deps.db, { ...staff, passwordHash: await hashPassword(password) }, staff).catch(() => undefined);
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
  if (!staff?.active || session.credentialVersion !== staff.credentialVersion) throw adminErrors.notAuthenticated();
  return publicStaff(staff);
}

/** Errors: `permission_denied` (403) unless `staff` has `permission`. */
export function requirePermission(staff: Staff, permission: Permission): void {
  if (!hasPermission(staff, permission)) throw adminErrors.permissionDenied(permission);
}

/**
 * Ends the session of `token`, with its sign-out history entry in the same transaction (nothing to do without one,
 * or when it ended meanwhile).
 */
export async function staffLogout(deps: Deps, token: string | undefined): Promise<void> {
  if (!token) return;
  const session = await readStaffSession(deps.db, token);
  if (!session) return;
  try {
    await transact(deps.db, [staffSessionRemoval(deps.db, token), ...sessionHistory(deps, 'sign_out', session.username, deps.clock.now())]);
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}
