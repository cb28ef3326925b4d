/**
 * Learners' refresh sessions for superusers (DESIGN §9 sessions; spec Authentication 1, 10). A learner has at
 * most one live session: the one the user item names (`sessionId`, set with `lastLoginAt` by the login that
 * started it, which also stored its refresh token under `SESSION#<sha256>` with the same 30-day expiry). So a
 * session is read from the user item: the list is the users index (gsi2 `USERS`) filtered on a live session,
 * and revoking is the same conditional write as logout's on the user item (`REMOVE sessionId` while it is that
 * session), which ends its refresh token and every access token at once. The token item itself expires by TTL.
 * Never a token or its hash in a view.
 *
 * A session's `id` is `<userId>-<sessionId>`, so revoking one that was already replaced by a newer sign-in
 * changes nothing (404).
 */
import { isConditionFailure } from '../db/conditions';
import type { Page } from '../db/items';
import { fillPage } from '../db/pages';
import { transact } from '../db/transact';
import type { Deps } from '../deps';
import { commonErrors } from '../errors';
import { auditStaffAction } from '../log';
import { directorySession, usersCursorAfter, usersPage } from './directory.entity';
import { REFRESH_TOKEN_SECONDS } from './sessions';
import { getUser, type User, updateUser, userCondition } from './user.entity';

export interface StaffSessionView {
  id: string;
  userId: number;
  userPublicId: string;
  /** ISO times. */
  createdAt: string;
  expiresAt: string;
}

/** The live session of `user` at `now`, or undefined. */
function sessionOf(user: User, now: number): StaffSessionView | undefined {
  if (!user.sessionId || !user.lastLoginAt) return undefined;
  const started = Date.parse(user.lastLoginAt);
  const expires = started + REFRESH_TOKEN_SECONDS * 1000;
  if (expires <= now) return undefined;
  return {
    id: `${user.id}-${user.sessionId}`,
    userId: user.id,
    userPublicId: user.publicId,
    createdAt: user.lastLoginAt,
    expiresAt: new Date(expires).toISOString(),
  };
}

/**
 * `GET /api/admin/sessions`: live sessions, newest user first, or only `userId`'s. Errors: `validation_error`
 * on `cursor`.
 */
export async function listLearnerSessions(
  deps: Deps,
  query: { userId?: number; limit: number; cursor?: string },
): Promise<Page<StaffSessionView>> {
  const now = deps.clock.now();
  if (query.userId !== undefined) {
    const user = await getUser(deps.db, query.userId);
    const live = user ? sessionOf(user, now) : undefined;
    return { items: live ? [live] : [] };
  }
  const page = await fillPage(
    (limit, cursor) => usersPage(deps.db, { limit, cursor, filter: { condition: 'attribute_exists(sessionId)' } }),
    { ...query, cut: { readSize: 200, cursorOf: usersCursorAfter } },
  );
  return { ...page, items: page.items.flatMap((u) => sessionOf(u, now) ?? []) };
}

const SESSION_ID = /^([0-9]{1,15})-([0-9a-f-]{36})$/;

/**
 * Revokes session `id` on behalf of superuser `actor`. Errors: `not_found` (malformed, unknown, or no longer
 * the learner's live session).
 */
export async function revokeLearnerSession(deps: Deps, id: string, actor: string): Promise<void> {
  const match = SESSION_ID.exec(id);
  if (!match) throw commonErrors.notFound('Session');
  const userId = Number(match[1]);
  try {
    await transact(deps.db, [
      updateUser(deps.db, userId, { remove: ['sessionId'] }, userCondition.is({ sessionId: match[2] })),
      directorySession(deps.db, userId, undefined),
    ]);
  } catch (error) {
    if (isConditionFailure(error)) throw commonErrors.notFound('Session');
    throw error;
  }
  auditStaffAction(actor, 'revoke', 'session', id);
}
