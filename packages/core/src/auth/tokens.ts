/**
 * Access tokens: JWT, HS256 under SECRET_KEY (jose), valid {@link ACCESS_TOKEN_SECONDS} (spec: 1 hour).
 * Claims: `sub` user id, `sid` session id, `iss` mathisland, `aud` mathisland:access. Only HS256 is
 * accepted, so `alg: none` and tokens of another key or algorithm fail.
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
      requiredClaims: ['sub', 'sid', 'exp'],
    });
    const userId = Number(payload.sub);
    if (!Number.isSafeInteger(userId) || typeof payload.sid !== 'string') throw authErrors.tokenInvalid();
    return { userId, sessionId: payload.sid };
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw authErrors.tokenInvalid('The access token has expired; refresh it');
    throw authErrors.tokenInvalid();
  }
}
