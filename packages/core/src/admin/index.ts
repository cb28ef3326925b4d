/**
 * Staff (admin) accounts, sessions and permissions (spec Authentication 6; DESIGN §9): scrypt passwords, cookie
 * sessions. The front: what the admin group and the request pipeline (authenticate middleware, route types),
 * `scripts/createsuperuser.ts` and the tests use.
 */

export { MIN_PASSWORD_LENGTH } from './passwords';
export { ADMIN_COOKIE, authenticateStaff, requirePermission, staffLogin, staffLogout } from './sessions';
export { createStaff } from './staff';
export type { Staff, StaffPermission } from './staff.entity';
