/**
 * The learner's profile (spec "User and profile", Limits): display name (refused when it carries a way to contact
 * the child), Jalali birth date and age, grade. The fields live on the user item (`auth`); profile owns no entity.
 */
export { type Profile, type ProfileChange, profileOf, updateProfile } from './profile';
