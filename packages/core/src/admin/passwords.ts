/**
 * Staff passwords (spec Authentication 6; DESIGN §9): Argon2id from `hash-wasm` (WebAssembly, so one bundle runs
 * on the arm64 Lambdas and any developer machine, no native binary), with OWASP's parameters (19 MiB, 2
 * iterations, parallelism 1, 16-byte random salt, 32-byte hash), stored in the standard PHC string
 * `$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>`. Hashes made before it (`scrypt$N$r$p$<salt>$<hash>`, node's
 * scrypt) still verify, and {@link needsRehash} tells the login to replace them. The password itself is never
 * stored. At least {@link MIN_PASSWORD_LENGTH} characters.
 */
import { randomBytes, type ScryptOptions, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { argon2id, argon2Verify } from 'hash-wasm';

export const MIN_PASSWORD_LENGTH = 10;
/** Longest accepted password (Argon2 takes any length; this bounds the work a request can ask for). */
export const MAX_PASSWORD_LENGTH = 256;

const ARGON2 = { memorySize: 19_456, iterations: 2, parallelism: 1, hashLength: 32 };
const CURRENT_PREFIX = `$argon2id$v=19$m=${ARGON2.memorySize},t=${ARGON2.iterations},p=${ARGON2.parallelism}$`;

/** A well-formed hash no password matches: checked for unknown usernames, so they cost as much time as a wrong password. */
export const DUMMY_HASH = `${CURRENT_PREFIX}AAAAAAAAAAAAAAAAAAAAAA$${'A'.repeat(43)}`;

/** A storable Argon2id hash of `password`, with a fresh salt. */
export const hashPassword = (password: string): Promise<string> =>
  argon2id({ password, salt: randomBytes(16), ...ARGON2, outputType: 'encoded' });

const scrypt = (password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> =>
  new Promise((resolve, reject) =>
    scryptCallback(password, salt, keylen, { ...options, maxmem: 64 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );

/** The legacy `scrypt$N$r$p$<salt b64>$<hash b64>` check (constant-time; false for a malformed hash). */
async function verifyScrypt(password: string, stored: string): Promise<boolean> {
  const [, n, r, p, salt, hash] = stored.split('$');
  if (!salt || !hash || ![n, r, p].every((v) => /^[0-9]{1,6}$/.test(v ?? ''))) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, { N: Number(n), r: Number(r), p: Number(p) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** Whether `password` matches `stored` (an Argon2id or legacy scrypt hash); false for a malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (stored.startsWith('scrypt$')) return verifyScrypt(password, stored);
  if (!stored.startsWith('$argon2id$')) return false;
  try {
    return await argon2Verify({ password, hash: stored });
  } catch {
    return false;
  }
}

/** Whether `stored` should be replaced by a hash with today's algorithm and parameters (done at the next sign-in). */
export const needsRehash = (stored: string): boolean => !stored.startsWith(CURRENT_PREFIX);
