/** Error codes of the profile (spec "User and profile"): every refusal is `validation_error` naming its field. */
import { DomainError } from '../errors';

export const profileErrors = {
  /** A birth date in a bad format, that does not exist, in the future or outside the age range. */
  invalidBirthDate: (message: string) => new DomainError('validation_error', message, { fields: { birthDate: [message] } }),
  /** A display name breaking the rules listed in `reasons` (length, phone number, link, handle, app name). */
  invalidDisplayName: (reasons: string[]) => new DomainError('validation_error', reasons.join('; '), { fields: { displayName: reasons } }),
  /** A grade that is not in the curriculum. */
  unknownGrade: () =>
    new DomainError('validation_error', 'No such grade', { fields: { gradeId: ['Choose one of the grades of the curriculum'] } }),
};
