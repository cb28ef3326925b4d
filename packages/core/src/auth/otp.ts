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
import type { TxItem } from '../db/transact';
import type { Deps } from '../deps';
import { hmacHex, randomDigits, safeEqual } from './crypto';
import { authErrors } from './errors';
import {
  consumeOtp,
  consumeOtpItem,
  dropOtp,
  type OtpItem,
  type PhoneOwner,
  readOtp,
  readOtpAndOwner,
  reserveGuess,
  SIGN_IN_SCOPE,
  saveOtp,
} from './otp.entity';

export const OTP_TTL_SECONDS = 300;
export const OTP_MAX_WRONG_GUESSES = 5;
export const OTP_RESEND_SECONDS = 60;
export const OTP_DIGITS = 6;

/** The stored form of a code: HMAC-SHA256 under SECRET_KEY, bound to the phone and, beyond sign-in, the scope. */
const codeHash = (deps: Deps, phone: string, code: string, scope = SIGN_IN_SCOPE) =>
  hmacHex(deps.secretKey, scope === SIGN_IN_SCOPE ? `otp:${phone}:${code}` : `otp:${scope}:${phone}:${code}`);

/**
 * Sends a new code to `phone`. Errors: `sms_unavailable` (503) when the sms key is unset or the provider
 * fails; `throttled` (429) when a code was sent less than {@link OTP_RESEND_SECONDS} ago.
 */
export async function requestOtp(deps: Deps, phone: string): Promise<void> {
  if (deps.settings.fixedOtpLogins.has(phone)) return; // demo login: no SMS, the listed code is valid
  if (!deps.sms.configured) await deps.sms.sendVerifyCode(phone, ''); // raises sms_unavailable
  // The code and the phone's owner in one read: the code notes the owner, so the login needs no lookup.
  const { otp: existing, owner } = await readOtpAndOwner(deps.db, phone);
  await issueCode(deps, phone, SIGN_IN_SCOPE, existing, owner);
}

/**
 * Sends a fresh code for `phone` in `scope` unless one was sent less than {@link OTP_RESEND_SECONDS} ago (`existing`
 * is the scope's item as read), storing its hash (with `owner` noted) first, on condition that the item is still
 * `existing` (so of requests at once one code is stored and sent, the others are `throttled`), and dropping it again
 * when the sms provider refuses. Errors: `throttled`, `sms_unavailable`, `validation_error` (the provider refused
 * the number).
 */
async function issueCode(deps: Deps, phone: string, scope: string, existing: OtpItem | undefined, owner: PhoneOwner = {}): Promise<void> {
  const now = deps.clock.now();
  if (existing?.sentAt && now - existing.sentAt < OTP_RESEND_SECONDS * 1000 && existing.expiresAt * 1000 > now) {
    throw authErrors.resendTooSoon(Math.ceil((existing.sentAt + OTP_RESEND_SECONDS * 1000 - now) / 1000));
  }
  const code = randomDigits(OTP_DIGITS);
  const stored = await saveOtp(
    deps.db,
    phone,
    { codeHash: codeHash(deps, phone, code, scope), sentAt: now, expiresAt: epochSeconds(now) + OTP_TTL_SECONDS, ...owner },
    existing,
    scope,
  );
  // Another request (a double tap, a retry) stored its code since the read: that one is sent; this one is too soon.
  if (!stored) throw authErrors.resendTooSoon(OTP_RESEND_SECONDS);
  try {
    await deps.sms.sendVerifyCode(phone, code);
  } catch (error) {
    await dropOtp(deps.db, phone, scope);
    throw error;
  }
}

/**
 * Sends `phone` a code that confirms it for `scope` (not a sign-in: e.g. `PARENT#<userId>`, a parent's number for
 * the weekly report, DESIGN §13), with the sign-in code's rules: 6 digits by the verify template, {@link
 * OTP_TTL_SECONDS} to live, one every {@link OTP_RESEND_SECONDS} per phone and scope, dead after
 * {@link OTP_MAX_WRONG_GUESSES} wrong guesses. Fixed-code logins and the debug master code never apply: the code
 * always goes to the phone. Errors: `sms_unavailable`, `throttled`, `validation_error` (number refused).
 */
