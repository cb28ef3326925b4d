/**
 * Error codes of the marketplace connection (spec Authentication 8 and 9, Errors; DESIGN §3, §8). The HTTP status
 * of each code is chosen only at the edge (`packages/functions/src/lib/errors.ts`).
 */
import { DomainError } from '../errors';

/** Seconds a client should wait before retrying a step the marketplace could not serve. */
export const MARKETPLACE_RETRY_AFTER_SECONDS = 60;

export const marketplaceErrors = {
  /** 503: the marketplace answered 401, 403, 5xx, timed out or could not be reached (DESIGN §8). */
  unavailable: (detail = 'The marketplace could not be asked; try again shortly') =>
    new DomainError('marketplace_unavailable', detail, { retryAfter: MARKETPLACE_RETRY_AFTER_SECONDS }),
  /** 403: the one-time authorization (GET /api/payment/marketplace/verify) outside an open window. */
  windowClosed: () =>
    new DomainError(
      'authorization_window_closed',
      'No marketplace authorization window is open; staff open one from the admin API or with npm run marketplace:authorize',
    ),
  /** 400: the authorization came back without a usable code, with another state, or the marketplace refused the code. */
  authorizationInvalid: (detail: string) => new DomainError('authorization_invalid', detail),
  /** 409: a window was asked for but no OAuth client is configured (MARKETPLACE_CLIENT_ID, MARKETPLACE_CLIENT_SECRET). */
  oauthNotConfigured: () =>
    new DomainError(
      'marketplace_oauth_not_configured',
      'The marketplace OAuth client is not configured: set MARKETPLACE_CLIENT_ID, MARKETPLACE_CLIENT_SECRET and PUBLIC_BASE_URL',
    ),
};
