/**
 * The learner's profile (`GET/PATCH /api/user/profile`, issue 3 §5; spec "User and profile"):
 * `{ publicId, phone, displayName, birthDate, birthYear, gradeId }`. `birthDate` is Jalali `YYYY/MM/DD`
 * (age 5 to 99), `birthYear` its Jalali year, derived; `gradeId` selects the map and the tutor's book.
 *
 * Errors: `validation_error` (display name with a phone, link or handle; bad or out-of-range birth date;
 * a grade that is not in the curriculum).
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DEFAULT_GRADE_ID, type User } from '../auth';
import { keys } from '../db/keys';
import type { Deps } from '../deps';
import { DomainError } from '../errors';
import { validateBirthDate } from './birthDate';
import { cleanDisplayName } from './displayName';

type ProfileFields = User & { birthDate?: string; birthYear?: number };

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

export const profileOf = (user: ProfileFields): Profile => ({
  publicId: user.publicId,
  phone: user.phone,
  displayName: user.displayName ?? null,
  birthDate: user.birthDate ?? null,
  birthYear: user.birthYear ?? null,
  gradeId: user.gradeId ?? DEFAULT_GRADE_ID,
});

/** Applies `change` to the learner's profile and returns the new profile. */
export async function updateProfile(deps: Deps, user: ProfileFields, change: ProfileChange): Promise<Profile> {
  const set: Record<string, unknown> = {};
  const clear: string[] = [];
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
    if (!(await deps.content.get()).grade(change.gradeId)) {
      throw new DomainError('validation_error', 'No such grade', { fields: { gradeId: ['Choose one of the grades of the curriculum'] } });
    }
    set.gradeId = change.gradeId;
  }
  const names = Object.keys(set);
  if (names.length === 0 && clear.length === 0) return profileOf(user);
  const result = await deps.db.doc.send(
    new UpdateCommand({
      TableName: deps.db.tableName,
      Key: keys.user(user.id),
      UpdateExpression: [
        names.length ? `SET ${names.map((n) => `#${n} = :${n}`).join(', ')}` : '',
        clear.length ? `REMOVE ${clear.map((n) => `#${n}`).join(', ')}` : '',
      ]
        .filter(Boolean)
        .join(' '),
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: Object.fromEntries([...names, ...clear].map((n) => [`#${n}`, n])),
      ...(names.length ? { ExpressionAttributeValues: Object.fromEntries(names.map((n) => [`:${n}`, set[n]])) } : {}),
      ReturnValues: 'ALL_NEW',
    }),
  );
  return profileOf(result.Attributes as ProfileFields);
}
