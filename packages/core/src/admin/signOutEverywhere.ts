/**
 * "Sign out everywhere" (DESIGN §12; issue 22 §2): a staff member ends every one of their own sessions, this one
 * included (another browser left signed in, a lost laptop). A new credential version (staff.entity.ts) refuses every
 * session made before it; the edge also clears this browser's cookie. One history entry, one audit log line.
 */
import type { Clock } from '../clock';
import type { Db } from '../db/client';
import { auditStaffAction } from '../log';
import { renewCredentials } from './endSessions';
import { adminErrors } from './errors';

/** Ends every session of the signed-in `username`. Errors: `not_authenticated` when the account is gone meanwhile. */
export async function signOutEverywhere(db: Db, clock: Clock, username: string): Promise<void> {
  if (!(await renewCredentials(db, clock, username, username))) throw adminErrors.notAuthenticated();
  auditStaffAction(username, 'sign_out_everywhere', 'staff', username);
}
