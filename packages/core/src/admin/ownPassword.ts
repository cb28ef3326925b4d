/**
 * Changing one's own password (issue 25 §5; Django admin's "Change password"): any staff member, with their current
 * password (a session left open on a shared computer is not enough), a new one of at least MIN_PASSWORD_LENGTH (10)
 * characters that differs from it. The change gives the member a new credential version (DESIGN §12): every other
 * session of theirs ends; the edge starts this browser a new one. One history entry (`password: "changed"`) in the
 * same transaction.
 */
import { isConditionFailure } from '../db/conditions';
import { transact } from '../db/transact';
import type { Deps } from '../deps';
import { commonErrors } from '../errors';
import { auditStaffAction } from '../log';
import { adminErrors } from './errors';
import { hashPassword, verifyPassword } from './passwords';
import { checkPassword, staffHistory } from './staff';
import { newCredentialVersion, readStaff, type StaffItem, staffReplacement } from './staff.entity';

/**
 * Changes signed-in `username`'s password from `oldPassword` to `newPassword`. Errors: `validation_error` (field
 * `oldPassword`: not the current one; `newPassword`: too short or the same), `not_authenticated` (the account is gone
 * or inactive), `database_busy` (it changed meanwhile).
 */
export async function changeOwnPassword(
  deps: Pick<Deps, 'db' | 'clock'>,
  username: string,
  oldPassword: string,
  newPassword: string,
): Promise<void> {
  const current = await readStaff(deps.db, username);
  if (!current?.active) throw adminErrors.notAuthenticated();
  if (!(await verifyPassword(oldPassword, current.passwordHash))) {
    throw commonErrors.validation('The current password is not right', { oldPassword: ['not your current password'] });
  }
  checkPassword(newPassword);
  if (newPassword === oldPassword)
    throw commonErrors.validation('The new password is the current one', { newPassword: ['must differ from the current password'] });
  const now = deps.clock.now();
  const next: StaffItem = {
    ...current,
    passwordHash: await hashPassword(newPassword),
    credentialVersion: newCredentialVersion(),
    updatedAt: now,
  };
  try {
    await transact(deps.db, [
      staffReplacement(deps.db, next, current),
      ...staffHistory(deps.db, { actor: username, action: 'change', at: now, target: username }, current, next),
    ]);
  } catch (error) {
    if (isConditionFailure(error)) throw commonErrors.databaseBusy(1);
    throw error;
  }
  auditStaffAction(username, 'change_password', 'staff', username);
}
