/**
 * Learner accounts (spec "User and profile"): found by the phone exactly as sent (no normalization: two
 * spellings are two users), created on first login with a numeric id from the `user` counter and a unique
 * publicId `User` + 6 digits. Phone and publicId uniqueness are constraint items written in the same
 * transaction as the user, so two first logins racing for one phone create one user.
 */
import { randomInt } from 'node:crypto';
import { retryOptimistic } from '../db/conditions';
import { nextId } from '../db/counters';
import { put, transact } from '../db/transact';
import type { Deps } from '../deps';
import { countItem } from '../stats';
import { getUser, phoneKey, publicIdKey, type User, userIdByPhone, userKey, usersIndex } from './user.entity';

export const DEFAULT_GRADE_ID = 4;

const newPublicId = () => `User${String(randomInt(0, 1_000_000)).padStart(6, '0')}`;

/** The user of `phone` if it exists (the phone item names it). */
async function existingUser(deps: Deps, phone: string): Promise<User | undefined> {
  const id = await userIdByPhone(deps.db, phone);
  return id === undefined ? undefined : getUser(deps.db, id);
}

/**
 * The user of `phone`, created when absent. Returns `isNew` true only for the call that created it.
 * Errors: rethrows DynamoDB errors; `database_busy` after 10 publicId collisions in a row.
 */
export async function findOrCreateUser(deps: Deps, phone: string): Promise<{ user: User; isNew: boolean }> {
  const found = await existingUser(deps, phone);
  if (found) return { user: found, isNew: false };
  const id = await nextId(deps.db, 'user');
  const now = deps.clock.now();
  const unique = { condition: 'attribute_not_exists(pk)' };
  return retryOptimistic<{ user: User; isNew: boolean }>(
    async () => {
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
      await transact(deps.db, [
        put(deps.db, { ...userKey(id), ...usersIndex(id), ...user }, unique),
        put(deps.db, { ...phoneKey(phone), userId: id }, unique),
        put(deps.db, { ...publicIdKey(user.publicId), userId: id }, unique),
        countItem(deps.db, now, { newUsers: 1 }),
      ]);
      return { user, isNew: true };
    },
    // Another first login for this phone won: it is that user. Otherwise the publicId collided: try another.
    async () => {
      const winner = await existingUser(deps, phone);
      return winner ? { result: { user: winner, isNew: false } } : undefined;
    },
    { attempts: 10 },
  );
}
