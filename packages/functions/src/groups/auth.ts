/**
 * Endpoint group `auth`: phone sign-in and sessions (spec Authentication; DESIGN §3).
 * Login answers `{ accessToken, refreshToken, isNewUser, expiresIn, user: { id, publicId } }`; refresh
 * `{ accessToken, refreshToken, expiresIn }`, the refresh token rotating (the one sent is spent; sending a spent one
 * again ends the sign-in: DESIGN §12); logout 204.
 */
import { lazySchema } from '@mathisland/core';
import { login, logout, OTP_TTL_SECONDS, refresh, requestOtp } from '@mathisland/core/auth';
import * as z from 'zod';
import { authRoutes } from '../../../../infra/routes/auth';
import { defineGroup } from '../lib/group';
import { HttpResponse } from '../lib/http';
import { json, noContent } from '../lib/responses';
import { type RouteInput, route } from '../lib/route';
import { Id, responseShape } from '../lib/shapes';

/** The phone exactly as sent (no normalization, spec "User"): optional `+` and 7 to 15 ASCII digits. */
const phone = z.string().regex(/^\+?[0-9]{7,15}$/, 'phone must be 7 to 15 ASCII digits, optionally starting with +');
const refreshToken = z.string().min(16).max(200);

const OtpRequest = lazySchema(() => z.strictObject({ phone }));
const Login = lazySchema(() => z.strictObject({ phone, otp: z.string().regex(/^[0-9]{4,8}$/, 'otp must be the digits of the code') }));
const RefreshBody = lazySchema(() => z.strictObject({ refreshToken }));

const Sent = responseShape(() => z.object({ sent: z.literal(true) }));
const Tokens = responseShape(() =>
  z
    .object({
      accessToken: z.string().meta({ description: 'Send as `Authorization: Bearer <accessToken>`' }),
      refreshToken: z.string().meta({ description: 'Keep it; exchange it at POST /api/auth/refresh' }),
      isNewUser: z.boolean(),
      expiresIn: z.number().int().positive().meta({ description: 'Seconds the access token lives (3600)' }),
      user: z.object({ id: Id, publicId: z.string() }),
    })
    .meta({ id: 'Tokens' }),
);
const Refreshed = responseShape(() =>
  z
    .object({
      accessToken: z.string().meta({ description: 'Send as `Authorization: Bearer <accessToken>`' }),
      refreshToken: z.string().meta({
        description: 'Replaces the one sent, which is now spent: keep this one. Sending a spent one again ends the whole sign-in.',
      }),
      expiresIn: z.number().int().positive().meta({ description: 'Seconds the access token lives (3600)' }),
    })
    .meta({ id: 'Refreshed' }),
);
const PHONE = '09121234567';

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

export const { handler, createHandler, routes } = defineGroup(authRoutes, {
  'POST /api/auth/otp/request': route.public({
    body: OtpRequest,
    bodyExamples: { signIn: { summary: 'Sign-in, step 1', value: { phone: PHONE } } },
    description: `The code (6 digits, valid ${OTP_TTL_SECONDS / 60} minutes) goes by SMS; the API never returns it. One code per phone per 60 s.`,
    responses: { 200: json(Sent, 'The code was sent', { examples: { signIn: { summary: 'Sent', value: { sent: true } } } }) },
    errors: {
      throttled: 'A code was sent to this phone under 60 s ago, or over the `otp_request` scope; `Retry-After` says when.',
      sms_unavailable: 'The SMS provider is unset, unreachable or refused; `Retry-After` says when to try again.',
    },
    run: sendCode,
  }),
  'POST /api/auth/login': route.public({
    body: Login,
    bodyExamples: { signIn: { summary: 'Sign-in, step 2', value: { phone: PHONE, otp: '123456' } } },
    description: 'A phone seen for the first time becomes a new learner (`isNewUser: true`).',
    responses: {
      200: json(Tokens, 'Signed in', {
        examples: {
          signIn: {
            summary: 'Signed in',
            value: {
              accessToken: 'eyJhbGciOi…',
              refreshToken: 'r1_…',
              isNewUser: true,
              expiresIn: 3600,
              user: { id: 12, publicId: 'User482913' },
            },
          },
        },
      }),
    },
    errors: { otp_invalid: 'The code is wrong, expired or used, or too many wrong guesses killed it (ask for a new one).' },
    run: signIn,
  }),
  'POST /api/auth/refresh': route.public({
    body: RefreshBody,
    responses: { 200: json(Refreshed, 'A new access token and the refresh token that replaces the one sent') },
    errors: {
      token_invalid:
        'The refresh token is unknown or expired, its sign-in ended, or it was already spent (a reuse: the whole sign-in ends, sign in again).',
    },
    run: refreshAccess,
  }),
  'POST /api/auth/logout': route.public({
    body: RefreshBody,
    responses: { 204: noContent('The session ended') },
    errors: { token_invalid: 'The refresh token is unknown, expired, already spent by a refresh, or its sign-in ended.' },
    run: signOut,
  }),
});
