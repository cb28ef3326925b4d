/** Sign-in by phone and one-time code, sessions and tokens (spec Authentication). */

export { backfillUserDirectory, userIdBatches } from './backfill';
export { hmacHex, safeEqual, safeEqualAny } from './crypto';
export { directoryKey, directoryName, removeDirectoryEntry, usersIndex, usersPage } from './directory.entity';
export { authErrors } from './errors';
export { endLearnerSessions, listLearnerSessions, revokeLearnerSession, type StaffSessionView } from './learnerSessions';
export {
  checkConfirmationCode,
  OTP_MAX_WRONG_GUESSES,
  OTP_RESEND_SECONDS,
  OTP_TTL_SECONDS,
  requestOtp,
  sendConfirmationCode,
  verifyOtp,
} from './otp';
export { listOtpRecords, type OtpRecordView } from './otpRecords';
export { canonicalPublicId } from './publicId';
export { logout, type RefreshResult, refresh } from './refresh';
export { authenticate, type CountOnUser, type LoginResult, login, REFRESH_TOKEN_SECONDS } from './sessions';
export { ACCESS_TOKEN_SECONDS, signAccessToken, verifyAccessToken } from './tokens';
export {
  getUser,
  getUsers,
  mergeUserChanges,
  phoneKey,
  publicIdKey,
  StoredSubscription,
  type User,
  type UserChange,
  type UserCondition,
  type UserFields,
  UserItem,
  updateUser,
  userCondition,
  userIdByPhone,
  userIdByPublicId,
  userKey,
  writeUser,
} from './user.entity';
export { getUserForStaff, listUsers, type StaffUserView, staffUserView } from './userDirectory';
export { DEFAULT_GRADE_ID, findOrCreateUser, gradeOf } from './users';
