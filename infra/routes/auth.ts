/** The routes of endpoint group `auth` (`packages/functions/src/groups/auth.ts`). */
import type { RouteSpec } from './types';

export const authRoutes: readonly RouteSpec[] = [
  {
    method: 'POST',
    path: '/api/auth/otp/request',
    group: 'auth',
    auth: 'none',
    throttle: 'otp_request',
    summary: 'Send a 6-digit sign-in code by SMS.',
  },
  {
    method: 'POST',
    path: '/api/auth/login',
    group: 'auth',
    auth: 'none',
    throttle: 'login',
    summary: 'Exchange phone + code for an accessToken and refreshToken.',
  },
  {
    method: 'POST',
    path: '/api/auth/refresh',
    group: 'auth',
    auth: 'none',
    throttle: 'token_refresh',
    summary: 'New accessToken from a refreshToken.',
  },
  {
    method: 'POST',
    path: '/api/auth/logout',
    group: 'auth',
    auth: 'none',
    throttle: 'logout',
    summary: 'End the session of a refreshToken.',
  },
];
