/**
 * The marketplace: a Cafe Bazaar developer API v2 client over `fetch` (providers.md §2; DESIGN §8).
 *
 * - API base `{MARKETPLACE_BASE_URL}/devapi/v2/api`; every path ends with a slash (the real API answers a path
 *   without one with a 301, which this client never follows) and every path part is URL-encoded, the purchase
 *   token included (spec "The client's token is URL-quoted before use").
 *   - in-app: `GET /validate/{package}/inapp/{product}/purchases/{token}/` → `{ purchaseState, consumptionState,
 *     developerPayload, purchaseTime }`;
 *   - subscription: `GET /applications/{package}/subscriptions/{subscription}/purchases/{token}/` →
 *     `{ initiationTimestampMsec, validUntilTimestampMsec, autoRenewing }`.
 * - Authorization of an API call: the static secret in the real header `CAFEBAZAAR-PISHKHAN-API-SECRET` (the
 *   spec's neutral `MARKETPLACE-PISHKHAN-API-SECRET`, spec Authentication 8), or `Authorization: Bearer
 *   <access token>` from the OAuth flow (spec Authentication 9).
 * - OAuth: the consent page `{base}/devapi/v2/auth/authorize/?response_type=code&access_type=offline&redirect_uri&
 *   client_id&state`; the token endpoint `POST {base}/devapi/v2/auth/token/`, form-encoded (never JSON), with
 *   `grant_type=authorization_code` (code, client_id, client_secret, redirect_uri) or `grant_type=refresh_token`
 *   (client_id, client_secret, refresh_token) → `{ access_token, token_type, expires_in, refresh_token?, scope }`.
 *
 * Answers: 200 with the marketplace's JSON; 404 `{"error":"not_found"}` is the only proof a purchase does not
 * exist. Errors: {@link MarketplaceError} (see its kinds). Each call has a {@link MARKETPLACE_TIMEOUT_MS} timeout,
 * so a verification that refreshes the access token first (two calls) stays under API Gateway's 30 s.
 * No message carries a token, a secret or a body.
 */
import {
  type InappPurchase,
  type Marketplace,
  type MarketplaceAuth,
  MarketplaceError,
  type MarketplaceTokens,
  type SubscriptionPurchase,
} from './ports';

/** Per call, ms. */
export const MARKETPLACE_TIMEOUT_MS = 8_000;
/** The static secret's header (the real name of the spec's `MARKETPLACE-PISHKHAN-API-SECRET`, DESIGN §8). */
export const STATIC_SECRET_HEADER = 'CAFEBAZAAR-PISHKHAN-API-SECRET';

export interface CafeBazaarOptions {
  /** MARKETPLACE_BASE_URL without a trailing slash. */
  baseUrl: string;
  packageName?: string;
  clientId?: string;
  clientSecret?: string;
  timeoutMs?: number;
}

type Json = Record<string, unknown>;

/** The JSON object of `response`, or undefined when the body is not one. */
async function jsonObject(response: Response): Promise<Json | undefined> {
  const value = (await response.json().catch(() => undefined)) as unknown;
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
}

/** The error for a non-200 answer of an API call (see the module doc). */
function errorOf(status: number, body: Json | undefined, what: string): MarketplaceError {
  if (status === 404 && body?.error === 'not_found')
    return new MarketplaceError('not_found', 404, `The marketplace does not know this ${what}`);
  if (status === 401 || status === 403)
    return new MarketplaceError('unauthorized', status, `The marketplace refused our credential (HTTP ${status})`);
  if (status >= 400 && status < 500 && status !== 404 && status !== 408 && status !== 429) {
    const code = typeof body?.error === 'string' ? ` ${body.error}` : '';
    return new MarketplaceError('refused', status, `The marketplace refused the ${what} request (HTTP ${status}${code})`);
  }
  return new MarketplaceError('unavailable', status, `The marketplace answered HTTP ${status}`);
}

const epochMs = (value: unknown): number | undefined => {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
};

const malformed = (what: string) =>
  new MarketplaceError('unavailable', 200, `The marketplace answered the ${what} without its usual fields`);

