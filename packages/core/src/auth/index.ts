/** Sign-in by phone and one-time code, sessions and tokens (spec Authentication). */
export { authErrors } from './errors';
export { requestOtp, verifyOtp, OTP_MAX_WRONG_GUESSES, OTP_RESEND_SECONDS, OTP_TTL_SECONDS } from './otp';
export { login, refresh, logout, authenticate, type LoginResult, REFRESH_TOKEN_SECONDS } from './sessions';
export { ACCESS_TOKEN_SECONDS, signAccessToken, verifyAccessToken } from './tokens';
export { type User, getUser, findOrCreateUser, DEFAULT_GRADE_ID } from './users';
export { safeEqual } from './crypto';
