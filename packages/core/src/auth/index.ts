/** Sign-in by phone and one-time code, sessions and tokens (spec Authentication). */

export { safeEqual } from './crypto';
export { authErrors } from './errors';
export { OTP_MAX_WRONG_GUESSES, OTP_RESEND_SECONDS, OTP_TTL_SECONDS, requestOtp, verifyOtp } from './otp';
export { authenticate, type LoginResult, login, logout, REFRESH_TOKEN_SECONDS, refresh } from './sessions';
export { ACCESS_TOKEN_SECONDS, signAccessToken, verifyAccessToken } from './tokens';
export {
  getUser,
  phoneKey,
  publicIdKey,
  StoredSubscription,
  type User,
  UserItem,
  userIdByPhone,
  userIdByPublicId,
  userKey,
} from './user.entity';
export { DEFAULT_GRADE_ID, findOrCreateUser } from './users';