export async function sendConfirmationCode(deps: Deps, phone: string, scope: string): Promise<void> {
  if (!deps.sms.configured) await deps.sms.sendVerifyCode(phone, ''); // raises sms_unavailable
  await issueCode(deps, phone, scope, await readOtp(deps.db, phone, scope));
}

/**
 * Checks a confirmation code of `phone` in `scope` ({@link sendConfirmationCode}), each guess reserving one of its
 * tries first, and returns the transaction item that consumes it (for the caller to write with what it confirms, so
 * one code confirms once). Errors: `otp_invalid` (wrong or expired, or its tries are spent).
 */
export async function checkConfirmationCode(deps: Deps, phone: string, scope: string, code: string): Promise<TxItem> {
  const { matchedHash } = await guessCode(deps, phone, scope, code, false);
  return consumeOtpItem(deps.db, phone, matchedHash, scope);
}

/**
 * Checks `code` for `phone` without consuming it: every guess, right or wrong, first reserves one of the code's
 * {@link OTP_MAX_WRONG_GUESSES} tries atomically (`reserveGuess`), so parallel guesses cannot exceed the limit,
 * and only a guess that got a try is compared. Returns the code item after the reservation (with the owner it
 * noted), the transaction item that consumes the code, which the caller writes with what the code grants (a
 * login: with the session), so two uses of one code cannot both succeed, and the hash it matched (undefined for
 * a fixed or master code, whose guard item is consumed unconditionally). Errors: `otp_invalid` (401) for a
 * wrong or expired code, and with "too many wrong guesses: ask for a new code" once the tries are spent (the app
 * tells the child to ask for a new code; DESIGN §11).
 */
export async function checkOtp(
  deps: Deps,
  phone: string,
  code: string,
): Promise<{ item: OtpItem; consume: TxItem; matchedHash: string | undefined }> {
  const fixed = deps.settings.fixedOtpLogins.get(phone);
  const master = deps.settings.debug ? deps.settings.debugMasterOtp : undefined;
  const byFixed = (fixed !== undefined && safeEqual(code, fixed)) || (master !== undefined && safeEqual(code, master));
  const { item, matchedHash } = await guessCode(deps, phone, SIGN_IN_SCOPE, code, byFixed);
  return { item, consume: consumeOtpItem(deps.db, phone, matchedHash), matchedHash };
}

/**
 * Reserves one of the tries of the code of `phone` in `scope` (`reserveGuess`), then compares `code` with it; a
 * guess that is `otherwiseValid` (a fixed or master code) passes too. Returns the item after the reservation and
 * the hash that matched (undefined when only `otherwiseValid` held). Errors: `otp_invalid`.
 */
async function guessCode(
  deps: Deps,
  phone: string,
  scope: string,
  code: string,
  otherwiseValid: boolean,
): Promise<{ item: OtpItem; matchedHash: string | undefined }> {
  const now = deps.clock.now();
  const item = await reserveGuess(deps.db, phone, OTP_MAX_WRONG_GUESSES, epochSeconds(now), epochSeconds(now) + OTP_TTL_SECONDS, scope);
  if (!item) throw authErrors.otpInvalid('Too many wrong guesses: ask for a new code');
  const hash = codeHash(deps, phone, code, scope);
  const byCode = item.codeHash !== undefined && safeEqual(hash, item.codeHash);
  if (!byCode && !otherwiseValid) {
    const left = OTP_MAX_WRONG_GUESSES - (item.attempts ?? OTP_MAX_WRONG_GUESSES);
    throw authErrors.otpInvalid(left > 0 ? 'The code is wrong or has expired' : 'Too many wrong guesses: ask for a new code');
  }
  return { item, matchedHash: byCode ? hash : undefined };
}

/** The error of a code consumed by another use first (the consuming transaction item's condition failed). */
export const codeAlreadyUsed = () => authErrors.otpInvalid('The code was already used');

/**
 * Checks `code` for `phone` ({@link checkOtp}) and consumes it at once (one conditional delete). Errors: those
 * of {@link checkOtp}, and `otp_invalid` when another use consumed it first.
 */
export async function verifyOtp(deps: Deps, phone: string, code: string): Promise<void> {
  const { matchedHash } = await checkOtp(deps, phone, code);
  try {
    await consumeOtp(deps.db, phone, matchedHash);
  } catch (error) {
    if (isConditionFailure(error)) throw codeAlreadyUsed();
    throw error;
  }
}
