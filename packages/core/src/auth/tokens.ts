/**
 * Access tokens: JWT, HS256 under SECRET_KEY (jose), valid {@link ACCESS_TOKEN_SECONDS} (spec: 1 hour).
 * Claims: `sub` user id, `sid` session id, `iss` mathisland, `aud` mathisland:access, `iat`, `exp`. Only HS256 is
 * accepted, so `alg: none` and tokens of another key or algorithm fail. A token must say when it was issued, not be
 * issued in the future, and live no longer than the configured lifetime (`exp - iat` at most
 * {@link ACCESS_TOKEN_SECONDS}, DESIGN §12): one signed for ten years (a leaked key's forgery, or an old build's
 * mistake) is refused like a forged one.
 */
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { Deps } from '../deps';
import { authErrors } from './errors';

export const ACCESS_TOKEN_SECONDS = 3600;
const ISSUER = 'mathisland';
const AUDIENCE = 'mathisland:access';

export async function signAccessToken(deps: Deps, userId: number, sessionId: string): Promise<string> {
  const now = Math.floor(deps.clock.now() / 1000);
  return new SignJWT({ sid: sessionId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(String(userId))
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(now + ACCESS_TOKEN_SECONDS)
    .sign(await keyStateOf(deps.secretKey).cryptoKey);
}

/** What a verified token says, kept to check its time claims again on a later use. */
interface VerifiedToken {
  userId: number;
  sessionId: string;
  /** Epoch seconds. */
  iat: number;
  exp: number;
}

/** Tokens a worker keeps verified at most (about 0.5 KB each); the oldest is dropped first. */
export const VERIFIED_TOKENS_KEPT = 10_000;

/**
 * What this worker keeps per signing key (a new key, after a secret change, starts afresh), keyed by the secret's
 * bytes object, so each stack's own key (the local runtime runs several in one process) gets its own:
 * - `cryptoKey`: SECRET_KEY as a WebCrypto HMAC SHA-256 key (non-extractable; sign and verify), imported once. jose
 *   imports a raw `Uint8Array` key again on every call (`crypto.subtle.importKey`, a good part of a token's check); a
 *   `CryptoKey` it uses as given.
 * - `verified`: the access tokens this worker verified. An app sends the same access token with every request for
 *   its hour, and the signature check is the costliest step of a request outside DynamoDB (WebCrypto's HMAC runs on
 *   libuv's thread pool: a hop there and back per request; issue 30 §5, docs/performance.md), so a token whose
 *   signature and claims jose accepted once is only checked against the clock again (expiry, age) on later requests.
 *   Only accepted tokens are kept: a forged or malformed one pays the full check every time. What the token is worth
 *   is still decided per request by the session check (its `sid` must be the user's live session), so a sign-out or
 *   revocation ends it at once, cached or not.
 */
interface KeyState {
  cryptoKey: Promise<CryptoKey>;
  verified: Map<string, VerifiedToken>;
}

const keyStates = new WeakMap<Uint8Array, KeyState>();

function keyStateOf(secret: Uint8Array): KeyState {
  let state = keyStates.get(secret);
  if (!state) {
    const cryptoKey = crypto.subtle.importKey('raw', new Uint8Array(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    state = { cryptoKey, verified: new Map() };
    keyStates.set(secret, state);
  }
  return state;
}

/**
 * Whether a verified token still holds at `nowSeconds` (whole epoch seconds, as jose counts): not expired (`exp` is
 * the first second it is not valid), not issued in the future, no older than the lifetime. The same rules jose
 * applies with no clock tolerance.
 */
const stillValid = (t: VerifiedToken, nowSeconds: number): boolean =>
  nowSeconds < t.exp && nowSeconds >= t.iat && nowSeconds - t.iat <= ACCESS_TOKEN_SECONDS;

/**
 * The user id and session id of a valid access token (a token this worker verified before: its time claims checked
 * again, see {@link KeyState}). Errors: `token_invalid` (expired, forged, malformed).
 */
export async function verifyAccessToken(deps: Deps, token: string): Promise<{ userId: number; sessionId: string }> {
  const { cryptoKey, verified } = keyStateOf(deps.secretKey);
  const known = verified.get(token);
  if (known) {
    if (stillValid(known, Math.floor(deps.clock.now() / 1000))) return { userId: known.userId, sessionId: known.sessionId };
    verified.delete(token); // jose below says why it no longer holds
  }
  try {
    const { payload } = await jwtVerify(token, await cryptoKey, {
      algorithms: ['HS256'],
      issuer: ISSUER,
      audience: AUDIENCE,
      currentDate: new Date(deps.clock.now()),
      requiredClaims: ['sub', 'sid', 'exp', 'iat'],
      // Issued no longer ago than the lifetime, and not in the future.
      maxTokenAge: ACCESS_TOKEN_SECONDS,
    });
    const userId = Number(payload.sub);
    if (!Number.isSafeInteger(userId) || typeof payload.sid !== 'string') throw authErrors.tokenInvalid();
    if ((payload.exp as number) - (payload.iat as number) > ACCESS_TOKEN_SECONDS) {
      throw authErrors.tokenInvalid('The access token lives longer than this service allows');
    }
    if (verified.size >= VERIFIED_TOKENS_KEPT) verified.delete(verified.keys().next().value as string);
    verified.set(token, { userId, sessionId: payload.sid, iat: payload.iat as number, exp: payload.exp as number });
    return { userId, sessionId: payload.sid };
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw authErrors.tokenInvalid('The access token has expired; refresh it');
    throw authErrors.tokenInvalid();
  }
}
