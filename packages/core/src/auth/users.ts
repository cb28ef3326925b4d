/**
 * Learner accounts (spec "User and profile"): found by the phone exactly as sent (no normalization: two
 * spellings are two users), created on first login with a numeric id from the `user` counter and a unique
 * publicId `User` + 6 digits. Phone and publicId uniqueness are constraint items written in the same
 * transaction as the user, so two first logins racing for one phone create one user. The phone item also
 * notes the user's publicId, so a login reads neither item (issue 15).
 */

import { cancellationReasons, retryOptimistic, tooManyConflicts } from '../db/conditions';
import { nextId } from '../db/counters';
import { put, type TxItem, transact } from '../db/transact';
import type { Deps } from '../deps';
import { countItem } from '../stats';
import { putDirectoryEntry } from './directory.entity';
import { newPublicId } from './publicId';
import { getUser, phoneItem, phoneKey, publicIdKey, type User, userKey } from './user.entity';

/** The grade of a learner who has not chosen one (spec "User and profile": the map and the tutor's book). */
export const DEFAULT_GRADE_ID = 4;

/**
 * The learner's grade: the one chosen in the profile, else {@link DEFAULT_GRADE_ID}. One rule for every answer that
 * names it (the profile, the home map, the tutor's book, the staff's view of the learner), so they never disagree.
 */
export const gradeOf = (user: Pick<User, 'gradeId'>): number => user.gradeId ?? DEFAULT_GRADE_ID;

/** A user as a login needs it: the id and the publicId. */
export interface Account {
  id: number;
  publicId: string;
}

/** The account of `phone`, from its phone item (and the user item when an older phone item lacks the publicId), or undefined. */
export async function accountOfPhone(deps: Deps, phone: string): Promise<Account | undefined> {
  const ref = await phoneItem(deps.db, phone);
  if (!ref) return undefined;
  if (ref.publicId) return { id: ref.userId, publicId: ref.publicId };
  const user = await getUser(deps.db, ref.userId);
  return user && { id: user.id, publicId: user.publicId };
}

/** The items written with a new user (in this order): the user, its phone and publicId constraint items, the day's counters, its directory entry. */
const CREATION_ITEMS = 5;

/**
 * Creates the user of `phone` in one transaction with `extra(user)` (a login's session and code consumption),
 * `user` carrying `fields` (e.g. its first sessionId) and the day's counters adding `signIns` too. Returns the
 * user, or undefined when the phone got a user meanwhile (the caller looks that one up). Errors: `extraRefused()`
 * when a condition of an extra item failed; `database_busy` after 10 publicId collisions in a row.
 */
export async function createUser(
  deps: Deps,
  phone: string,
  options: { fields?: Partial<User>; extra?: (user: User) => TxItem[]; signIns?: number; extraRefused?: () => Error } = {},
): Promise<User | undefined> {
  const id = await nextId(deps.db, 'user');
  const now = deps.clock.now();
  const unique = { condition: 'attribute_not_exists(pk)' };
  return retryOptimistic<User | undefined>(
    async (attempt) => {
      const user: User = {
        id,
        publicId: newPublicId(attempt),
        phone,
        createdAt: new Date(now).toISOString(),
        hearts: deps.settings.hearts.max,
        heartsUpdatedAt: now,
        xp: 0,
        stars: 0,
        ...options.fields,
      };
      await transact(deps.db, [
        put(deps.db, { ...userKey(id), ...user }, unique),
        put(deps.db, { ...phoneKey(phone), userId: id, publicId: user.publicId }, unique),
        put(deps.db, { ...publicIdKey(user.publicId), userId: id }, unique),
        countItem(deps.db, now, { newUsers: 1, ...(options.signIns ? { signIns: options.signIns } : {}) }),
        putDirectoryEntry(deps.db, user),
        ...(options.extra?.(user) ?? []),
      ]);
      return user;
    },
    // Another first login for this phone won: it is that user. Otherwise the publicId collided (or the day's
    // counter was busy): try again with another, a digit longer after 6 collisions, and after 2 more (publicId.ts).
    (error) => {
      const reasons = cancellationReasons(error);
      if (options.extraRefused && reasons.slice(CREATION_ITEMS).includes('ConditionalCheckFailed')) throw options.extraRefused();
      return reasons[1] === 'ConditionalCheckFailed' ? { result: undefined } : undefined;
    },
    { attempts: 10 },
  );
}

/**
 * The user of `phone`, created when absent. Returns `isNew` true only for the call that created it.
 * Errors: rethrows DynamoDB errors; `database_busy` after 10 publicId collisions in a row, or when the phone's
 * item names a user that is gone.
 */
export async function findOrCreateUser(deps: Deps, phone: string): Promise<{ user: User; isNew: boolean }> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const ref = await phoneItem(deps.db, phone);
    const found = ref && (await getUser(deps.db, ref.userId));
    if (found) return { user: found, isNew: false };
    const created = await createUser(deps, phone);
    if (created) return { user: created, isNew: true };
  }
  throw tooManyConflicts();
}
