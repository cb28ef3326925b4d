/**
 * The Cafe Bazaar client's wire handling (providers.md §2) against canned marketplace answers: paths with their
 * trailing slash and URL-quoted parts, the static secret's real header or a Bearer access token, 404 `not_found` as
 * the only proof a purchase does not exist, 401/403/5xx/timeouts/redirects as unavailable, and the form-encoded
 * token endpoint. No network: `fetch` is replaced for each test.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCafeBazaarMarketplace, STATIC_SECRET_HEADER } from './cafebazaar';
import { MarketplaceError } from './ports';

const BASE = 'https://pardakht.test';
const STATIC = { kind: 'static_secret', secret: 's3cret' } as const;
const BEARER = { kind: 'access_token', accessToken: 'acc' } as const;

function answer(status: number, body: unknown, headers: Record<string, string> = {}) {
  const fetch = vi.fn(
    async (_url: string, _init: RequestInit) =>
      new Response(typeof body === 'string' ? body : JSON.stringify(body), {
        status,
        headers: { 'content-type': 'application/json', ...headers },
      }),
  );
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

const marketplace = (options: { packageName?: string | null; client?: boolean } = {}) =>
  createCafeBazaarMarketplace({
    baseUrl: BASE,
    packageName: options.packageName === null ? undefined : (options.packageName ?? 'ir.app'),
    ...(options.client === false ? {} : { clientId: 'cid', clientSecret: 'csecret' }),
  });

afterEach(() => vi.unstubAllGlobals());

describe('purchase validation', () => {
  it('asks the in-app API with the static secret in its real header, every part URL-quoted, with the trailing slash', async () => {
    const fetch = answer(200, {
      consumptionState: 1,
      purchaseState: 0,
      kind: 'androidpublisher#inappPurchase',
      developerPayload: 'o7.x',
      purchaseTime: 1414181378566,
    });
    const result = await marketplace().validateInapp(STATIC, 'sku/1', 'tok en?#/%');
    expect(result).toEqual({ purchaseState: 0, consumptionState: 1, developerPayload: 'o7.x', purchaseTime: 1414181378566 });
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe(`${BASE}/devapi/v2/api/validate/ir.app/inapp/sku%2F1/purchases/tok%20en%3F%23%2F%25/`);
    expect(init.method).toBe('GET');
    expect(init.redirect).toBe('manual');
    expect(new Headers(init.headers).get(STATIC_SECRET_HEADER)).toBe('s3cret');
    expect(STATIC_SECRET_HEADER).toBe('CAFEBAZAAR-PISHKHAN-API-SECRET');
    expect(new Headers(init.headers).get('authorization')).toBeNull();
  });

  it('asks the subscription API with a Bearer access token and reads validUntil and autoRenewing', async () => {
    const fetch = answer(200, {
      kind: 'androidpublisher#subscriptionPurchase',
      initiationTimestampMsec: 1_000,
      validUntilTimestampMsec: '2000',
      autoRenewing: true,
    });
    expect(await marketplace().subscriptionStatus(BEARER, 'sub_1m', 'tok')).toEqual({
      initiationTime: 1_000,
      validUntil: 2_000,
      autoRenewing: true,
    });
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe(`${BASE}/devapi/v2/api/applications/ir.app/subscriptions/sub_1m/purchases/tok/`);
    expect(new Headers(init.headers).get('authorization')).toBe('Bearer acc');
    expect(new Headers(init.headers).get(STATIC_SECRET_HEADER)).toBeNull();
  });

  it.each([
    [404, { error: 'not_found', error_description: 'The requested purchase is not found!' }, 'not_found'],
    [404, '<html>no such page</html>', 'unavailable'],
    [401, { error: 'unauthorized' }, 'unauthorized'],
    [403, { error: 'forbidden' }, 'unauthorized'],
    [500, 'oops', 'unavailable'],
    [503, { error: 'server_error' }, 'unavailable'],
    [301, '', 'unavailable'],
    [429, { error: 'throttled' }, 'unavailable'],
    [400, { error: 'invalid_value' }, 'refused'],
    [200, { purchaseState: 'x' }, 'unavailable'],
    [200, 'not json', 'unavailable'],
  ])('answers HTTP %i %j as a MarketplaceError of kind %s', async (status, body, kind) => {
    answer(status, body);
    const error = await marketplace()
      .validateInapp(STATIC, 'sku', 'secret-token-value')
      .catch((e) => e);
    expect(error).toBeInstanceOf(MarketplaceError);
    expect(error).toMatchObject({ kind });
    expect(error.message).not.toContain('secret-token-value');
    expect(error.message).not.toContain('s3cret');
  });

  it('is unavailable when the network fails or the call times out', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new DOMException('The operation was aborted due to timeout', 'TimeoutError');
      }),
    );
    await expect(marketplace().subscriptionStatus(STATIC, 'sku', 't')).rejects.toMatchObject({ kind: 'unavailable', status: undefined });
  });

  it('refuses without a package name, before any request', async () => {
    const fetch = answer(200, {});
    await expect(marketplace({ packageName: null }).validateInapp(STATIC, 'sku', 't')).rejects.toMatchObject({ kind: 'refused' });
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe('OAuth', () => {
  it('builds the consent link of the client', () => {
    const url = new URL(marketplace().authorizeUrl({ redirectUri: 'https://api.test/api/payment/marketplace/verify', state: 'st' }));
    expect(`${url.origin}${url.pathname}`).toBe(`${BASE}/devapi/v2/auth/authorize/`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      access_type: 'offline',
      redirect_uri: 'https://api.test/api/payment/marketplace/verify',
      client_id: 'cid',
      state: 'st',
    });
  });

  it('exchanges a code and refreshes with form-encoded bodies at the token endpoint', async () => {
    const fetch = answer(200, {
      access_token: 'a1',
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: 'r1',
      scope: 'androidpublisher',
    });
    expect(await marketplace().exchangeCode({ code: 'c', redirectUri: 'https://api.test/cb' })).toEqual({
      accessToken: 'a1',
      expiresIn: 3600,
      refreshToken: 'r1',
    });
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe(`${BASE}/devapi/v2/auth/token/`);
    expect(new Headers(init.headers).get('content-type')).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(init.body as URLSearchParams)).toEqual({
      grant_type: 'authorization_code',
      code: 'c',
      redirect_uri: 'https://api.test/cb',
      client_id: 'cid',
      client_secret: 'csecret',
    });

    const refresh = answer(200, { access_token: 'a2', token_type: 'Bearer', expires_in: 3600, scope: 'androidpublisher' });
    expect(await marketplace().refreshAccessToken('r1')).toEqual({ accessToken: 'a2', expiresIn: 3600 });
    expect(Object.fromEntries(refresh.mock.calls[0]![1].body as URLSearchParams)).toEqual({
      grant_type: 'refresh_token',
      refresh_token: 'r1',
      client_id: 'cid',
      client_secret: 'csecret',
    });
  });

  it('reports a refused code or client as refused, a failing token endpoint as unavailable, no client as refused', async () => {
    answer(400, { error: 'invalid_grant' });
    await expect(marketplace().exchangeCode({ code: 'used', redirectUri: 'x' })).rejects.toMatchObject({ kind: 'refused' });
    answer(401, { error: 'invalid_client' });
    await expect(marketplace().refreshAccessToken('r')).rejects.toMatchObject({ kind: 'refused' });
    answer(502, 'bad gateway');
    await expect(marketplace().refreshAccessToken('r')).rejects.toMatchObject({ kind: 'unavailable' });
    const fetch = answer(200, {});
    await expect(marketplace({ client: false }).refreshAccessToken('r')).rejects.toMatchObject({ kind: 'refused' });
    expect(fetch).not.toHaveBeenCalled();
    expect(marketplace({ client: false }).oauthClientConfigured).toBe(false);
  });
});
