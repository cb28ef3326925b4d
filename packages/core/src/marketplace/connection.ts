/**
 * The marketplace connection for staff and for the account owner (spec Authentication 9, "Marketplace
 * credential"; DESIGN §8 routes `GET /api/admin/marketplace`, `POST /api/admin/marketplace/authorize-window`,
 * `GET /api/payment/marketplace/verify?code=&state=`; `npm run marketplace:authorize`):
 *
 * - {@link connectionStatus}: which credential mode is in force and whether it is usable, and the window.
 * - {@link openAuthorizeWindow}: staff open a window of MARKETPLACE_AUTHORIZE_WINDOW_HOURS (72) or `hours`, with a
 *   new random `state`; the consent link goes to the account owner. A new window replaces an open one.
 * - {@link completeAuthorization}: the owner approved and the marketplace redirected back with `code` (and `state`,
 *   checked when echoed). Inside an open window only: the code is exchanged once (form-encoded, providers.md §2),
 *   the refresh token stored and the window closed in one transaction; the access token is cached.
 *
 * Both changes append a staff history entry (DESIGN §9) to one record, {@link CONNECTION_RECORD}, in the same
 * transaction: opening names when the window closes; storing a credential is on behalf of whoever opened the window
 * (the owner's redirect carries no staff session) and records the refresh token only as `"changed"`.
 */
import { randomBytes } from 'node:crypto';
import { isConditionFailure } from '../db/conditions';
import { transact } from '../db/transact';
import type { Deps } from '../deps';
import { historyItems } from '../history';
import { MarketplaceError } from '../providers/ports';
import { oauthConfigured } from './access';
import { type AuthorizeWindow, closeWindow, putCredential, readCredential, readWindow, windowItem } from './credential.entity';
import { marketplaceErrors } from './errors';

/** Which credential verifications use: the static secret wins over OAuth (spec Authentication 8). */
export type CredentialMode = 'static_secret' | 'oauth' | 'none';

export interface ConnectionStatus {
  mode: CredentialMode;
  /** A verification can be authorized now: the static secret (with a package name), or a stored refresh token. */
  connected: boolean;
  /** The authorization window; `expiresAt` epoch ms and `authorizeUrl` only while open. */
  window: { open: boolean; expiresAt: number | null; authorizeUrl: string | null };
}

const HOUR_MS = 3_600_000;

/**
 * The staff history's record of the marketplace connection (model `marketplacecredential`): the panel's marketplace
 * page reads `GET /api/admin/history?model=marketplacecredential&objectId=connection`.
 */
export const CONNECTION_RECORD = { model: 'marketplacecredential', objectId: 'connection', objectRepr: 'marketplace connection' } as const;

/** The credential mode the settings select. */
export function credentialMode(deps: Pick<Deps, 'marketplace' | 'settings'>): CredentialMode {
  if (deps.settings.marketplace.apiSecret) return 'static_secret';
  return oauthConfigured(deps) ? 'oauth' : 'none';
}

/** The consent link of `window`. */
const consentLink = (deps: Deps, window: AuthorizeWindow): string =>
  deps.marketplace.authorizeUrl({ redirectUri: deps.settings.marketplace.redirectUri ?? '', state: window.state });

/** Whether a credential exists: what health reports as `marketplace` (DESIGN §8). Reads the table in OAuth mode. */
export async function marketplaceConnected(deps: Deps): Promise<boolean> {
  if (!deps.marketplace.packageName) return false;
  const mode = credentialMode(deps);
  if (mode === 'static_secret') return true;
  return mode === 'oauth' && (await readCredential(deps.db)) !== undefined;
}

/** `GET /api/admin/marketplace`: mode, connected, window (see {@link ConnectionStatus}). */
export async function connectionStatus(deps: Deps): Promise<ConnectionStatus> {
  const [connected, window] = await Promise.all([marketplaceConnected(deps), readWindow(deps.db)]);
  const open = window !== undefined && window.closesAt > deps.clock.now() && oauthConfigured(deps);
  return {
    mode: credentialMode(deps),
    connected,
    window: open
      ? { open, expiresAt: window.closesAt, authorizeUrl: consentLink(deps, window) }
      : { open, expiresAt: null, authorizeUrl: null },
  };
}

