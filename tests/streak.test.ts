/**
 * Streak and daily activity (issue 3 §2, §4): one day per Tehran calendar day, judged lazily, tested on
 * both sides of Tehran midnight (20:30 UTC), a broken chain, and races.
 */
import { getDayActivity } from '@mathisland/core/progress';
import { describe, expect, it } from 'vitest';
import { allNodes, questionsOf, wrongAnswer } from './support/content';
import { call, freshToken, type Session, signIn, type TestStack, useStack } from './support/stack';

const node1 = allNodes()[0]!;
const intro = node1.lessons[0]!; // a lesson without questions: completes without answers
const tehranMidnightUtc = Date.UTC(2026, 10, 20, 20, 30, 0); // 2026-11-21 00:00 in Tehran

/** A new access token of `s` (its refresh token rotates with it). */
const token = (stack: TestStack, s: Session): Promise<string> => freshToken(stack, s);

describe('streak', () => {
  const stack = useStack({ now: tehranMidnightUtc - 30 * 60_000 });

  it('counts one day per Tehran calendar day, on both sides of midnight', async () => {
    const s = await signIn(stack);
    const complete = async () => (await call(stack, 'POST', `/api/lessons/${intro.id}/complete`, { token: await token(stack, s) })).body;

    expect((await complete()).streak).toEqual({ current: 1, longest: 1 });
    stack.clock.set(tehranMidnightUtc - 1); // 23:59:59.999 Tehran, same day
    expect((await complete()).streak).toEqual({ current: 1, longest: 1 });
    stack.clock.set(tehranMidnightUtc); // 00:00 Tehran, the next day
    expect((await complete()).streak).toEqual({ current: 2, longest: 2 });

    // Read lazily: the next day the chain is still alive (today not yet counted) ...
    stack.clock.set(tehranMidnightUtc + 86_400_000 + 3600_000);
    let summary = await call(stack, 'GET', '/api/user/summary', { token: await token(stack, s) });
    expect(summary.body.streak).toEqual({ current: 2, longest: 2, today: false, freezes: 0, freezesMax: 2 });
    // ... a day later it is broken, without anything having run at midnight.
    stack.clock.set(tehranMidnightUtc + 2 * 86_400_000);
    summary = await call(stack, 'GET', '/api/user/summary', { token: await token(stack, s) });
    expect(summary.body.streak).toEqual({ current: 0, longest: 2, today: false, freezes: 0, freezesMax: 2 });
    expect((await complete()).streak).toEqual({ current: 1, longest: 2 });
  });

  it('UTC midnight is not a day boundary: 23:00 and 01:00 UTC are one Tehran day', async () => {
    const s = await signIn(stack);
    stack.clock.set(Date.UTC(2026, 11, 1, 21, 0, 0)); // 00:30 Tehran, Dec 2
    const t = await token(stack, s);
    await call(stack, 'POST', `/api/lessons/${intro.id}/complete`, { token: t });
    stack.clock.set(Date.UTC(2026, 11, 2, 1, 0, 0)); // 04:30 Tehran, Dec 2 (UTC day changed)
    const again = await call(stack, 'POST', `/api/lessons/${intro.id}/complete`, { token: await token(stack, s) });
    expect(again.body.streak).toEqual({ current: 1, longest: 1 });
  });

  it('parallel completions on one day count the day once', async () => {
    stack.clock.set(Date.UTC(2026, 11, 5, 8, 0, 0));
    const s = await signIn(stack);
    const t = await token(stack, s);
    const results = await Promise.all(
      Array.from({ length: 6 }, () => call(stack, 'POST', `/api/lessons/${intro.id}/complete`, { token: t })),
    );
    for (const r of results) expect(r.body.streak).toEqual({ current: 1, longest: 1 });
    stack.clock.advance(86_400);
    const t2 = await token(stack, s);
    const next = await Promise.all(
      Array.from({ length: 4 }, () => call(stack, 'POST', `/api/lessons/${intro.id}/complete`, { token: t2 })),
    );
    for (const r of next) expect(r.body.streak.current).toBe(2);
  });
});

describe('daily activity and the summary', () => {
  const stack = useStack({ now: Date.UTC(2026, 10, 22, 6, 0, 0) });

  it('counts answers and completions on the Tehran day, in the same transaction', async () => {
    const s = await signIn(stack);
    const questions = questionsOf(node1);
    for (const [i, q] of questions.entries()) {
      await call(stack, 'POST', `/api/questions/${q.id}/answer`, {
        token: s.accessToken,
        body: { answer: i === 0 ? wrongAnswer(q) : q.answer },
      });
    }
    const done = await call(stack, 'POST', `/api/nodes/${node1.id}/quiz/complete`, { token: s.accessToken });
    await call(stack, 'POST', `/api/lessons/${intro.id}/complete`, { token: s.accessToken });
    const day = await getDayActivity(stack.deps.db, s.userId, '2026-11-22');
    expect(day).toMatchObject({
      day: '2026-11-22',
      answered: questions.length,
      correct: questions.length - 1,
      completedNodes: 1,
      completedLessons: 1,
    });

    const summary = await call(stack, 'GET', '/api/user/summary', { token: s.accessToken });
    expect(summary.status).toBe(200);
    expect(summary.body).toMatchObject({
      publicId: expect.stringMatching(/^User\d{6}$/),
      displayName: null,
      xp: done.body.xp,
      stars: done.body.stars,
      streak: { current: 1, longest: 1, today: true, freezes: 0, freezesMax: 2 },
      hearts: { hearts: 4, maxHearts: 5, enforced: true, nextHeartAt: expect.any(String) },
      completedIslands: 1,
      completedLessons: 1,
      activePlan: null,
    });
  });
});
