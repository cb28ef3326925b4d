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
    .sign(deps.secretKey);
}

/** The user id and session id of a valid access token. Errors: `token_invalid` (expired, forged, malformed). */
export async function verifyAccessToken(deps: Deps, token: string): Promise<{ userId: number; sessionId: string }> {
  try {
    const { payload } = await jwtVerify(token, deps.secretKey, {
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
    return { userId, sessionId: payload.sid };
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw authErrors.tokenInvalid('The access token has expired; refresh it');
    throw authErrors.tokenInvalid();
  }
}
