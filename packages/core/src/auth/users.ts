/**
 * Learner accounts (spec "User and profile"): found by the phone exactly as sent (no normalization: two
 * spellings are two users), created on first login with a numeric id from the `user` counter and a unique
 * publicId `User` + 6 digits. Phone and publicId uniqueness are constraint items written in the same
 * transaction as the user, so two first logins racing for one phone create one user.
 */
import { randomInt } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionFailure } from '../db/conditions';
import { nextId } from '../db/counters';
import { keys } from '../db/keys';
import { put, transact } from '../db/transact';
import type { Deps } from '../deps';
import type { StoredSubscription } from '../subscriptions/active';

export interface User {
  id: number;
  publicId: string;
  phone: string;
  /** ISO time of creation. */
  createdAt: string;
  /** The one live session; a new login replaces it, which revokes every earlier token (spec Authentication 10). */
  sessionId?: string;
  /** Stored hearts and the time (epoch ms) they were last set; the current count is derived (hearts/). */
  hearts: number;
  heartsUpdatedAt: number;
  xp: number;
  stars: number;
  gradeId?: number;
  displayName?: string;
  /** Leaderboard position (leaderboard/board.ts): when `xp` was reached (epoch ms), and the XP of the Tehran week
   * starting on Saturday `weekKey` (YYYY-MM-DD). */
  xpReachedAt?: number;
  weekKey?: string;
  weekXp?: number;
  weekXpReachedAt?: number;
  /** Epoch ms the learner ran out of hearts; cleared when the refill notification is created. */
  heartsEmptyAt?: number;
  /** Notifications with ids up to this one are read (notifications/index.ts). */
  notificationsReadUpTo?: number;
  /** Set by the payments domain when an order is paid (subscriptions/active.ts). */
  subscription?: StoredSubscription;
}

export const DEFAULT_GRADE_ID = 4;

export async function getUser(deps: Deps, userId: number): Promise<User | undefined> {
  const result = await deps.db.doc.send(new GetCommand({ TableName: deps.db.tableName, Key: keys.user(userId), ConsistentRead: true }));
  return result.Item as User | undefined;
}

async function userIdByPhone(deps: Deps, phone: string): Promise<number | undefined> {
  const result = await deps.db.doc.send(new GetCommand({ TableName: deps.db.tableName, Key: keys.phone(phone), ConsistentRead: true }));
  return result.Item ? Number(result.Item.userId) : undefined;
}

const newPublicId = () => `User${String(randomInt(0, 1_000_000)).padStart(6, '0')}`;

/**
 * The user of `phone`, created when absent. Returns `isNew` true only for the call that created it.
 * Errors: rethrows DynamoDB errors; gives up after 10 publicId collisions in a row.
 */
export async function findOrCreateUser(deps: Deps, phone: string): Promise<{ user: User; isNew: boolean }> {
  const existingId = await userIdByPhone(deps, phone);
  if (existingId !== undefined) {
    const user = await getUser(deps, existingId);
    if (user) return { user, isNew: false };
  }
  const id = await nextId(deps.db, 'user');
  const now = deps.clock.now();
  for (let attempt = 0; attempt < 10; attempt++) {
    const user: User = {
      id,
      publicId: newPublicId(),
      phone,
      createdAt: new Date(now).toISOString(),
      hearts: deps.settings.hearts.max,
      heartsUpdatedAt: now,
      xp: 0,
      stars: 0,
    };
    try {
      const unique = { condition: 'attribute_not_exists(pk)' };
      await transact(deps.db, [
        put(deps.db, { ...keys.user(id), ...user }, unique),
        put(deps.db, { ...keys.phone(phone), userId: id }, unique),
        put(deps.db, { ...keys.publicId(user.publicId), userId: id }, unique),
      ]);
      return { user, isNew: true };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const winner = await userIdByPhone(deps, phone);
      if (winner !== undefined) {
        const user = await getUser(deps, winner);
        if (user) return { user, isNew: false };
      }
      // Otherwise the publicId collided: try another.
    }
  }
  throw new Error('Could not allocate a unique publicId');
}
