/**
 * Issue 3 routes: hearts with a wait state, intro.
 */
import { describe, expect, it } from 'vitest';
import { allNodes, questionsOf, wrongAnswer } from './support/content';
import { call, freshToken, signIn, useStack } from './support/stack';

describe('GET /api/hearts', () => {
  const stack = useStack({ now: Date.UTC(2026, 10, 20, 8, 0, 0) });

  it('reports full hearts, then the wait state after mistakes, refilling one every 4 hours', async () => {
    const s = await signIn(stack);
    const full = await call(stack, 'GET', '/api/hearts', { token: s.accessToken });
    expect(full.status).toBe(200);
    expect(full.body).toEqual({ hearts: 5, maxHearts: 5, enforced: true, nextHeartAt: null });

    const q = questionsOf(allNodes()[0]!)[0]!;
    const t0 = stack.clock.now();
    for (let i = 0; i < 2; i++) {
      await call(stack, 'POST', `/api/questions/${q.id}/answer`, { token: s.accessToken, body: { answer: wrongAnswer(q) } });
      stack.clock.advance(60);
    }
    const waiting = await call(stack, 'GET', '/api/hearts', { token: s.accessToken });
    expect(waiting.body).toEqual({ hearts: 3, maxHearts: 5, enforced: true, nextHeartAt: new Date(t0 + 4 * 3600_000).toISOString() });

    stack.clock.set(t0 + 4 * 3600_000 - 1000);
    let token = await freshToken(stack, s);
    expect((await call(stack, 'GET', '/api/hearts', { token })).body.hearts).toBe(3);
    stack.clock.set(t0 + 4 * 3600_000);
    expect((await call(stack, 'GET', '/api/hearts', { token })).body).toMatchObject({
      hearts: 4,
      nextHeartAt: new Date(t0 + 8 * 3600_000).toISOString(),
    });
    stack.clock.set(t0 + 8 * 3600_000);
    token = await freshToken(stack, s);
    expect((await call(stack, 'GET', '/api/hearts', { token })).body).toMatchObject({ hearts: 5, nextHeartAt: null });
  });

  it('needs a signed-in learner', async () => {
    expect((await call(stack, 'GET', '/api/hearts')).status).toBe(401);
  });
});

describe('GET /api/hearts with HEARTS_ENFORCED=0', () => {
  const stack = useStack({ env: { HEARTS_ENFORCED: '0' } });

  it('says hearts are not enforced', async () => {
    const s = await signIn(stack);
    const res = await call(stack, 'GET', '/api/hearts', { token: s.accessToken });
    expect(res.body).toEqual({ hearts: 5, maxHearts: 5, enforced: false, nextHeartAt: null });
  });

  it('leaves hearts out of the intro', async () => {
    const res = await call(stack, 'GET', '/api/intro');
    expect(res.body.items.map((i: { id: string }) => i.id)).not.toContain('hearts');
  });
});

describe('GET /api/intro', () => {
  const stack = useStack();

  it('serves the onboarding screens without login, with numbers from the settings', async () => {
    const res = await call(stack, 'GET', '/api/intro');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.body.items.map((i: { id: string }) => i.id)).toEqual(['islands', 'stars', 'hearts', 'streak', 'tutor']);
    for (const item of res.body.items) {
      expect(item.title.length).toBeGreaterThan(0);
      expect(item.text.length).toBeGreaterThan(0);
    }
    expect(res.body.items[2].text).toContain('۴ ساعت');
  });
});
