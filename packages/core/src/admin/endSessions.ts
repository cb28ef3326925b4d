/**
 * "End sessions" of one staff member (DESIGN §12; issue 22 §2): after a suspected compromise, every session of the
 * member ends at once, wherever it was opened, without changing the password or the account. A new credential
 * version (staff.entity.ts) makes every session made before it refused on its next request; nothing revives them.
 * The member may sign in again. Superusers only (`change_staff`), or the member themselves ("sign out everywhere",
 * signOutEverywhere.ts); one history entry (DESIGN §9) in the same transaction and one audit log line naming the actor.
 */
import type { Clock } from '../clock';
import type { Db } from '../db/client';
import { isConditionFailure } from '../db/conditions';
import { transact } from '../db/transact';
import { commonErrors } from '../errors';
import { historyItems } from '../history';
import { auditStaffAction } from '../log';
import { adminErrors } from './errors';
import { normalizeUsername } from './staff';
import { credentialRenewal } from './staff.entity';

/**
 * Gives staff member `username` (normalized) a new credential version on behalf of `actor`, with its history entry.
 * Returns false when there is no such member.
 */
export async function renewCredentials(db: Db, clock: Clock, username: string, actor: string): Promise<boolean> {
  const at = clock.now();
  try {
    await transact(db, [
      credentialRenewal(db, username, at),
      ...historyItems(db, {
        at,
        staff: actor,
        action: 'end_sessions',
        model: 'staff',
        objectId: username,
        objectRepr: username,
        changes: {},
      }),
    ]);
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Ends every session of staff member `username` on behalf of `actor` (a username). Errors: `not_found`. */
export async function endStaffSessions(db: Db, clock: Clock, username: string, actor: string): Promise<void> {
  const name = normalizeUsername(username);
  if (!(await renewCredentials(db, clock, name, actor))) throw adminErrors.staffNotFound();
  auditStaffAction(actor, 'end_sessions', 'staff', name);
}

/**
 * One row of the staff list's bulk "end sessions" (DESIGN §9 bulk actions): as {@link endStaffSessions}, except that
 * the actor's own row is refused (`validation_error`), since ending one's own sessions from a list would sign the
 * actor out before the other rows' results are read; "sign out everywhere" (signOutEverywhere.ts) does that and
 * clears the cookie. Errors: `not_found`, `validation_error`. Always a change (a new credential version).
 */
export async function endStaffSessionsOfRow(db: Db, clock: Clock, username: string, actor: string): Promise<{ changed: true }> {
  if (normalizeUsername(username) === actor) {
    throw commonErrors.validation('Your own sessions end with "sign out everywhere" (POST /api/admin/me/end-sessions), not from the list', {
      ids: ['your own account'],
    });
  }
  await endStaffSessions(db, clock, username, actor);
  return { changed: true };
}