/**
 * Opens an authorization window for `hours` (default MARKETPLACE_AUTHORIZE_WINDOW_HOURS) on behalf of `actor` (a
 * staff username, or `script`). Returns the consent link for the account owner and when the window closes (epoch
 * ms). Errors: `marketplace_oauth_not_configured` (no OAuth client or no PUBLIC_BASE_URL for the redirect URI).
 */
export async function openAuthorizeWindow(
  deps: Deps,
  options: { hours?: number; actor: string },
): Promise<{ authorizeUrl: string; expiresAt: number }> {
  if (!oauthConfigured(deps)) throw marketplaceErrors.oauthNotConfigured();
  const now = deps.clock.now();
  const window: AuthorizeWindow = {
    state: randomBytes(24).toString('base64url'),
    openedAt: now,
    closesAt: now + (options.hours ?? deps.settings.marketplace.authorizeWindowHours) * HOUR_MS,
    openedBy: options.actor,
  };
  const previous = await readWindow(deps.db);
  const closes = (w: AuthorizeWindow | undefined) => (w && w.closesAt > now ? new Date(w.closesAt).toISOString() : null);
  // The history entry names when the window closes, never its state (the OAuth `state` is a secret).
  await transact(deps.db, [
    windowItem(deps.db, window),
    ...historyItems(deps.db, {
      at: now,
      staff: options.actor,
      action: 'change',
      ...CONNECTION_RECORD,
      changes: { windowClosesAt: [closes(previous), closes(window)] },
    }),
  ]);
  return { authorizeUrl: consentLink(deps, window), expiresAt: window.closesAt };
}

/**
 * Completes the one-time authorization with the `code` (and `state`) the marketplace redirected back with, or its
 * `error` (the owner denied). Returns the connection afterwards.
 *
 * Errors: `authorization_window_closed` (403: no window open, or it closed meanwhile: another code completed it),
 * `authorization_invalid` (400: no code, the owner denied, another `state`, the marketplace refused the code or
 * granted no refresh token), `marketplace_unavailable` (503: the token endpoint failed).
 */
export async function completeAuthorization(
  deps: Deps,
  query: { code?: string; state?: string; error?: string },
): Promise<{ mode: CredentialMode; connected: boolean }> {
  const now = deps.clock.now();
  const window = await readWindow(deps.db);
  if (!window || window.closesAt <= now || !oauthConfigured(deps)) throw marketplaceErrors.windowClosed();
  if (query.state !== undefined && query.state !== window.state) {
    throw marketplaceErrors.authorizationInvalid('The state does not match the open authorization window; open the current link');
  }
  if (query.error !== undefined || !query.code) {
    throw marketplaceErrors.authorizationInvalid(
      query.error ? `The marketplace account owner did not approve (${query.error})` : 'The redirect carries no code',
    );
  }
  let tokens: Awaited<ReturnType<Deps['marketplace']['exchangeCode']>>;
  try {
    tokens = await deps.marketplace.exchangeCode({ code: query.code, redirectUri: deps.settings.marketplace.redirectUri ?? '' });
  } catch (error) {
    if (!(error instanceof MarketplaceError)) throw error;
    if (error.kind === 'refused')
      throw marketplaceErrors.authorizationInvalid('The marketplace refused the code (used, expired or unknown)');
    throw marketplaceErrors.unavailable('The marketplace token endpoint could not be reached; ask the owner to approve again shortly');
  }
  if (!tokens.refreshToken) throw marketplaceErrors.authorizationInvalid('The marketplace granted no refresh token (access_type=offline)');
  try {
    const previous = await readCredential(deps.db);
    // On behalf of whoever opened the window; the refresh token itself never reaches the entry.
    await transact(deps.db, [
      putCredential(deps.db, { refreshToken: tokens.refreshToken, obtainedAt: now, authorizedVia: window.openedBy }),
      closeWindow(deps.db, window.state, now),
      ...historyItems(deps.db, {
        at: now,
        staff: window.openedBy,
        action: 'change',
        ...CONNECTION_RECORD,
        changes: {
          refreshToken: 'changed',
          obtainedAt: [previous ? new Date(previous.obtainedAt).toISOString() : null, new Date(now).toISOString()],
          windowClosesAt: [new Date(window.closesAt).toISOString(), null],
        },
      }),
    ]);
  } catch (error) {
    if (isConditionFailure(error)) throw marketplaceErrors.windowClosed();
    throw error;
  }
  deps.marketplaceTokens.set(tokens.accessToken, now, tokens.expiresIn);
  return { mode: credentialMode(deps), connected: true };
}
