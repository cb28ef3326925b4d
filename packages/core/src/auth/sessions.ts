/**
 * Sessions (spec Authentication 1, 10; DESIGN §3): login, refresh, logout and the per-request check.
 *
 * A user has at most one live session, named by `user.sessionId`. Login starts a new one, which revokes
 * every earlier refresh token and access token at once: each authenticated request compares the token's
 * `sid` with the user's current session (one GetItem, which also loads the user for the handler).
 * Refresh tokens are random 256-bit strings stored only as SHA-256 under `SESSION#<hash>` with a TTL of
 * {@link REFRESH_TOKEN_SECONDS}.
 */
import { randomUUID } from 'node:crypto';
import { epochSeconds } from '../clock';
import { isConditionFailure, retryOptimistic } from '../db/conditions';
import { put, remove, transact, update } from '../db/transact';
import type { Deps } from '../deps';
import { countItem } from '../stats';
import { randomToken, sha256Hex } from './crypto';
import { authErrors } from './errors';
import { verifyOtp } from './otp';
import { readSession, type SessionItem, sessionKey } from './session.entity';
import { ACCESS_TOKEN_SECONDS, signAccessToken, verifyAccessToken } from './tokens';
import { getUser, type User, userKey } from './user.entity';
import { findOrCreateUser } from './users';

export const REFRESH_TOKEN_SECONDS = 30 * 24 * 3600;

export interface LoginResult {
  accessToken: string;
  refreshToken: string;
  isNewUser: boolean;
  expiresIn: number;
  user: User;
}

/**
 * Phone + code login. Errors: `otp_invalid` (401). Starting the session replaces the user's earlier one.
 */
export async function login(deps: Deps, phone: string, otp: string): Promise<LoginResult> {
  await verifyOtp(deps, phone, otp);
  const { user, isNew } = await findOrCreateUser(deps, phone);
  const sessionId = randomUUID();
  const refreshToken = randomToken();
  const now = deps.clock.now();
  // The day's sign-in counter (dashboard) is in the same transaction; a conflict on it is retried.
  await retryOptimistic(
    () =>
      transact(deps.db, [
        put(deps.db, {
          ...sessionKey(sha256Hex(refreshToken)),
          userId: user.id,
          sessionId,
          expiresAt: epochSeconds(now) + REFRESH_TOKEN_SECONDS,
        }),
        update(deps.db, userKey(user.id), 'SET sessionId = :sid, lastLoginAt = :at', {
          condition: 'attribute_exists(pk)',
          values: { ':sid': sessionId, ':at': new Date(now).toISOString() },
        }),
        countItem(deps.db, now, { signIns: 1 }),
      ]),
    () => undefined,
  );
  return {
    accessToken: await signAccessToken(deps, user.id, sessionId),
    refreshToken,
    isNewUser: isNew,
    expiresIn: ACCESS_TOKEN_SECONDS,
    user: { ...user, sessionId },
  };
}

async function liveSession(deps: Deps, refreshToken: string): Promise<{ session: SessionItem; user: User }> {
  const item = await readSession(deps.db, sha256Hex(refreshToken));
  if (!item || item.expiresAt * 1000 <= deps.clock.now()) throw authErrors.tokenInvalid('The refresh token is invalid or has expired');
  const user = await getUser(deps.db, item.userId);
  if (!user || user.sessionId !== item.sessionId) throw authErrors.tokenInvalid('The session has ended; sign in again');
  return { session: item, user };
}

/** A new access token for a live refresh token. Errors: `token_invalid` (401). */
export async function refresh(deps: Deps, refreshToken: string): Promise<{ accessToken: string; expiresIn: number }> {
  const { session, user } = await liveSession(deps, refreshToken);
  return { accessToken: await signAccessToken(deps, user.id, session.sessionId), expiresIn: ACCESS_TOKEN_SECONDS };
}

/** Ends the session of `refreshToken`, which also invalidates its access tokens. Errors: `token_invalid` (401). */
export async function logout(deps: Deps, refreshToken: string): Promise<void> {
  const { session, user } = await liveSession(deps, refreshToken);
  try {
    await transact(deps.db, [
      remove(deps.db, sessionKey(sha256Hex(refreshToken))),
      update(deps.db, userKey(user.id), 'REMOVE sessionId', {
        condition: 'sessionId = :sid',
        values: { ':sid': session.sessionId },
      }),
    ]);
  } catch (error) {
    if (isConditionFailure(error)) throw authErrors.tokenInvalid('The session has ended; sign in again');
    throw error;
  }
}

/**
 * The signed-in user of an `Authorization` header value. Errors: `not_authenticated` (no Bearer token),
 * `token_invalid` (bad, expired or revoked token).
 */
export async function authenticate(deps: Deps, authorization: string | undefined): Promise<User> {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization?.trim() ?? '');
  if (!match) throw authErrors.notAuthenticated();
  const { userId, sessionId } = await verifyAccessToken(deps, match[1] as string);
  const user = await getUser(deps.db, userId);
  if (!user || user.sessionId !== sessionId) throw authErrors.tokenInvalid('The session has ended; sign in again');
  return user;
}
