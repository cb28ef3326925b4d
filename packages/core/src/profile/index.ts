/** Profile rules: Jalali birth date and age, display-name policy (spec "User and profile", Limits). */

export { type BirthDate, type JalaliDate, MAX_AGE, MIN_AGE, parseJalaliDate, validateBirthDate } from './birthDate';
export { cleanDisplayName, DISPLAY_NAME_MAX_LENGTH, PHONE_DIGITS } from './displayName';
export { type Profile, type ProfileChange, profileOf, updateProfile } from './profile';