export function createCafeBazaarMarketplace(options: CafeBazaarOptions): Marketplace {
  const api = `${options.baseUrl}/devapi/v2/api`;
  const auth = `${options.baseUrl}/devapi/v2/auth`;
  const timeoutMs = options.timeoutMs ?? MARKETPLACE_TIMEOUT_MS;
  const part = encodeURIComponent;

  async function send(url: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    } catch {
      throw new MarketplaceError('unavailable', undefined, 'The marketplace could not be reached (network error or timeout)');
    }
  }

  async function get(credential: MarketplaceAuth, path: string, what: string): Promise<Json> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (credential.kind === 'static_secret') headers[STATIC_SECRET_HEADER] = credential.secret;
    else headers.authorization = `Bearer ${credential.accessToken}`;
    const response = await send(`${api}${path}`, { method: 'GET', headers });
    const body = await jsonObject(response);
    if (response.status !== 200) throw errorOf(response.status, body, what);
    if (!body) throw malformed(what);
    return body;
  }

  const packageName = (): string => {
    if (!options.packageName) throw new MarketplaceError('refused', undefined, 'MARKETPLACE_PACKAGE_NAME is not configured');
    return options.packageName;
  };

  async function token(form: Record<string, string>): Promise<MarketplaceTokens> {
    if (!options.clientId || !options.clientSecret) {
      throw new MarketplaceError('refused', undefined, 'No OAuth client (MARKETPLACE_CLIENT_ID, MARKETPLACE_CLIENT_SECRET) is configured');
    }
    const response = await send(`${auth}/token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ ...form, client_id: options.clientId, client_secret: options.clientSecret }),
    });
    const body = await jsonObject(response);
    if (response.status !== 200) {
      // The token endpoint answers a bad code or client with 400/401: the request is refused, not the service down.
      if (response.status === 400 || response.status === 401) throw errorOf(400, body, 'token');
      throw errorOf(response.status, body, 'token');
    }
    const expiresIn = epochMs(body?.expires_in);
    if (typeof body?.access_token !== 'string' || !body.access_token || expiresIn === undefined) throw malformed('token request');
    return {
      accessToken: body.access_token,
      expiresIn,
      ...(typeof body.refresh_token === 'string' && body.refresh_token ? { refreshToken: body.refresh_token } : {}),
    };
  }

  return {
    packageName: options.packageName,
    oauthClientConfigured: Boolean(options.clientId && options.clientSecret),

    async validateInapp(credential, productId, purchaseToken): Promise<InappPurchase> {
      const body = await get(
        credential,
        `/validate/${part(packageName())}/inapp/${part(productId)}/purchases/${part(purchaseToken)}/`,
        'purchase',
      );
      const purchaseState = epochMs(body.purchaseState);
      const purchaseTime = epochMs(body.purchaseTime);
      if (purchaseState === undefined || purchaseTime === undefined) throw malformed('purchase validation');
      return {
        purchaseState,
        consumptionState: epochMs(body.consumptionState) ?? 1,
        purchaseTime,
        ...(typeof body.developerPayload === 'string' && body.developerPayload ? { developerPayload: body.developerPayload } : {}),
      };
    },

    async subscriptionStatus(credential, subscriptionId, purchaseToken): Promise<SubscriptionPurchase> {
      const path = `/applications/${part(packageName())}/subscriptions/${part(subscriptionId)}/purchases/${part(purchaseToken)}/`;
      const body = await get(credential, path, 'subscription');
      const validUntil = epochMs(body.validUntilTimestampMsec);
      if (validUntil === undefined) throw malformed('subscription status');
      return {
        initiationTime: epochMs(body.initiationTimestampMsec) ?? 0,
        validUntil,
        autoRenewing: body.autoRenewing === true,
      };
    },

    authorizeUrl({ redirectUri, state }) {
      const query = new URLSearchParams({
        response_type: 'code',
        access_type: 'offline',
        redirect_uri: redirectUri,
        client_id: options.clientId ?? '',
        state,
      });
      return `${auth}/authorize/?${query}`;
    },

    exchangeCode: ({ code, redirectUri }) => token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri }),

    refreshAccessToken: (refreshToken) => token({ grant_type: 'refresh_token', refresh_token: refreshToken }),
  };
}
