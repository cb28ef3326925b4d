/** Error codes of the staff sign-in, permissions and accounts (spec Authentication 6; DESIGN §3, §9). */
import { commonErrors, DomainError } from '../errors';
import { countEvent, extraThrottleScopes } from '../metrics';
import { type Permission, SUPERUSER_PERMISSIONS } from './permissions';

export const adminErrors = {
  /** 401: no session cookie, or an expired, ended or forged one, or an inactive staff member. */
  notAuthenticated: () => new DomainError('not_authenticated', 'Sign in to the admin first (POST /api/admin/login)'),
  /** 401: one message for a wrong username, a wrong password and an inactive account. */
  loginFailed: () => new DomainError('not_authenticated', 'Wrong username or password'),
  /**
   * 429 with Retry-After (seconds): too many failed sign-ins of this username (from this address; signInGuard.ts).
   * Counted as `Throttled`, scope `staff_sign_in`.
   */
  signInHeldOff: (retryAfter: number) => {
    countEvent('Throttled', { scope: extraThrottleScopes.staffSignIn });
    return new DomainError('throttled', 'Too many failed sign-ins for this username; try again later', { retryAfter });
  },
  /** 403, naming the permission. */
  permissionDenied: (permission: Permission) =>
    new DomainError(
      'permission_denied',
      (SUPERUSER_PERMISSIONS as readonly string[]).includes(permission)
        ? `This action needs the ${permission} permission, which only superusers hold`
        : `This action needs the ${permission} permission`,
    ),
  /** 403: an unsafe method from another origin than PUBLIC_BASE_URL's. */
  crossOrigin: () => new DomainError('permission_denied', 'cross-origin request refused'),
  staffNotFound: () => commonErrors.notFound('Staff member'),
  /** 409: the username is taken. */
  usernameTaken: (username: string) =>
    new DomainError('username_taken', `username ${username} is taken`, { fields: { username: ['taken'] } }),
  /** 400: a superuser may not lock themselves out (deactivate, demote or delete their own account). */
  ownAccount: (what: string) => commonErrors.validation(`You cannot ${what} your own account`, { _: [`cannot ${what} your own account`] }),
};
