/**
 * Sessions (spec Authentication 1, 10; DESIGN §3): login and the per-request check (refresh and logout, with the
 * refresh token's rotation: refresh.ts).
 *
 * A user has at most one live session, named by `user.sessionId`. Login starts a new one, which revokes
 * every earlier refresh token and access token at once: each authenticated request compares the token's
 * `sid` with the user's current session (one GetItem, which also loads the user for the handler; for a route
 * throttled per learner, one UpdateItem that also counts the hit, {@link authenticate}).
 * Refresh tokens are random 256-bit strings stored only as SHA-256 under `SESSION#<hash>` with a TTL of
 * {@link REFRESH_TOKEN_SECONDS} from the login (every token of the sign-in expires then; refresh.ts rotates them).
 */

import { randomUUID } from 'node:crypto';
import { epochSeconds } from '../clock';
import { cancellationReasons, retryOptimistic, tooManyConflicts } from '../db/conditions';
import { parseItem } from '../db/items';
import { put, type TxItem, transact } from '../db/transact';
import type { Deps } from '../deps';
import { countItem } from '../stats';
import { hitOnItem, type ThrottleRule } from '../throttle';
import { randomToken, sha256Hex } from './crypto';
import { directorySession } from './directory.entity';
import { authErrors } from './errors';
import { checkOtp, codeAlreadyUsed } from './otp';
import { sessionKey } from './session.entity';
import { ACCESS_TOKEN_SECONDS, signAccessToken, verifyAccessToken } from './tokens';
import { getUser, type User, UserItem, updateUser, userKey } from './user.entity';
import { type Account, accountOfPhone, createUser } from './users';

export const REFRESH_TOKEN_SECONDS = 30 * 24 * 3600;

export interface LoginResult {
  accessToken: string;
  refreshToken: string;
  isNewUser: boolean;
  expiresIn: number;
  user: Account;
}

/** A new session's id and refresh token, and the items that start it (with the code's consumption). */
interface NewSession {
  sessionId: string;
  refreshToken: string;
  now: number;
  /** The session item and the code's consumption: what every way of starting the session writes. */
  items(userId: number): TxItem[];
}

/**
 * Starts `session` for the existing user `userId`: one transaction of the session item, the user's sessionId
 * (condition: the user is there), the day's sign-in counter and the code's consumption. Returns false when the
 * user is gone. Errors: `otp_invalid` when another login consumed the code first.
 */
async function startSession(deps: Deps, userId: number, session: NewSession): Promise<boolean> {
  // The day's sign-in counter (dashboard) is in the same transaction; a conflict on it is retried.
  return retryOptimistic(
    async () => {
      await transact(deps.db, [
        updateUser(deps.db, userId, { set: { sessionId: session.sessionId, lastLoginAt: new Date(session.now).toISOString() } }),
        countItem(deps.db, session.now, { signIns: 1 }),
        ...session.items(userId),
        directorySession(deps.db, userId, session.sessionId),
      ]);
      return true;
    },
    (error) => {
      const [user, , , code] = cancellationReasons(error);
      if (code === 'ConditionalCheckFailed') throw codeAlreadyUsed();
      return user === 'ConditionalCheckFailed' ? { result: false } : undefined;
    },
  );
}

/**
 * Phone + code login (spec Authentication 1-4, 10). The code is checked with one try reserved (`checkOtp`); the
 * phone's user is the one the code noted when it was sent, so the login reads neither the phone nor the user:
 * its session (replacing the user's earlier one), the day's sign-in counter and the code's consumption are one
 * transaction, three requests with the throttle (four for a user whose phone item predates the publicId note,
 * and for a new user: the id counter, then one transaction creating the user with its session). Errors:
 * `otp_invalid` (401), also when two logins race with one code (one wins).
 */
export async function login(deps: Deps, phone: string, otp: string): Promise<LoginResult> {
  const { item, consume } = await checkOtp(deps, phone, otp);
  const refreshToken = randomToken();
  const now = deps.clock.now();
  const session: NewSession = {
    sessionId: randomUUID(),
    refreshToken,
    now,
    items: (userId) => [
      put(deps.db, {
        ...sessionKey(sha256Hex(refreshToken)),
        userId,
        sessionId: session.sessionId,
        expiresAt: epochSeconds(now) + REFRESH_TOKEN_SECONDS,
      }),
      consume,
    ],
  };
  const signedIn = async (account: Account, isNew: boolean): Promise<LoginResult> => ({
    accessToken: await signAccessToken(deps, account.id, session.sessionId),
    refreshToken,
    isNewUser: isNew,
    expiresIn: ACCESS_TOKEN_SECONDS,
    user: { id: account.id, publicId: account.publicId },
  });

  let account: Account | undefined;
  if (item.userId !== undefined) {
    const publicId = item.publicId ?? (await getUser(deps.db, item.userId))?.publicId;
    if (publicId) account = { id: item.userId, publicId };
  } else if (!item.noUser) {
    account = await accountOfPhone(deps, phone);
  }
  // At most twice: the noted user was deleted (a new one is created), or a first login for the phone won a race.
  for (let round = 0; round < 2; round++) {
    if (account && (await startSession(deps, account.id, session))) return signedIn(account, false);
    const created = await createUser(deps, phone, {
      fields: { sessionId: session.sessionId, lastLoginAt: new Date(now).toISOString() },
      signIns: 1,
      extra: (user) => session.items(user.id),
      extraRefused: codeAlreadyUsed,
    });
    if (created) return signedIn(created, true);
    account = await accountOfPhone(deps, phone);
  }
  throw tooManyConflicts();
}

/** The throttle hit a request counts on the user item while it loads it (throttle/onItem.ts). */
export interface CountOnUser {
  scope: string;
  rule: ThrottleRule;
}

/**
 * The signed-in user of an `Authorization` header value. With `count`, the request's hit in that per-learner
 * throttle scope is counted on the user item by the same UpdateItem that loads it and checks the session (one
 * DynamoDB request instead of a read and a throttle write; issue 15). Errors: `not_authenticated` (no Bearer
 * token), `token_invalid` (bad, expired or revoked token; nothing counted), `throttled` (429, the scope's window
 * is full).
 */
export async function authenticate(deps: Deps, authorization: string | undefined, count?: CountOnUser): Promise<User> {
  const match = /^Bearer\s+(\S+)$/i.exec(authorization?.trim() ?? '');
  if (!match) throw authErrors.notAuthenticated();
  const { userId, sessionId } = await verifyAccessToken(deps, match[1] as string);
  const user = count
    ? await hitOnItem(deps, userKey(userId), count.scope, count.rule, {
        condition: 'attribute_exists(pk) AND sessionId = :sid',
        values: { ':sid': sessionId },
        holds: (item) => item?.sessionId === sessionId,
      }).then((item) => item && parseItem(UserItem, item))
    : await getUser(deps.db, userId);
  if (!user || user.sessionId !== sessionId) throw authErrors.tokenInvalid('The session has ended; sign in again');
  return user;
}
