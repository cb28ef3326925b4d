/**
 * The admin session cookie (DESIGN §9; docs/admin-api.md "Session and conventions"): HttpOnly, SameSite=Strict,
 * `Path=/api` (the API docs see it too), `Secure` when the service is served over https (PUBLIC_BASE_URL).
 */
import type { Deps } from '@mathisland/core';
import { ADMIN_COOKIE } from '@mathisland/core/admin';
import * as z from 'zod';

/** The Set-Cookie value of session token `value` for `maxAgeSeconds` (0 and an empty value clear it). */
export function sessionCookie(deps: Deps, value: string, maxAgeSeconds: number): string {
  const secure = deps.settings.publicBaseUrl?.startsWith('https:') ? '; Secure' : '';
  return `${ADMIN_COOKIE}=${value}; Path=/api; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${secure}`;
}

/** The documented `Set-Cookie` header of an answer that sets the session cookie. */
export const sessionCookieHeader = {
  'Set-Cookie': { schema: z.string(), description: 'The admin session cookie (HttpOnly; SameSite=Strict; Path=/api; Max-Age=43200)' },
};
