/** Staff (admin) accounts and sessions (spec Authentication 6): scrypt passwords, cookie sessions, permissions. */

export {
  ADMIN_COOKIE,
  adminErrors,
  authenticateStaff,
  requirePermission,
  STAFF_SESSION_SECONDS,
  staffLogin,
  staffLogout,
} from './sessions';
export {
  createStaff,
  hashPassword,
  hasPermission,
  MIN_PASSWORD_LENGTH,
  normalizeUsername,
  STAFF_PERMISSIONS,
  type Staff,
  type StaffPermission,
  verifyPassword,
} from './staff';
