/**
 * Which credential a marketplace call uses (spec Authentication 8 and 9): the static secret takes precedence; no
 * package name, no secret and no OAuth client mean no credential (fail closed). The OAuth path (stored refresh
 * token, cached access token) needs the table and is covered by tests/marketplaceConnection.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { FakeMarketplace, fakeDeps } from '../testing';
import { marketplaceAuth, withMarketplaceAuth } from './access';
import { credentialMode } from './connection';
import { AccessTokenCache } from './tokenCache';

describe('marketplace credential', () => {
  it('uses the static secret when set, even with an OAuth client configured', async () => {
    const deps = fakeDeps({ env: { MARKETPLACE_API_SECRET: 'fake-marketplace-secret', PUBLIC_BASE_URL: 'https://api.test' } });
    expect(credentialMode(deps)).toBe('static_secret');
    expect(await marketplaceAuth(deps)).toEqual({ kind: 'static_secret', secret: 'fake-marketplace-secret' });
    const token = deps.marketplace.mint({ productId: 'sku', kind: 'subscription' }, deps.clock.now());
    const answer = await withMarketplaceAuth(deps, (auth) => deps.marketplace.subscriptionStatus(auth, 'sku', token));
    expect(answer?.value.autoRenewing).toBe(true);
    expect(deps.marketplace.calls).toEqual([{ what: 'subscription', auth: 'static_secret' }]);
  });

  it('has no credential without a package name, or with neither a secret nor an OAuth client (fail closed)', async () => {
    const noPackage = fakeDeps({ env: { MARKETPLACE_API_SECRET: 'x' }, marketplace: new FakeMarketplace({ packageName: null }) });
    expect(await marketplaceAuth(noPackage)).toBeUndefined();
    const nothing = fakeDeps({ marketplace: new FakeMarketplace({ oauthClient: false }) });
    expect(credentialMode(nothing)).toBe('none');
    expect(await withMarketplaceAuth(nothing, async () => 'called')).toBeUndefined();
    // An OAuth client without PUBLIC_BASE_URL has no redirect URI: no OAuth either.
    expect(credentialMode(fakeDeps())).toBe('none');
    expect(credentialMode(fakeDeps({ env: { PUBLIC_BASE_URL: 'https://api.test' } }))).toBe('oauth');
  });

  it('caches an access token until a minute before it expires', () => {
    const cache = new AccessTokenCache();
    cache.set('a', 1_000_000, 3600);
    expect(cache.get(1_000_000 + 3_539_000)).toBe('a');
    expect(cache.get(1_000_000 + 3_540_000)).toBeUndefined();
    cache.clear();
    expect(cache.get(1_000_000)).toBeUndefined();
  });
});
