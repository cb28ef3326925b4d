/**
 * "End sessions" of one staff member (DESIGN §12; issue 22 §2): after a suspected compromise, every session of the
 * member ends at once, wherever it was opened, without changing the password or the account. A new credential
 * version (staff.entity.ts) makes every session made before it refused on its next request; nothing revives them.
 * The member may sign in again. Superusers only (`change_staff`); one audit log line naming the actor.
 */
import type { Clock } from '../clock';
import type { Db } from '../db/client';
import { auditStaffAction } from '../log';
import { adminErrors } from './errors';
import { normalizeUsername } from './staff';
import { renewCredentialVersion } from './staff.entity';

/** Ends every session of staff member `username` on behalf of `actor` (a username). Errors: `not_found`. */
export async function endStaffSessions(db: Db, clock: Clock, username: string, actor: string): Promise<void> {
  const name = normalizeUsername(username);
  if (!(await renewCredentialVersion(db, name, clock.now()))) throw adminErrors.staffNotFound();
  auditStaffAction(actor, 'end_sessions', 'staff', name);
}
