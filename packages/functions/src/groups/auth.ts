/**
 * Endpoint group `auth`: phone sign-in and sessions (spec Authentication; DESIGN §3).
 * Login answers `{ accessToken, refreshToken, isNewUser, expiresIn }`; refresh `{ accessToken, expiresIn }`;
 * logout 204.
 */
import { login, logout, refresh, requestOtp } from '@mathisland/core/auth/index';
import { z } from 'zod';
import { defineGroup, route } from '../lib/group';
import { HttpResponse } from '../lib/types';

/** The phone exactly as sent (no normalization, spec "User"): optional `+` and 7 to 15 ASCII digits. */
const phone = z.string().regex(/^\+?[0-9]{7,15}$/, 'phone must be 7 to 15 ASCII digits, optionally starting with +');
const refreshToken = z.string().min(16).max(200);

export const { handler, routes } = defineGroup('auth', {
  'POST /api/auth/otp/request': route({
    body: z.strictObject({ phone }),
    async run({ body, deps }) {
      await requestOtp(deps, body.phone);
      return { sent: true };
    },
  }),
  'POST /api/auth/login': route({
    body: z.strictObject({ phone, otp: z.string().regex(/^[0-9]{4,8}$/, 'otp must be the digits of the code') }),
    async run({ body, deps }) {
      const result = await login(deps, body.phone, body.otp);
      return {
        accessToken: result.accessToken,
        refreshToken: result.refreshToken,
        isNewUser: result.isNewUser,
        expiresIn: result.expiresIn,
        user: { id: result.user.id, publicId: result.user.publicId },
      };
    },
  }),
  'POST /api/auth/refresh': route({
    body: z.strictObject({ refreshToken }),
    run: ({ body, deps }) => refresh(deps, body.refreshToken),
  }),
  'POST /api/auth/logout': route({
    body: z.strictObject({ refreshToken }),
    async run({ body, deps }) {
      await logout(deps, body.refreshToken);
      return new HttpResponse(204);
    },
  }),
});
