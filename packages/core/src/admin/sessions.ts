/**
 * Admin sessions (spec Authentication 6; DESIGN §3 "admin session cookie"): a 256-bit random token, stored only
 * as its SHA-256 (`STAFFSESSION#<hash>`, TTL), carried by an HttpOnly, SameSite=Strict cookie (Secure except on a
 * plain-http local server; the cookie itself is built at the edge). Each request re-reads the staff member, so
 * deactivating one or changing permissions takes effect at once.
 */
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { randomToken, sha256Hex } from '../auth/crypto';
import { epochSeconds } from '../clock';
import { keys } from '../db/keys';
import type { Deps } from '../deps';
import { DomainError } from '../errors';
import { hasPermission, normalizeUsername, publicStaff, readStaff, type Staff, type StaffPermission, verifyPassword } from './staff';

/** Admin session lifetime: 12 hours. */
export const STAFF_SESSION_SECONDS = 12 * 3600;
/** Name of the admin session cookie. */
export const ADMIN_COOKIE = 'mathisland_admin';

export const adminErrors = {
  notAuthenticated: () => new DomainError('not_authenticated', 'Sign in to the admin first (POST /api/admin/login)'),
  loginFailed: () => new DomainError('not_authenticated', 'Wrong username or password'),
  permissionDenied: (permission: StaffPermission) => new DomainError('permission_denied', `This action needs the ${permission} permission`),
};

/** A hash for unknown usernames, so a wrong username costs as much time as a wrong password. */
const DUMMY_HASH = `scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$${'A'.repeat(86)}==`;

/**
 * Signs a staff member in. Returns the session token (for the cookie) and the staff member. Errors:
 * `not_authenticated` (401) for a wrong username or password or an inactive account, with one message for all.
 */
export async function staffLogin(
  deps: Deps,
  username: string,
  password: string,
): Promise<{ token: string; staff: Staff; maxAgeSeconds: number }> {
  const staff = await readStaff(deps.db, username);
  const ok = await verifyPassword(password, staff?.passwordHash ?? DUMMY_HASH);
  if (!staff || !ok || !staff.active) throw adminErrors.loginFailed();
  const token = randomToken();
  await deps.db.doc.send(
    new PutCommand({
      TableName: deps.db.tableName,
      Item: {
        ...keys.staffSession(sha256Hex(token)),
        username: staff.username,
        createdAt: deps.clock.now(),
        expiresAt: epochSeconds(deps.clock.now()) + STAFF_SESSION_SECONDS,
      },
    }),
  );
  return { token, staff: publicStaff(staff), maxAgeSeconds: STAFF_SESSION_SECONDS };
}

/** The staff member of session `token`. Errors: `not_authenticated` (none, expired, ended, inactive). */
export async function authenticateStaff(deps: Deps, token: string | undefined): Promise<Staff> {
  if (!token) throw adminErrors.notAuthenticated();
  const session = (
    await deps.db.doc.send(new GetCommand({ TableName: deps.db.tableName, Key: keys.staffSession(sha256Hex(token)), ConsistentRead: true }))
  ).Item as { username: string; expiresAt: number } | undefined;
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
  await deps.db.doc.send(new DeleteCommand({ TableName: deps.db.tableName, Key: keys.staffSession(sha256Hex(token)) }));
}
