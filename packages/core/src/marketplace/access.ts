/**
 * Which credential a marketplace call uses (spec Authentication 8 and 9; DESIGN §8):
 *
 * 1. MARKETPLACE_API_SECRET set → the static secret; it takes precedence, has no redirect and no expiry.
 * 2. Otherwise OAuth: an access token obtained from the stored refresh token (credential.entity.ts), cached by this
 *    worker (tokenCache.ts) until a minute before it expires (the marketplace grants 3600 s) and then
 *    refreshed; a refresh that rotates the refresh token stores the new one. An API call answered 401/403 with a
 *    cached access token (revoked early) drops it, refreshes once and is tried again.
 * 3. Neither (no secret, no OAuth client, or no refresh token stored yet), or no MARKETPLACE_PACKAGE_NAME → no
 *    credential: the caller fails closed (spec Authentication 9: every purchase is then invalid).
 *
 * Errors: {@link MarketplaceError} from the marketplace; a refresh token the marketplace refuses (revoked) is
 * `unauthorized`, so the caller answers 503 and leaves orders as they are until staff authorize again.
 */
import { isConditionFailure } from '../db/conditions';
import type { Deps } from '../deps';
import { logger } from '../log';
import { type MarketplaceAuth, MarketplaceError } from '../providers/ports';
import { readCredential, rotateRefreshToken } from './credential.entity';

/** Whether OAuth can be used at all: a client and a redirect URI (PUBLIC_BASE_URL) are configured. */
export const oauthConfigured = (deps: Pick<Deps, 'marketplace' | 'settings'>): boolean =>
  deps.marketplace.oauthClientConfigured && Boolean(deps.settings.marketplace.redirectUri);

/** A fresh access token from the stored refresh token (one refresh per worker at a time), or undefined without one. */
async function refreshedAccessToken(deps: Deps): Promise<string | undefined> {
  const credential = await readCredential(deps.db);
  if (!credential) return undefined;
  const cache = deps.marketplaceTokens;
  cache.pending ??= (async () => {
    try {
      const tokens = await deps.marketplace.refreshAccessToken(credential.refreshToken);
      const now = deps.clock.now();
      if (tokens.refreshToken && tokens.refreshToken !== credential.refreshToken) {
        await rotateRefreshToken(deps.db, credential.refreshToken, tokens.refreshToken, now).catch((error: unknown) => {
          if (!isConditionFailure(error)) throw error; // another worker stored its rotation first
        });
      }
      cache.set(tokens.accessToken, now, tokens.expiresIn);
      return tokens.accessToken;
    } catch (error) {
      if (error instanceof MarketplaceError && error.kind === 'refused') {
        logger.error('marketplace: the stored refresh token was refused; staff must authorize again', { status: error.status });
        throw new MarketplaceError('unauthorized', error.status, 'The marketplace refused the stored refresh token');
      }
      throw error;
    } finally {
      cache.pending = undefined;
    }
  })();
  return cache.pending;
}

/** The credential of the next call, or undefined when there is none (see the module doc). Errors: {@link MarketplaceError}. */
export async function marketplaceAuth(deps: Deps): Promise<MarketplaceAuth | undefined> {
  if (!deps.marketplace.packageName) return undefined;
  const secret = deps.settings.marketplace.apiSecret;
  if (secret) return { kind: 'static_secret', secret };
  if (!oauthConfigured(deps)) return undefined;
  const cached = deps.marketplaceTokens.get(deps.clock.now());
  const accessToken = cached ?? (await refreshedAccessToken(deps));
  return accessToken ? { kind: 'access_token', accessToken } : undefined;
}

/**
 * Runs `call` with the current credential: `{ value }`, or `undefined` when there is no credential (fail closed).
 * An access token answered 401/403 is refreshed once and the call repeated (see the module doc).
 * Errors: {@link MarketplaceError} of the call or of the refresh.
 */
export async function withMarketplaceAuth<T>(deps: Deps, call: (auth: MarketplaceAuth) => Promise<T>): Promise<{ value: T } | undefined> {
  const auth = await marketplaceAuth(deps);
  if (!auth) return undefined;
  try {
    return { value: await call(auth) };
  } catch (error) {
    if (!(error instanceof MarketplaceError) || error.kind !== 'unauthorized' || auth.kind !== 'access_token') throw error;
    deps.marketplaceTokens.clear();
    const accessToken = await refreshedAccessToken(deps);
    if (!accessToken) return undefined;
    return { value: await call({ kind: 'access_token', accessToken }) };
  }
}
