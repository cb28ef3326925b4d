import { SignJWT } from 'jose';
import { describe, expect, it, vi } from 'vitest';
import { fakeDeps } from '../testing';
import { ACCESS_TOKEN_SECONDS, signAccessToken, verifyAccessToken } from './tokens';

describe('access tokens', () => {
  it('verify within the hour and expire after it, on the fake clock', async () => {
    const deps = fakeDeps();
    const token = await signAccessToken(deps, 42, 'session-1');
    await expect(verifyAccessToken(deps, token)).resolves.toEqual({ userId: 42, sessionId: 'session-1' });
    deps.clock.advance(ACCESS_TOKEN_SECONDS + 1);
    await expect(verifyAccessToken(deps, token)).rejects.toMatchObject({ code: 'token_invalid' });
  });

  it('refuse a token signed under another SECRET_KEY', async () => {
    const token = await signAccessToken(fakeDeps({ env: { SECRET_KEY: 'another-secret-key-0123456789abcdef0123' } }), 1, 's');
    await expect(verifyAccessToken(fakeDeps(), token)).rejects.toMatchObject({ code: 'token_invalid' });
  });
});

describe('verified tokens kept by the worker (issue 30 §5)', () => {
  it('checks a known token’s signature once, and its time claims on every use', async () => {
    const deps = fakeDeps();
    const token = await signAccessToken(deps, 7, 'session-7');
    const verify = vi.spyOn(crypto.subtle, 'verify');
    try {
      for (let i = 0; i < 3; i++) await expect(verifyAccessToken(deps, token)).resolves.toEqual({ userId: 7, sessionId: 'session-7' });
      expect(verify).toHaveBeenCalledTimes(1);
      // The last second of its hour is still valid; the next one is not, cached or not.
      deps.clock.advance(ACCESS_TOKEN_SECONDS - 1);
      await expect(verifyAccessToken(deps, token)).resolves.toMatchObject({ userId: 7 });
      deps.clock.advance(1);
      await expect(verifyAccessToken(deps, token)).rejects.toMatchObject({ code: 'token_invalid' });
    } finally {
      verify.mockRestore();
    }
  });

  it('refuses a known token when the clock is before its issue time, and under another key', async () => {
    const deps = fakeDeps();
    const token = await signAccessToken(deps, 8, 's');
    await verifyAccessToken(deps, token);
    deps.clock.advance(-5);
    await expect(verifyAccessToken(deps, token)).rejects.toMatchObject({ code: 'token_invalid' });
    const other = fakeDeps({ env: { SECRET_KEY: 'another-secret-key-0123456789abcdef0123' } });
    await expect(verifyAccessToken(other, token)).rejects.toMatchObject({ code: 'token_invalid' });
  });

  it('never keeps a refused token', async () => {
    const deps = fakeDeps();
    const token = await signAccessToken(deps, 9, 's');
    const forged = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    const verify = vi.spyOn(crypto.subtle, 'verify');
    try {
      for (let i = 0; i < 2; i++) await expect(verifyAccessToken(deps, forged)).rejects.toMatchObject({ code: 'token_invalid' });
      expect(verify).toHaveBeenCalledTimes(2);
    } finally {
      verify.mockRestore();
    }
  });
});

describe('fakeDeps', () => {
  it('has no database unless one is given', async () => {
    const deps = fakeDeps();
    await expect(deps.content.get()).rejects.toThrow(/without a database/);
  });
});

describe('access token lifetime (DESIGN §12)', () => {
  const signed = (deps: ReturnType<typeof fakeDeps>, claims: { iat?: number; exp: number }) => {
    const jwt = new SignJWT({ sid: 'session-1' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject('42')
      .setIssuer('mathisland')
      .setAudience('mathisland:access')
      .setExpirationTime(claims.exp);
    return (claims.iat === undefined ? jwt : jwt.setIssuedAt(claims.iat)).sign(deps.secretKey);
  };

  it('refuses a correctly signed token whose exp - iat exceeds the lifetime', async () => {
    const deps = fakeDeps();
    const now = Math.floor(deps.clock.now() / 1000);
    await expect(verifyAccessToken(deps, await signed(deps, { iat: now, exp: now + 10 * 365 * 86400 }))).rejects.toMatchObject({
      code: 'token_invalid',
    });
    await expect(verifyAccessToken(deps, await signed(deps, { iat: now, exp: now + ACCESS_TOKEN_SECONDS + 1 }))).rejects.toMatchObject({
      code: 'token_invalid',
    });
    await expect(verifyAccessToken(deps, await signed(deps, { iat: now, exp: now + ACCESS_TOKEN_SECONDS }))).resolves.toEqual({
      userId: 42,
      sessionId: 'session-1',
    });
  });

  it('refuses a token without iat, issued in the future, or issued longer ago than the lifetime', async () => {
    const deps = fakeDeps();
    const now = Math.floor(deps.clock.now() / 1000);
    for (const claims of [
      { exp: now + 600 },
      { iat: now + 3000, exp: now + 3600 },
      { iat: now - ACCESS_TOKEN_SECONDS - 10, exp: now + 60 },
    ]) {
      await expect(verifyAccessToken(deps, await signed(deps, claims)), JSON.stringify(claims)).rejects.toMatchObject({
        code: 'token_invalid',
      });
    }
  });
});
