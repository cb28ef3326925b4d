/**
 * Staff (admin) accounts (spec Authentication 6; DESIGN §2 createsuperuser, §9): a username, a password
 * (passwords.ts), a superuser flag, granted permissions (permissions.ts) and an active flag. Superusers manage
 * them through `/api/admin/staff` (and `npm run createsuperuser` makes the first); every change is one audit
 * log line naming the superuser. A superuser cannot deactivate, demote or delete themselves (no lock-out). A new
 * password, a deactivation and a reactivation end every session of the member (a new credential version, DESIGN
 * §12); the other sessions of staff actions: endSessions.ts, signOutEverywhere.ts.
 */
import type { Clock } from '../clock';
import type { Db } from '../db/client';
import { isConditionFailure } from '../db/conditions';
import { transact } from '../db/transact';
import { commonErrors } from '../errors';
import { fieldChanges, type HistoryAction, historyItems } from '../history';
import { auditStaffAction } from '../log';
import { adminErrors } from './errors';
import { hashPassword, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './passwords';
import { STAFF_PERMISSIONS, type StaffPermission } from './permissions';
import {
  allStaff,
  newCredentialVersion,
  newStaffItem,
  RENAMED_PERMISSIONS,
  readStaff,
  type Staff,
  type StaffItem,
  staffRemoval,
  staffReplacement,
} from './staff.entity';

const USERNAME_PATTERN = /^[a-z0-9_.@-]{3,64}$/;

/** A username as typed: trimmed, lower case. */
export const normalizeUsername = (username: string): string => username.trim().toLowerCase();

/** The public part of a staff record (never the hash). */
export const publicStaff = ({ username, isSuperuser, permissions, active, createdAt, updatedAt }: Staff): Staff => ({
  username,
  isSuperuser,
  permissions,
  active,
  createdAt,
  ...(updatedAt === undefined ? {} : { updatedAt }),
});

/**
 * The history entry items of `action` on staff member `target` by `actor` at `at` (DESIGN §9): the public fields
 * before and after, the password only as `"changed"` (never its hash), the credential version never.
 */
export function staffHistory(
  db: Db,
  entry: { actor: string; action: HistoryAction; at: number; target: string },
  before: StaffItem | undefined,
  after: StaffItem | undefined,
) {
  const fields = (s: StaffItem | undefined) => (s ? { ...publicStaff(s), password: s.passwordHash } : undefined);
  return historyItems(db, {
    at: entry.at,
    staff: entry.actor,
    action: entry.action,
    model: 'staff',
    objectId: entry.target,
    objectRepr: entry.target,
    changes: fieldChanges(fields(before), fields(after), { secret: ['password'], omit: ['updatedAt'] }),
  });
}

export function checkPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH || password.length > MAX_PASSWORD_LENGTH) {
    throw commonErrors.validation(`password must be at least ${MIN_PASSWORD_LENGTH} characters`, {
      password: [`at least ${MIN_PASSWORD_LENGTH} characters (at most ${MAX_PASSWORD_LENGTH})`],
    });
  }
}

function checkPermissions(given: readonly string[]): StaffPermission[] {
  const permissions = given.map((p) => RENAMED_PERMISSIONS[p] ?? p);
  const unknown = permissions.filter((p) => !(STAFF_PERMISSIONS as readonly string[]).includes(p));
  if (unknown.length)
    throw commonErrors.validation(`unknown permissions: ${unknown.join(', ')}`, { permissions: unknown.map((p) => `unknown: ${p}`) });
  return [...new Set(permissions as StaffPermission[])];
}

export interface NewStaff {
  username: string;
  password: string;
  isSuperuser: boolean;
  /** Grantable permissions; issue 4's `orders.view` / `orders.change` are taken as `view_order` / `change_order`. */
  permissions?: readonly string[];
  active?: boolean;
}

/**
 * Creates a staff member, created now by `clock`; `actor` is the superuser doing it (none for createsuperuser).
 * Errors: `validation_error` (username not 3-64 of a-z 0-9 _ . @ -, password shorter than
 * {@link MIN_PASSWORD_LENGTH}, unknown permission), `username_taken` (409).
 */
