/**
 * Staff (admin) accounts, sessions and permissions (spec Authentication 6; DESIGN §9): Argon2id passwords,
 * cookie sessions, Django-style permissions. The front: what the admin groups and the request pipeline
 * (authenticate middleware, route types), `scripts/createsuperuser.ts` and the tests use.
 */

export { endStaffSessions, endStaffSessionsOfRow } from './endSessions';
export { adminErrors } from './errors';
export { requireHistoryAccess } from './historyAccess';
export { changeOwnPassword } from './ownPassword';
export { MIN_PASSWORD_LENGTH } from './passwords';
export {
  ALL_PERMISSIONS,
  hasPermission,
  type Permission,
  type PermissionHolder,
  STAFF_PERMISSIONS,
  StaffPermission,
  SUPERUSER_PERMISSIONS,
} from './permissions';
export {
  ADMIN_COOKIE,
  authenticateStaff,
  continueStaffSession,
  requirePermission,
  STAFF_SESSION_SECONDS,
  type StaffSessionStart,
  staffIdentity,
  staffLogin,
  staffLogout,
} from './sessions';
export { FREE_FAILURES, MAX_DELAY_SECONDS, PAIR_FAILURE_LIMIT, SIGN_IN_WINDOW_SECONDS } from './signInGuard';
export { signOutEverywhere } from './signOutEverywhere';
export { createStaff, deleteStaff, getStaff, listStaff, type NewStaff, normalizeUsername, type StaffChanges, updateStaff } from './staff';
export type { Staff } from './staff.entity';
