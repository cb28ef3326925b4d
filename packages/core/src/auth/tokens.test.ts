import { describe, expect, it } from 'vitest';
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

describe('fakeDeps', () => {
  it('has no database unless one is given', async () => {
    const deps = fakeDeps();
    await expect(deps.content.get()).rejects.toThrow(/without a database/);
  });
});