export async function createStaff(db: Db, clock: Clock, input: NewStaff, actor?: string): Promise<Staff> {
  const username = normalizeUsername(input.username);
  if (!USERNAME_PATTERN.test(username)) {
    throw commonErrors.validation('username must be 3-64 of a-z 0-9 _ . @ -', { username: ['3-64 of a-z 0-9 _ . @ -'] });
  }
  checkPassword(input.password);
  const permissions = checkPermissions(input.permissions ?? []);
  const staff: Staff = { username, isSuperuser: input.isSuperuser, permissions, active: input.active ?? true, createdAt: clock.now() };
  // A fresh credential version: sessions of an earlier account of the same name never count for this one.
  const item: StaffItem = { ...staff, passwordHash: await hashPassword(input.password), credentialVersion: newCredentialVersion() };
  const by = actor ?? 'createsuperuser';
  try {
    await transact(db, [
      newStaffItem(db, item),
      ...staffHistory(db, { actor: by, action: 'add', at: staff.createdAt, target: username }, undefined, item),
    ]);
  } catch (error) {
    if (isConditionFailure(error)) throw adminErrors.usernameTaken(username);
    throw error;
  }
  auditStaffAction(by, 'add', 'staff', username);
  return staff;
}

async function existing(db: Db, username: string): Promise<StaffItem> {
  const found = await readStaff(db, normalizeUsername(username));
  if (!found) throw adminErrors.staffNotFound();
  return found;
}

/** Every staff member, by username. */
export const listStaff = async (db: Db): Promise<Staff[]> => (await allStaff(db)).map(publicStaff);

/** Staff member `username`. Errors: `not_found`. */
export const getStaff = async (db: Db, username: string): Promise<Staff> => publicStaff(await existing(db, username));

export interface StaffChanges {
  password?: string;
  isSuperuser?: boolean;
  permissions?: StaffPermission[];
  active?: boolean;
}

/**
 * Changes staff member `username` on behalf of superuser `actor`; takes effect on their next request (sessions
 * re-read the account). A new password or a change of `active` gives the member a new credential version, which
 * ends all their sessions (the actor's own too, when they change their own password: the edge then starts the
 * actor a new one). Errors: `not_found`, `validation_error` (short password, unknown permission, the actor
 * deactivating or demoting themselves), `database_busy` when the account changed meanwhile.
 */
export async function updateStaff(db: Db, clock: Clock, username: string, changes: StaffChanges, actor: string): Promise<Staff> {
  const current = await existing(db, username);
  if (current.username === actor && (changes.active === false || changes.isSuperuser === false)) {
    throw adminErrors.ownAccount(changes.active === false ? 'deactivate' : 'demote');
  }
  if (changes.password !== undefined) checkPassword(changes.password);
  const next: StaffItem = {
    ...current,
    ...(changes.isSuperuser === undefined ? {} : { isSuperuser: changes.isSuperuser }),
    ...(changes.permissions === undefined ? {} : { permissions: checkPermissions(changes.permissions) }),
    ...(changes.active === undefined ? {} : { active: changes.active }),
    ...(changes.password === undefined ? {} : { passwordHash: await hashPassword(changes.password) }),
    ...(changes.password !== undefined || (changes.active !== undefined && changes.active !== current.active)
      ? { credentialVersion: newCredentialVersion() }
      : {}),
    updatedAt: clock.now(),
  };
  try {
    await transact(db, [
      staffReplacement(db, next, current),
      ...staffHistory(db, { actor, action: 'change', at: next.updatedAt ?? clock.now(), target: current.username }, current, next),
    ]);
  } catch (error) {
    if (isConditionFailure(error)) throw commonErrors.databaseBusy(1);
    throw error;
  }
  auditStaffAction(actor, 'change', 'staff', current.username);
  return publicStaff(next);
}

/**
 * Deletes staff member `username` on behalf of superuser `actor` at `clock`'s now; their sessions end with it. Errors:
 * `not_found`, `validation_error` (oneself).
 */
export async function deleteStaff(db: Db, clock: Clock, username: string, actor: string): Promise<void> {
  const name = normalizeUsername(username);
  if (name === actor) throw adminErrors.ownAccount('delete');
  const current = await existing(db, name);
  try {
    await transact(db, [
      staffRemoval(db, name),
      ...staffHistory(db, { actor, action: 'delete', at: clock.now(), target: name }, current, undefined),
    ]);
  } catch (error) {
    if (isConditionFailure(error)) throw adminErrors.staffNotFound();
    throw error;
  }
  auditStaffAction(actor, 'delete', 'staff', name);
}
