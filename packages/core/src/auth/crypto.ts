/** Hashing and comparison helpers of the auth domain (node:crypto only). */
import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** HMAC-SHA256 of `value` under `key`, hex. Used for one-time codes so a table dump reveals none. */
export const hmacHex = (key: Uint8Array, value: string): string => createHmac('sha256', key).update(value).digest('hex');

/** SHA-256 hex, for refresh tokens (high-entropy, so a plain hash suffices for lookup). */
export const sha256Hex = (value: string): string => createHash('sha256').update(value).digest('hex');

const sha256 = (value: string): Buffer => createHash('sha256').update(value).digest();

/** Constant-time string equality that does not leak the length (both sides are hashed first). */
export function safeEqual(a: string, b: string): boolean {
  return timingSafeEqual(sha256(a), sha256(b)) && a.length === b.length;
}

/** The SHA-256 digests of a list of accepted values, kept per list (a settings list lives as long as its settings). */
const knownDigests = new WeakMap<readonly string[], Buffer[]>();

/**
 * Whether `given` equals one of `accepted` (a list that does not change, e.g. the settings' origin secrets, which
 * every request checks), in constant time whatever matches: `given` is hashed once and compared with every accepted
 * value's digest, computed once per list. Leaks neither which value matched nor any length.
 */
export function safeEqualAny(given: string, accepted: readonly string[]): boolean {
  let digests = knownDigests.get(accepted);
  if (!digests) {
    digests = accepted.map(sha256);
    knownDigests.set(accepted, digests);
  }
  const digest = sha256(given);
  return digests.map((d, i) => timingSafeEqual(digest, d) && given.length === (accepted[i] as string).length).includes(true);
}

/** A uniformly random string of `digits` decimal digits (CSPRNG). */
export const randomDigits = (digits: number): string => String(randomInt(0, 10 ** digits)).padStart(digits, '0');

/** 32 random bytes, base64url: refresh tokens. */
export const randomToken = (): string => randomBytes(32).toString('base64url');
