/**
 * The learner's profile (`GET/PATCH /api/user/profile`, issue 3 §5; spec "User and profile"):
 * `{ publicId, phone, displayName, birthDate, birthYear, gradeId }`. `birthDate` is Jalali `YYYY/MM/DD`
 * (age 5 to 99), `birthYear` its Jalali year, derived; `gradeId` selects the map and the tutor's book.
 *
 * Errors: `validation_error` (display name with a phone, link or handle; bad or out-of-range birth date;
 * a grade that is not in the curriculum).
 */
import { authErrors, directoryName, getUser, gradeOf, type User, type UserChange, updateUser, userCondition, writeUser } from '../auth';
import { retryOptimistic } from '../db/conditions';
import { transact } from '../db/transact';
import type { Deps } from '../deps';
import { renameItems } from '../leaderboard';
import { validateBirthDate } from './birthDate';
import { cleanDisplayName } from './displayName';
import { profileErrors } from './errors';

export interface Profile {
  publicId: string;
  phone: string;
  displayName: string | null;
  birthDate: string | null;
  birthYear: number | null;
  gradeId: number;
}

export interface ProfileChange {
  /** Empty string or null clears it. */
  displayName?: string | null;
  /** Jalali 'YYYY/MM/DD' (or with '-', Persian digits); null clears it. */
  birthDate?: string | null;
  gradeId?: number;
}

/** The profile fields of the user item; `gradeId` is auth's `gradeOf` (the chosen grade, else the default). */
export const profileOf = (user: User): Profile => ({
  publicId: user.publicId,
  phone: user.phone,
  displayName: user.displayName ?? null,
  birthDate: user.birthDate ?? null,
  birthYear: user.birthYear ?? null,
  gradeId: gradeOf(user),
});

/** The SET and REMOVE parts of `change` after validating it. Errors: see the module. */
async function changeSet(
  deps: Deps,
  change: ProfileChange,
): Promise<{ set: NonNullable<UserChange['set']>; clear: ('displayName' | 'birthDate' | 'birthYear')[] }> {
  const set: NonNullable<UserChange['set']> = {};
  const clear: ('displayName' | 'birthDate' | 'birthYear')[] = [];
  if (change.displayName !== undefined) {
    if (change.displayName === null || change.displayName.trim() === '') clear.push('displayName');
    else set.displayName = cleanDisplayName(change.displayName);
  }
  if (change.birthDate !== undefined) {
    if (change.birthDate === null) clear.push('birthDate', 'birthYear');
    else {
      const { birthDate, birthYear } = validateBirthDate(change.birthDate, deps.clock.now());
      Object.assign(set, { birthDate, birthYear });
    }
  }
  if (change.gradeId !== undefined) {
    if (!(await deps.content.get()).grade(change.gradeId)) throw profileErrors.unknownGrade();
    set.gradeId = change.gradeId;
  }
  return { set, clear };
}

/** `user` with `set` applied and `clear` removed: the item after the change, without reading it back. */
function applied(user: User, set: NonNullable<UserChange['set']>, clear: readonly string[]): User {
  const after: Record<string, unknown> = { ...user, ...set };
  for (const name of clear) delete after[name];
  return after as User;
}

/**
 * Applies `change` to the learner's profile fields on the user item (one conditional update on `userKey`; the
 * user must still exist) and returns the new profile. Nothing to change: no write, the current profile.
 *
 * A new or cleared display name also shows on the learner's entries of the current leaderboards (they carry it,
 * issue 15): then the change is one transaction with their rename, conditioned on no XP grant since `user` was
 * read (leaderboard `renameItems`), re-read and tried again when one happened. Errors: see the module;
 * `token_invalid` when the learner is gone (the account deleted meanwhile); `database_busy` (503) after too many
 * lost races.
 */
export async function updateProfile(deps: Deps, user: User, change: ProfileChange): Promise<Profile> {
  const { set, clear } = await changeSet(deps, change);
  if (Object.keys(set).length === 0 && clear.length === 0) return profileOf(user);
  const userChange: UserChange = { set, remove: clear };
  const renames = 'displayName' in set || clear.includes('displayName');
  if (!renames) return profileOf(await writeUser(deps.db, user.id, userChange));
  let current = user;
  return retryOptimistic(
    async () => {
      const board = renameItems(deps.db, current, set.displayName, deps.clock.now());
      const condition = userCondition.all(userCondition.exists(), board.condition);
      // The staff's directory shows the name too (auth directory.entity.ts).
      await transact(deps.db, [
        updateUser(deps.db, current.id, userChange, condition),
        directoryName(deps.db, current.id, set.displayName),
        ...board.items,
      ]);
      return profileOf(applied(current, set, clear));
    },
    async () => {
      const fresh = await getUser(deps.db, user.id);
      if (!fresh) throw authErrors.tokenInvalid('The session has ended; sign in again');
      current = fresh;
      return undefined;
    },
  );
}
