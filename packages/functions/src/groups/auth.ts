/**
 * Endpoint group `auth`: phone sign-in and sessions (spec Authentication; DESIGN §3).
 * Login answers `{ accessToken, refreshToken, isNewUser, expiresIn, user: { id, publicId } }`; refresh
 * `{ accessToken, expiresIn }`; logout 204.
 */
import { login, logout, refresh, requestOtp } from '@mathisland/core/auth';
import * as z from 'zod';
import { defineGroup } from '../lib/group';
import { HttpResponse } from '../lib/http';
import { type RouteInput, route } from '../lib/route';

/** The phone exactly as sent (no normalization, spec "User"): optional `+` and 7 to 15 ASCII digits. */
const phone = z.string().regex(/^\+?[0-9]{7,15}$/, 'phone must be 7 to 15 ASCII digits, optionally starting with +');
const refreshToken = z.string().min(16).max(200);

const OtpRequest = z.strictObject({ phone });
const Login = z.strictObject({ phone, otp: z.string().regex(/^[0-9]{4,8}$/, 'otp must be the digits of the code') });
const RefreshBody = z.strictObject({ refreshToken });

async function sendCode({ body, deps }: RouteInput<z.infer<typeof OtpRequest>, unknown>) {
  await requestOtp(deps, body.phone);
  return { sent: true };
}

async function signIn({ body, deps }: RouteInput<z.infer<typeof Login>, unknown>) {
  const result = await login(deps, body.phone, body.otp);
  return {
    accessToken: result.accessToken,
    refreshToken: result.refreshToken,
    isNewUser: result.isNewUser,
    expiresIn: result.expiresIn,
    user: { id: result.user.id, publicId: result.user.publicId },
  };
}

async function refreshAccess({ body, deps }: RouteInput<z.infer<typeof RefreshBody>, unknown>) {
  return refresh(deps, body.refreshToken);
}

async function signOut({ body, deps }: RouteInput<z.infer<typeof RefreshBody>, unknown>) {
  await logout(deps, body.refreshToken);
  return new HttpResponse(204);
}

export const { handler, createHandler, routes } = defineGroup('auth', {
  'POST /api/auth/otp/request': route.public({ body: OtpRequest, run: sendCode }),
  'POST /api/auth/login': route.public({ body: Login, run: signIn }),
  'POST /api/auth/refresh': route.public({ body: RefreshBody, run: refreshAccess }),
  'POST /api/auth/logout': route.public({ body: RefreshBody, run: signOut }),
});
