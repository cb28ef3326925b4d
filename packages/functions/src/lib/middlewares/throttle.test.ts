import { DomainError } from '@mathisland/core';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { throttleScopes } from '../../../../../infra/routes';
import { runPhase, type TestRequest, testRequest } from '../testing';
import { UNKNOWN_VIEWER, viewerOf } from '../viewer';
import { effectiveRule, throttle } from './throttle';

// The middleware's own decisions (which subject, which rule, counted once); the counting itself is the domain's
// (core throttle/hit.test, tests/throttle.test.ts).
const hit = vi.hoisted(() => vi.fn(async (..._args: unknown[]) => {}));
vi.mock('@mathisland/core/throttle', async (importOriginal) => ({ ...(await importOriginal<object>()), hit }));

beforeEach(() => hit.mockClear());

const viewer = viewerOf('198.51.100.7:443');
const request = (context: Partial<TestRequest['context']> = {}, env: Record<string, string> = {}) =>
  testRequest({ env, context: { viewer, ...context } });

describe('throttle', () => {
  it('counts a per-user scope on the signed-in learner, or staff member, else on the viewer', async () => {
    await runPhase(throttle({ scope: 'answer' }), request({ user: { id: 7 } as never }));
    await runPhase(throttle({ scope: 'answer' }), request({ staff: { username: 'support1' } as never }));
    await runPhase(throttle({ scope: 'answer' }), request());
    expect(hit.mock.calls.map((c) => [c[1], c[2], c[3]])).toEqual([
      ['answer', 'user:7', throttleScopes.answer],
      ['answer', 'staff:support1', throttleScopes.answer],
      ['answer', 'ip:198.51.100.7', throttleScopes.answer],
    ]);
  });

  it('counts a per-IP scope on the viewer even when someone is signed in, and an unknown viewer as such', async () => {
    await runPhase(throttle({ scope: 'login' }), request({ user: { id: 7 } as never }));
    await runPhase(throttle({ scope: 'login' }), request({ viewer: undefined }));
    expect(hit.mock.calls.map((c) => c[2])).toEqual(['ip:198.51.100.7', UNKNOWN_VIEWER.throttleKey]);
  });

  it('lets the 429 of a full window through', async () => {
    hit.mockRejectedValueOnce(new DomainError('throttled', 'full', { retryAfter: 5 }));
    await expect(runPhase(throttle({ scope: 'otp_request' }), request())).rejects.toMatchObject({ code: 'throttled' });
  });

  it('uses BENCH_THROTTLE_LIMIT instead of every limit when set', () => {
    expect(effectiveRule(request({}, { BENCH_THROTTLE_LIMIT: '100000' }).context, 'login')).toEqual({
      ...throttleScopes.login,
      limit: 100000,
    });
    expect(effectiveRule(request().context, 'login')).toEqual(throttleScopes.login);
  });

  describe('inTransaction', () => {
    const middleware = () => throttle({ scope: 'purchase', inTransaction: true });

    it('counts nothing before the route, and hands it a ticket instead', async () => {
      const r = await runPhase(middleware(), request({ user: { id: 7 } as never }));
      expect(hit).not.toHaveBeenCalled();
      expect(r.context.throttleTicket).toEqual({ scope: 'purchase', subject: 'user:7', rule: throttleScopes.purchase, counted: false });
    });

    it('counts nothing more when the route’s transaction took the ticket', async () => {
      const m = middleware();
      const r = await runPhase(m, request({ user: { id: 7 } as never }));
      r.context.throttleTicket!.counted = true;
      await runPhase(m, r, 'after');
      expect(hit).not.toHaveBeenCalled();
    });

    it('counts the request afterwards, once, when no transaction took the ticket (success or error)', async () => {
      const m = middleware();
      const ok = await runPhase(m, request({ user: { id: 7 } as never }));
      await runPhase(m, ok, 'after');
      await runPhase(m, ok, 'after');
      const failed = await runPhase(m, request({ user: { id: 8 } as never }));
      failed.error = new DomainError('not_found', 'no plan');
      await runPhase(m, failed, 'onError');
      expect(hit.mock.calls.map((c) => c[2])).toEqual(['user:7', 'user:8']);
      expect(ok.context.throttleTicket?.counted).toBe(true);
    });

    it('does not count again a request the transaction refused as throttled', async () => {
      const m = middleware();
      const r = await runPhase(m, request({ user: { id: 7 } as never }));
      r.error = new DomainError('throttled', 'full', { retryAfter: 5 });
      await runPhase(m, r, 'onError');
      expect(hit).not.toHaveBeenCalled();
    });
  });
});
