/**
 * Refresh-token rotation with reuse detection (DESIGN §3, §12; OWASP "refresh token rotation"): every refresh
 * spends the refresh token it was given and answers a new one of the same sign-in (family) with a new access token.
 * A spent token presented again (a stolen copy used after its owner, or the owner using one the thief already
 * used) ends the whole family at once: the user's `sessionId` is removed, so every refresh token and access token
 * of that sign-in is refused, and the event is logged as a security event (the user id, never a token or its hash).
 *
 * Storage (session.entity.ts): the spent token's item is kept, marked `rotatedAt`, until the family's expiry (the
 * login's 30 days: rotation does not extend them). One refresh is one GetItem (the token) and one transaction: mark
 * the old token spent while it is not (so two refreshes with one token cannot both win), store the new one, and
 * check the family is still the user's live session.
 */
import { cancellationReasons, retryOptimistic } from '../db/conditions';
import { check, put, remove, transact, update } from '../db/transact';
import type { Deps } from '../deps';
import { logger } from '../log';
import { randomToken, sha256Hex } from './crypto';
import { directorySession } from './directory.entity';
import { authErrors } from './errors';
import { readSession, type SessionItem, sessionKey } from './session.entity';
import { ACCESS_TOKEN_SECONDS, signAccessToken } from './tokens';
import { updateUser, userCondition, userKey } from './user.entity';

/** What a refresh answers: a new access token and the refresh token that replaces the one sent. */
export interface RefreshResult {
  accessToken: string;
  refreshToken: string;
  /** Seconds the access token is valid. */
  expiresIn: number;
}

const invalidToken = () => authErrors.tokenInvalid('The refresh token is invalid or has expired');
const sessionEnded = () => authErrors.tokenInvalid('The session has ended; sign in again');

/** The stored item of `refreshToken` while it has not expired. Errors: `token_invalid`. */
async function tokenItem(deps: Deps, refreshToken: string): Promise<SessionItem> {
  const item = await readSession(deps.db, sha256Hex(refreshToken));
  if (!item || item.expiresAt * 1000 <= deps.clock.now()) throw invalidToken();
  return item;
}

/**
 * A spent refresh token was presented again: ends its family (the user's live session, while it is that one) and
 * logs the security event. Always raises `token_invalid`.
 */
async function reused(deps: Deps, item: SessionItem, via: 'refresh' | 'logout'): Promise<never> {
  let familyEnded = true;
  try {
    await transact(deps.db, [
      updateUser(deps.db, item.userId, { remove: ['sessionId'] }, userCondition.is({ sessionId: item.sessionId })),
      directorySession(deps.db, item.userId, undefined),
    ]);
  } catch (error) {
    if (cancellationReasons(error)[0] !== 'ConditionalCheckFailed') throw error;
    familyEnded = false; // already ended (a newer sign-in, a logout, an earlier reuse)
  }
  logger.warn('security event: refresh token reuse', {
    event: 'refresh_token_reuse',
    userId: item.userId,
    via,
    familyEnded,
    rotatedSecondsAgo: Math.round((deps.clock.now() - (item.rotatedAt ?? deps.clock.now())) / 1000),
  });
  throw sessionEnded();
}

/**
 * `POST /api/auth/refresh`: spends `refreshToken` and answers a new access token and a new refresh token of the
 * same sign-in (expiring with it). Errors: `token_invalid` (401) for an unknown or expired token, a sign-in that
 * ended (a newer login, a logout, a revocation), and a spent token, whose whole family then ends.
 */
export async function refresh(deps: Deps, refreshToken: string): Promise<RefreshResult> {
  const next = randomToken();
  // A transaction that lost to another one on the same items (TransactionConflict) reads the token again.
  const item = await retryOptimistic(
    async () => {
      const current = await tokenItem(deps, refreshToken);
      if (current.rotatedAt !== undefined) return reused(deps, current, 'refresh');
      await transact(deps.db, [
        update(deps.db, sessionKey(sha256Hex(refreshToken)), 'SET rotatedAt = :now', {
          condition: 'attribute_exists(pk) AND attribute_not_exists(rotatedAt)',
          values: { ':now': deps.clock.now() },
        }),
        put(deps.db, {
          ...sessionKey(sha256Hex(next)),
          userId: current.userId,
          sessionId: current.sessionId,
          expiresAt: current.expiresAt,
        }),
        check(deps.db, userKey(current.userId), { condition: 'sessionId = :sid', values: { ':sid': current.sessionId } }),
      ]);
      return current;
    },
    (error) => {
      const [token, , user] = cancellationReasons(error);
      // Another refresh spent the token first (read again: it is marked now), or the sign-in ended meanwhile.
      if (token === 'ConditionalCheckFailed') return undefined;
      if (user === 'ConditionalCheckFailed') throw sessionEnded();
      return undefined;
    },
  );
  return {
    accessToken: await signAccessToken(deps, item.userId, item.sessionId),
    refreshToken: next,
    expiresIn: ACCESS_TOKEN_SECONDS,
  };
}

/**
 * `POST /api/auth/logout`: ends the sign-in of `refreshToken`, which also invalidates its access tokens and every
 * other refresh token of it. Errors: `token_invalid` (401) for an unknown, expired or ended one; a spent token is a
 * reuse (the family ends, the event is logged) and answers it too.
 */
export async function logout(deps: Deps, refreshToken: string): Promise<void> {
  await retryOptimistic(
    async () => {
      const item = await tokenItem(deps, refreshToken);
      if (item.rotatedAt !== undefined) return reused(deps, item, 'logout');
      await transact(deps.db, [
        remove(deps.db, sessionKey(sha256Hex(refreshToken)), { condition: 'attribute_not_exists(rotatedAt)' }),
        updateUser(deps.db, item.userId, { remove: ['sessionId'] }, userCondition.is({ sessionId: item.sessionId })),
        directorySession(deps.db, item.userId, undefined),
      ]);
    },
    (error) => {
      const [token, user] = cancellationReasons(error);
      if (token === 'ConditionalCheckFailed') return undefined; // spent meanwhile: read again, a reuse
      if (user === 'ConditionalCheckFailed') throw sessionEnded();
      return undefined;
    },
  );
}
