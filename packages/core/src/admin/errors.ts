/** Error codes of the staff sign-in and permissions (spec Authentication 6; DESIGN §3, §9). */
import { DomainError } from '../errors';
import type { StaffPermission } from './staff.entity';

export const adminErrors = {
  /** 401: no session cookie, or an expired, ended or forged one, or an inactive staff member. */
  notAuthenticated: () => new DomainError('not_authenticated', 'Sign in to the admin first (POST /api/admin/login)'),
  /** 401: one message for a wrong username, a wrong password and an inactive account. */
  loginFailed: () => new DomainError('not_authenticated', 'Wrong username or password'),
  /** 403. */
  permissionDenied: (permission: StaffPermission) => new DomainError('permission_denied', `This action needs the ${permission} permission`),
};
