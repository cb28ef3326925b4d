/**
 * Local fake of the Cafe Bazaar developer API v2 (providers.md §2 and its "Summary for building local fake servers";
 * DESIGN §6), mounted at `/_local/marketplace`, speaking the wire protocol of the real one:
 *
 * - `GET /devapi/v2/api/validate/{package}/inapp/{product}/purchases/{token}/` → `{ consumptionState, purchaseState,
 *   kind: 'androidpublisher#inappPurchase', developerPayload, purchaseTime }`: `purchaseState` 0 purchased, 1 refunded
 *   (a refunded in-app purchase is still found, as the real one answers); `consumptionState` 1 until the app consumed
 *   it (control route `consume`), then 0.
 * - `GET /devapi/v2/api/applications/{package}/subscriptions/{subscription}/purchases/{token}/` → `{ kind:
 *   'androidpublisher#subscriptionPurchase', initiationTimestampMsec, validUntilTimestampMsec, autoRenewing }`.
 * - Unknown or other-product purchases, and refunded subscriptions: 404 `{ error: 'not_found', error_description }`; another package:
 *   403. Every path wants its trailing slash: without it the answer is a 301 to the slashed path, as the real API.
 * - Auth like the real one: header `CAFEBAZAAR-PISHKHAN-API-SECRET` equal to the app's static secret, or an OAuth
 *   access token it granted (`Authorization: Bearer`, or `?access_token=`) not yet expired; else 401.
 * - `POST /devapi/v2/auth/token/`, form-encoded only (JSON is 400 `invalid_request`): `grant_type=authorization_code`
 *   (code, client_id, client_secret, redirect_uri) → `{ access_token, token_type: 'Bearer', expires_in: 3600,
 *   refresh_token, scope: 'androidpublisher' }`; `grant_type=refresh_token` → a new access token. A used, unknown or
 *   expired code, or another redirect_uri, is 400 `invalid_grant`; a wrong client 401 `invalid_client`.
 * - The owner's consent page (marketplaceConsent.ts): `GET /devapi/v2/auth/authorize/?…` (also `/authorize`).
 *
 * Control routes (local only; docs/marketplace.md; marketplaceControl.ts): `POST /purchases` (signed like the real
 * marketplace signs what the app receives), `POST /purchases/{token}/renew`, `POST /purchases/{token}/refund`,
 * `POST /purchases/{token}/cancel`, `POST /purchases/{token}/consume`, `GET /public-key`, `POST /faults { status, count, delayMs? }` (the next `count` API and token calls
 * answer `status`, or answer late by `delayMs`), `GET /requests` (the calls received, newest last: method, path,
 * content type, which auth was presented, grant type; never a secret).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { consentPage, consentRedirect } from './marketplaceConsent';
import { controlRoutes } from './marketplaceControl';
import { decode, type FakeMarketplaceRequest, type FakePurchase, json, type MarketplaceFakeOptions, token } from './marketplaceState';

export type { FakeMarketplaceRequest, FakePurchase, MarketplaceFakeOptions } from './marketplaceState';

export const SECRET_HEADER = 'cafebazaar-pishkhan-api-secret';
const ACCESS_TOKEN_SECONDS = 3600;
const CODE_SECONDS = 600;

const problem = (res: ServerResponse, status: number, error: string, description: string) =>
  json(res, status, { error, error_description: description });

export function createMarketplaceFake(options: MarketplaceFakeOptions) {
  const purchases = new Map<string, FakePurchase>();
  const codes = new Map<string, { redirectUri: string; expiresAt: number }>();
  const refreshTokens = new Set<string>();
  const accessTokens = new Map<string, number>();
  const faults: Array<{ status?: number; delayMs?: number }> = [];
  const requests: FakeMarketplaceRequest[] = [];
  const control = controlRoutes({ purchases, faults, requests, options });

  function authOf(req: IncomingMessage, url: URL): FakeMarketplaceRequest['auth'] {
    if (req.headers[SECRET_HEADER] !== undefined) return 'static_secret';
    if (/^Bearer /i.test(req.headers.authorization ?? '')) return 'bearer';
    return url.searchParams.has('access_token') ? 'query' : 'none';
  }

  function authorized(req: IncomingMessage, url: URL): boolean {
    const secret = req.headers[SECRET_HEADER];
    if (secret !== undefined) return options.apiSecret !== undefined && secret === options.apiSecret;
    const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? url.searchParams.get('access_token');
    const expiresAt = bearer ? accessTokens.get(bearer) : undefined;
    return expiresAt !== undefined && options.now() < expiresAt;
  }

  function grantAccess(res: ServerResponse, refreshToken?: string) {
    const accessToken = token(20);
    accessTokens.set(accessToken, options.now() + ACCESS_TOKEN_SECONDS * 1000);
    json(res, 200, {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_SECONDS,
      ...(refreshToken ? { refresh_token: refreshToken } : {}),
      scope: 'androidpublisher',
    });
  }

  function tokenEndpoint(req: IncomingMessage, res: ServerResponse, body: Buffer) {
    if (!(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
      return problem(res, 400, 'invalid_request', 'The token endpoint takes an application/x-www-form-urlencoded body');
    }
    const form = new URLSearchParams(body.toString('utf8'));
    if (!options.clientId || form.get('client_id') !== options.clientId || form.get('client_secret') !== options.clientSecret) {
      return problem(res, 401, 'invalid_client', 'Client authentication failed');
    }
    if (form.get('grant_type') === 'authorization_code') {
      const code = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      if (!code || code.expiresAt <= options.now() || code.redirectUri !== form.get('redirect_uri')) {
        return problem(res, 400, 'invalid_grant', 'Invalid, used or expired code, or redirect_uri mismatch');
      }
      const refreshToken = token(30);
      refreshTokens.add(refreshToken);
      return grantAccess(res, refreshToken);
    }
    if (form.get('grant_type') === 'refresh_token') {
      if (!refreshTokens.has(form.get('refresh_token') ?? '')) return problem(res, 400, 'invalid_grant', 'Invalid refresh token');
      return grantAccess(res);
    }
    return problem(res, 400, 'unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
  }

  function purchaseApi(req: IncomingMessage, res: ServerResponse, url: URL, kind: FakePurchase['kind'], parts: string[]) {
    if (!authorized(req, url))
      return problem(res, 401, 'invalid_credentials', 'Authentication credentials were not provided or are invalid');
    const [packageName, productId, purchaseToken] = parts;
    if (packageName !== options.packageName) return problem(res, 403, 'permission_denied', 'This package does not belong to you');
    const p = purchaseToken === undefined ? undefined : purchases.get(purchaseToken);
    if (!p || p.productId !== productId || p.kind !== kind || p.packageName !== packageName || (p.refunded && kind === 'subscription')) {
      return problem(res, 404, 'not_found', 'The requested purchase is not found!');
    }
    if (kind === 'inapp') {
      return json(res, 200, {
        consumptionState: p.consumed ? 0 : 1,
        purchaseState: p.refunded ? 1 : 0,
        kind: 'androidpublisher#inappPurchase',
        developerPayload: p.developerPayload,
        purchaseTime: p.purchaseTime,
      });
    }
    return json(res, 200, {
      kind: 'androidpublisher#subscriptionPurchase',
      initiationTimestampMsec: p.purchaseTime,
      validUntilTimestampMsec: p.validUntil,
      autoRenewing: p.autoRenewing,
    });
  }

  function issueCode(redirectUri: string): string {
    const code = token(16);
    codes.set(code, { redirectUri, expiresAt: options.now() + CODE_SECONDS * 1000 });
    return code;
  }

  /** An API or token call: recorded, then a pending fault, then the answer. */
  async function apiCall(req: IncomingMessage, res: ServerResponse, url: URL, path: string, body: Buffer, answer: () => void) {
    const grantType = path.endsWith('/auth/token/')
      ? (new URLSearchParams(body.toString('utf8')).get('grant_type') ?? undefined)
      : undefined;
    requests.push({
      method: req.method ?? 'GET',
      path,
      contentType: req.headers['content-type'] ?? null,
      auth: authOf(req, url),
      ...(grantType ? { grantType } : {}),
      at: options.now(),
    });
    const fault = faults.shift();
    if (fault?.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs));
    if (res.destroyed) return;
    if (fault?.status) {
      const error = fault.status === 404 ? 'not_found' : fault.status < 500 ? 'invalid_credentials' : 'server_error';
      return problem(res, fault.status, error, `fault injected: HTTP ${fault.status}`);
    }
    answer();
  }

  return {
    purchases,
    requests,
    options,
    /** Handles a request under `/_local/marketplace`; `path` is the rest. Returns false when not its route. */
    async handle(req: IncomingMessage, res: ServerResponse, path: string, url: URL, body: Buffer): Promise<boolean> {
      if (path.startsWith('/devapi/v2/') && !path.endsWith('/')) {
        res.writeHead(301, { location: `/_local/marketplace${path}/${url.search}` });
        res.end();
        return true;
      }
      const api =
        /^\/devapi\/v2\/api\/(?:validate\/([^/]+)\/inapp|applications\/([^/]+)\/subscriptions)\/([^/]+)\/purchases\/([^/]+)\/$/.exec(path);
      if (api && req.method === 'GET') {
        const kind = api[1] !== undefined ? 'inapp' : 'subscription';
        const parts = [api[1] ?? api[2], api[3], api[4]].map((p) => decode(p as string) ?? '');
        await apiCall(req, res, url, path, body, () => purchaseApi(req, res, url, kind, parts));
        return true;
      }
      if (path === '/devapi/v2/auth/token/' && req.method === 'POST') {
        await apiCall(req, res, url, path, body, () => tokenEndpoint(req, res, body));
        return true;
      }
      if (path === '/devapi/v2/auth/authorize/' || path === '/authorize') {
        if (req.method === 'GET') consentPage(res, url, options);
        else if (req.method === 'POST') consentRedirect(res, url, body, options, issueCode);
        else return false;
        return true;
      }
      return control(req, res, path, body);
    },
  };
}
