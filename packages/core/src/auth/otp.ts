/**
 * One-time sign-in codes (spec Authentication 2-4; Limits).
 *
 * - A code is 6 digits, sent by SMS, stored only as an HMAC under SECRET_KEY with a TTL of
 *   {@link OTP_TTL_SECONDS}; it is never returned by the API.
 * - Each code dies after {@link OTP_MAX_WRONG_GUESSES} wrong guesses; a right guess consumes it (one
 *   conditional delete, so two logins racing with one code cannot both succeed).
 * - A new code for the same phone can be asked for after {@link OTP_RESEND_SECONDS}.
 * - FIXED_OTP_LOGINS phones get no SMS and their listed code is always valid; the wrong-guess limit still
 *   applies (after 5 wrong guesses the phone is locked until the guard item expires, {@link OTP_TTL_SECONDS}).
 * - DEBUG_MASTER_OTP (only with DEBUG=1, never in production: enforced by settings) is valid for any phone.
 */
import { epochSeconds } from '../clock';
import { isConditionFailure } from '../db/conditions';
import type { Deps } from '../deps';
import { hmacHex, randomDigits, safeEqual } from './crypto';
import { authErrors } from './errors';
import { consumeOtp, dropOtp, readOtp, reserveGuess, saveOtp } from './otp.entity';

export const OTP_TTL_SECONDS = 300;
export const OTP_MAX_WRONG_GUESSES = 5;
export const OTP_RESEND_SECONDS = 60;
export const OTP_DIGITS = 6;

const codeHash = (deps: Deps, phone: string, code: string) => hmacHex(deps.secretKey, `otp:${phone}:${code}`);

/**
 * Sends a new code to `phone`. Errors: `sms_unavailable` (503) when the sms key is unset or the provider
 * fails; `throttled` (429) when a code was sent less than {@link OTP_RESEND_SECONDS} ago.
 */
export async function requestOtp(deps: Deps, phone: string): Promise<void> {
  if (deps.settings.fixedOtpLogins.has(phone)) return; // demo login: no SMS, the listed code is valid
  if (!deps.sms.configured) await deps.sms.sendVerifyCode(phone, ''); // raises sms_unavailable
  const now = deps.clock.now();
  const existing = await readOtp(deps.db, phone);
  if (existing?.sentAt && now - existing.sentAt < OTP_RESEND_SECONDS * 1000 && existing.expiresAt * 1000 > now) {
    throw authErrors.resendTooSoon(Math.ceil((existing.sentAt + OTP_RESEND_SECONDS * 1000 - now) / 1000));
  }
  const code = randomDigits(OTP_DIGITS);
  await saveOtp(deps.db, phone, { codeHash: codeHash(deps, phone, code), sentAt: now, expiresAt: epochSeconds(now) + OTP_TTL_SECONDS });
  try {
    await deps.sms.sendVerifyCode(phone, code);
  } catch (error) {
    await dropOtp(deps.db, phone);
    throw error;
  }
}

/**
 * Checks `code` for `phone` and consumes it. Every guess, right or wrong, first reserves one of the code's
 * {@link OTP_MAX_WRONG_GUESSES} tries atomically (`reserveGuess`), so parallel guesses cannot exceed the limit.
 * Errors: `otp_invalid` (401) for a wrong, expired or used code, and with "too many wrong guesses: ask for a new
 * code" once the tries are spent (the app tells the child to ask for a new code; DESIGN §11).
 */
export async function verifyOtp(deps: Deps, phone: string, code: string): Promise<void> {
  const now = deps.clock.now();
  const item = await reserveGuess(deps.db, phone, OTP_MAX_WRONG_GUESSES, epochSeconds(now), epochSeconds(now) + OTP_TTL_SECONDS);
  if (!item) throw authErrors.otpInvalid('Too many wrong guesses: ask for a new code');
  const fixed = deps.settings.fixedOtpLogins.get(phone);
  const master = deps.settings.debug ? deps.settings.debugMasterOtp : undefined;
  const hash = codeHash(deps, phone, code);
  const byCode = item.codeHash !== undefined && safeEqual(hash, item.codeHash);
  const byFixed = (fixed !== undefined && safeEqual(code, fixed)) || (master !== undefined && safeEqual(code, master));
  if (!byCode && !byFixed) {
    const left = OTP_MAX_WRONG_GUESSES - (item.attempts ?? OTP_MAX_WRONG_GUESSES);
    throw authErrors.otpInvalid(left > 0 ? 'The code is wrong or has expired' : 'Too many wrong guesses: ask for a new code');
  }
  try {
    await consumeOtp(deps.db, phone, byCode ? hash : undefined);
  } catch (error) {
    if (isConditionFailure(error)) throw authErrors.otpInvalid('The code was already used');
    throw error;
  }
}
