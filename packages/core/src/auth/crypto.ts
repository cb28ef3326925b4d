/** Hashing and comparison helpers of the auth domain (node:crypto only). */
import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** HMAC-SHA256 of `value` under `key`, hex. Used for one-time codes so a table dump reveals none. */
export const hmacHex = (key: Uint8Array, value: string): string => createHmac('sha256', key).update(value).digest('hex');

/** SHA-256 hex, for refresh tokens (high-entropy, so a plain hash suffices for lookup). */
export const sha256Hex = (value: string): string => createHash('sha256').update(value).digest('hex');

/** Constant-time string equality that does not leak the length (both sides are hashed first). */
export function safeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb) && a.length === b.length;
}

/** A uniformly random string of `digits` decimal digits (CSPRNG). */
export const randomDigits = (digits: number): string => String(randomInt(0, 10 ** digits)).padStart(digits, '0');

/** 32 random bytes, base64url: refresh tokens. */
export const randomToken = (): string => randomBytes(32).toString('base64url');
