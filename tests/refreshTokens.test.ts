/**
 * Learner tokens (issue 22 §4; DESIGN §3, §12): refresh tokens rotate on every refresh, a spent one used again ends
 * the whole sign-in (every refresh and access token of it) and is logged as a security event without any secret; an
 * access token signed with the right key but living longer than an hour is refused.
 */
import { logger } from '@mathisland/core';
import { SignJWT } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { call, signIn, type TestStack, useStack } from './support/stack';

const refresh = (stack: TestStack, refreshToken: string) => call(stack, 'POST', '/api/auth/refresh', { body: { refreshToken } });
const home = (stack: TestStack, token: string) => call(stack, 'GET', '/api/home', { token });

/** The security events logged while `run` runs, as the JSON they would be written as. */
async function securityEvents(run: () => Promise<void>): Promise<string[]> {
  const warn = vi.spyOn(logger, 'warn');
  await run();
  return warn.mock.calls.filter(([message]) => String(message).startsWith('security event')).map((args) => JSON.stringify(args));
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('refresh-token rotation', () => {
  const stack = useStack();

  it('answers a new refresh token with each access token; the new one refreshes again, in a chain', async () => {
    const s = await signIn(stack);
    let current = s.refreshToken;
    const seen = new Set([current]);
    for (let i = 0; i < 3; i++) {
      const res = await refresh(stack, current);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ accessToken: expect.any(String), refreshToken: expect.any(String), expiresIn: 3600 });
      expect(seen.has(res.body.refreshToken)).toBe(false);
      seen.add(res.body.refreshToken);
      current = res.body.refreshToken;
      expect((await home(stack, res.body.accessToken)).status).toBe(200);
    }
    // The last one still ends the sign-in on logout.
    expect((await call(stack, 'POST', '/api/auth/logout', { body: { refreshToken: current } })).status).toBe(204);
    expect((await refresh(stack, current)).status).toBe(401);
  });

  it('ends the whole sign-in when a spent token is used again, and logs it as a security event with no secret', async () => {
    const s = await signIn(stack);
    const first = await refresh(stack, s.refreshToken);
    expect(first.status).toBe(200);
    let reuse!: Awaited<ReturnType<typeof refresh>>;
    const events = await securityEvents(async () => {
      reuse = await refresh(stack, s.refreshToken);
    });
    expect(reuse.status).toBe(401);
    expect(reuse.body.code).toBe('token_invalid');
    // Every token of the family is dead: the new refresh token, the new access token and the login's access token.
    expect((await refresh(stack, first.body.refreshToken)).status).toBe(401);
    expect((await home(stack, first.body.accessToken)).status).toBe(401);
    expect((await home(stack, s.accessToken)).status).toBe(401);
    expect(events).toHaveLength(1);
    expect(events[0]).toContain('refresh_token_reuse');
    expect(events[0]).toContain(`"userId":${s.userId}`);
    for (const secret of [s.refreshToken, first.body.refreshToken, s.accessToken, first.body.accessToken]) {
      expect(events[0]).not.toContain(secret);
    }
    // A new sign-in works as before.
    const again = await signIn(stack, s.phone);
    expect((await home(stack, again.accessToken)).status).toBe(200);
    expect((await refresh(stack, again.refreshToken)).status).toBe(200);
  });

  it('treats a spent token sent to logout as a reuse too', async () => {
    const s = await signIn(stack);
    const next = await refresh(stack, s.refreshToken);
    const out = await call(stack, 'POST', '/api/auth/logout', { body: { refreshToken: s.refreshToken } });
    expect(out.status).toBe(401);
    expect((await home(stack, next.body.accessToken)).status).toBe(401);
    expect((await refresh(stack, next.body.refreshToken)).status).toBe(401);
  });

  it('lets at most one of two parallel refreshes with one token win, and then ends the sign-in', async () => {
    const s = await signIn(stack);
    const results = await Promise.all([refresh(stack, s.refreshToken), refresh(stack, s.refreshToken)]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 401]);
    const winner = results.find((r) => r.status === 200)!;
    expect((await refresh(stack, winner.body.refreshToken)).status).toBe(401);
  });

  it('keeps the sign-in’s expiry: a rotated token expires 30 days after the login, not after the refresh', async () => {
    const s = await signIn(stack);
    stack.clock.advance(29 * 86400);
    const late = await refresh(stack, s.refreshToken);
    expect(late.status).toBe(200);
    stack.clock.advance(86400 + 1);
    const expired = await refresh(stack, late.body.refreshToken);
    expect(expired.status).toBe(401);
    expect(expired.body.detail).toMatch(/expired/);
  });
});

describe('access token lifetime', () => {
  const stack = useStack();

  const forge = (claims: { sub: string; sid: string }, times: { iat?: number; exp: number }) => {
    const jwt = new SignJWT({ sid: claims.sid })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.sub)
      .setIssuer('mathisland')
      .setAudience('mathisland:access')
      .setExpirationTime(times.exp);
    return (times.iat === undefined ? jwt : jwt.setIssuedAt(times.iat)).sign(stack.deps.secretKey);
  };

  it('refuses a token signed with the service’s own key that lives longer than an hour', async () => {
    const s = await signIn(stack);
    const claims = JSON.parse(Buffer.from(s.accessToken.split('.')[1]!, 'base64url').toString()) as { sub: string; sid: string };
    const now = Math.floor(stack.clock.now() / 1000);
    const tenYears = await forge(claims, { iat: now, exp: now + 10 * 365 * 86400 });
    const res = await home(stack, tenYears);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('token_invalid');
    // The same claims for an hour, and the login's own token, pass: the key and the session are right.
    expect((await home(stack, await forge(claims, { iat: now, exp: now + 3600 }))).status).toBe(200);
    expect((await home(stack, s.accessToken)).status).toBe(200);
    // No iat, or one in the future, is refused too.
    expect((await home(stack, await forge(claims, { exp: now + 600 }))).status).toBe(401);
    expect((await home(stack, await forge(claims, { iat: now + 1800, exp: now + 3600 }))).status).toBe(401);
  });
});
