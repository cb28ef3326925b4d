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
import { historyItems } from '../history';
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
 * Ends learner `userId`'s sign-in `sessionId` on behalf of staff member `actor`, with its history entry (model `user`,
 * action `end_sessions`: the learner's page shows it) in the same transaction. Returns false when that session is not
 * the learner's live one (ended, replaced by a newer sign-in, or no such learner).
 */
async function endSignIn(deps: Deps, userId: number, sessionId: string, publicId: string, actor: string): Promise<boolean> {
  try {
    await transact(deps.db, [
      updateUser(deps.db, userId, { remove: ['sessionId'] }, userCondition.is({ sessionId })),
      directorySession(deps.db, userId, undefined),
      ...historyItems(deps.db, {
        at: deps.clock.now(),
        staff: actor,
        action: 'end_sessions',
        model: 'user',
        objectId: userId,
        objectRepr: publicId,
        changes: { session: 'changed' },
      }),
    ]);
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
  auditStaffAction(actor, 'end_sessions', 'user', userId);
  return true;
}

/**
 * Revokes session `id` on behalf of superuser `actor`. Errors: `not_found` (malformed, unknown, or no longer
 * the learner's live session).
 */
export async function revokeLearnerSession(deps: Deps, id: string, actor: string): Promise<void> {
  const match = SESSION_ID.exec(id);
  const user = match ? await getUser(deps.db, Number(match[1])) : undefined;
  if (!match || !user || !(await endSignIn(deps, user.id, match[2] as string, user.publicId, actor)))
    throw commonErrors.notFound('Session');
}

/**
 * Ends learner `userId`'s sign-in, whatever it is (a bulk action on learners), on behalf of `actor`: their refresh
 * token and every access token stop working. `changed` false when they had none live. Errors: `not_found` (no
 * such learner), `database_busy` (a new sign-in kept replacing it).
 */
export async function endLearnerSessions(deps: Deps, userId: number, actor: string): Promise<{ changed: boolean }> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const user = await getUser(deps.db, userId);
    if (!user) throw commonErrors.notFound('User');
    if (!user.sessionId) return { changed: false };
    if (await endSignIn(deps, userId, user.sessionId, user.publicId, actor)) return { changed: true };
  }
  throw commonErrors.databaseBusy(1);
}
