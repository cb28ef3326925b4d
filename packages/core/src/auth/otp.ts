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
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { epochSeconds } from '../clock';
import { isConditionFailure } from '../db/conditions';
import { keys } from '../db/keys';
import type { Deps } from '../deps';
import { hmacHex, randomDigits, safeEqual } from './crypto';
import { authErrors } from './errors';

export const OTP_TTL_SECONDS = 300;
export const OTP_MAX_WRONG_GUESSES = 5;
export const OTP_RESEND_SECONDS = 60;
export const OTP_DIGITS = 6;

interface OtpItem {
  codeHash?: string;
  attempts?: number;
  sentAt?: number;
  expiresAt: number;
}

const codeHash = (deps: Deps, phone: string, code: string) => hmacHex(deps.secretKey, `otp:${phone}:${code}`);

/**
 * Sends a new code to `phone`. Errors: `sms_unavailable` (503) when the sms key is unset or the provider
 * fails; `throttled` (429) when a code was sent less than {@link OTP_RESEND_SECONDS} ago.
 */
export async function requestOtp(deps: Deps, phone: string): Promise<void> {
  if (deps.settings.fixedOtpLogins.has(phone)) return; // demo login: no SMS, the listed code is valid
  if (!deps.sms.configured) await deps.sms.sendVerifyCode(phone, ''); // raises sms_unavailable
  const now = deps.clock.now();
  const key = keys.otp(phone);
  const existing = (await deps.db.doc.send(new GetCommand({ TableName: deps.db.tableName, Key: key, ConsistentRead: true }))).Item as
    | OtpItem
    | undefined;
  if (existing?.sentAt && now - existing.sentAt < OTP_RESEND_SECONDS * 1000 && existing.expiresAt * 1000 > now) {
    throw authErrors.resendTooSoon(Math.ceil((existing.sentAt + OTP_RESEND_SECONDS * 1000 - now) / 1000));
  }
  const code = randomDigits(OTP_DIGITS);
  await deps.db.doc.send(
    new PutCommand({
      TableName: deps.db.tableName,
      Item: { ...key, codeHash: codeHash(deps, phone, code), attempts: 0, sentAt: now, expiresAt: epochSeconds(now) + OTP_TTL_SECONDS },
    }),
  );
  try {
    await deps.sms.sendVerifyCode(phone, code);
  } catch (error) {
    await deps.db.doc.send(new DeleteCommand({ TableName: deps.db.tableName, Key: key }));
    throw error;
  }
}

/**
 * Checks `code` for `phone` and consumes it. Errors: `otp_invalid` (401) for a wrong, expired, used or dead
 * code; every wrong guess is counted.
 */
export async function verifyOtp(deps: Deps, phone: string, code: string): Promise<void> {
  const now = deps.clock.now();
  const key = keys.otp(phone);
  const item = (await deps.db.doc.send(new GetCommand({ TableName: deps.db.tableName, Key: key, ConsistentRead: true }))).Item as
    | OtpItem
    | undefined;
  const alive = item !== undefined && item.expiresAt * 1000 > now;
  if (alive && (item.attempts ?? 0) >= OTP_MAX_WRONG_GUESSES) {
    throw authErrors.otpInvalid('Too many wrong guesses: ask for a new code');
  }
  const fixed = deps.settings.fixedOtpLogins.get(phone);
  const master = deps.settings.debug ? deps.settings.debugMasterOtp : undefined;
  const hash = codeHash(deps, phone, code);
  const byCode = alive && item.codeHash !== undefined && safeEqual(hash, item.codeHash);
  const byFixed = (fixed !== undefined && safeEqual(code, fixed)) || (master !== undefined && safeEqual(code, master));

  if (!byCode && !byFixed) {
    // Count the wrong guess; a guard item is created for phones without a live code (fixed logins, guesses).
    await deps.db.doc.send(
      new UpdateCommand({
        TableName: deps.db.tableName,
        Key: key,
        UpdateExpression: 'ADD attempts :one SET expiresAt = :exp',
        ExpressionAttributeValues: { ':one': 1, ':exp': alive ? item.expiresAt : epochSeconds(now) + OTP_TTL_SECONDS },
      }),
    );
    throw authErrors.otpInvalid();
  }
  try {
    await deps.db.doc.send(
      new DeleteCommand({
        TableName: deps.db.tableName,
        Key: key,
        ...(byCode
          ? {
              ConditionExpression: 'codeHash = :h AND attempts < :max',
              ExpressionAttributeValues: { ':h': hash, ':max': OTP_MAX_WRONG_GUESSES },
            }
          : {}),
      }),
    );
  } catch (error) {
    if (isConditionFailure(error)) throw authErrors.otpInvalid('The code was already used');
    throw error;
  }
}
