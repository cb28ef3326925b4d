/**
 * The mistakes review (DESIGN §13) through the local stack: every wrong answer puts its question in Leitner box 1,
 * due the next Tehran day; right review answers climb the boxes (1, 3, 7, 16, 35 days) until mastered; a wrong one
 * sends it back; no hearts; 2 XP a right answer, at most 20 a Tehran day, on the leaderboards; a review answer counts
 * for the streak; `attemptId` replays; the home screen's `reviewDue`.
 */
import type { SeedNode, SeedQuestion } from '@mathisland/core/curriculum';
import { describe, expect, it } from 'vitest';
import { allNodes, questionsOf, wrongAnswer } from './support/content';
import { call, freshToken, type Session, signIn, type TestStack, useStack } from './support/stack';

const [node1, node2, node3] = allNodes() as [SeedNode, SeedNode, SeedNode];
/** 10:00 Tehran on `day`. */
const tehran = (day: string, time = '10:00:00') => Date.parse(`${day}T${time}+03:30`);

const answer = (stack: TestStack, token: string, q: SeedQuestion, right: boolean) =>
  call(stack, 'POST', `/api/questions/${q.id}/answer`, { token, body: { answer: right ? q.answer : wrongAnswer(q) } });
const review = (stack: TestStack, token: string, q: SeedQuestion, right: boolean, attemptId?: string) =>
  call(stack, 'POST', `/api/review/${q.id}/answer`, {
    token,
    body: { answer: right ? q.answer : wrongAnswer(q), ...(attemptId ? { attemptId } : {}) },
  });
const queue = async (stack: TestStack, token: string) => (await call(stack, 'GET', '/api/review', { token })).body;

describe('the mistakes review', () => {
  const stack = useStack({ now: tehran('2026-11-16') });

  it('puts a wrong answer in box 1, due the next Tehran day, and shows it on the home screen when due', async () => {
    stack.clock.set(tehran('2026-11-16'));
    const s = await signIn(stack);
    const [q1, q2] = questionsOf(node1) as [SeedQuestion, SeedQuestion];
    expect((await answer(stack, s.accessToken, q1, false)).body.correct).toBe(false);
    expect((await answer(stack, s.accessToken, q2, true)).body.correct).toBe(true);
    const today = await queue(stack, s.accessToken);
    expect(today).toEqual({
      dueCount: 0,
      items: [
        {
          questionId: q1.id,
          nodeId: node1.id,
          box: 1,
          dueOn: '2026-11-17',
          due: false,
          question: {
            id: q1.id,
            type: q1.type,
            text: q1.text,
            ...(q1.choices ? { choices: q1.choices.map(({ id, text }) => ({ id, text })) } : {}),
          },
        },
      ],
    });
    expect(JSON.stringify(today)).not.toContain('"answer"');
    expect((await call(stack, 'GET', '/api/home', { token: s.accessToken })).body.reviewDue).toBe(0);
    stack.clock.set(tehran('2026-11-17', '00:00:00')); // Tehran midnight: due
    const token = await freshToken(stack, s);
    expect(await queue(stack, token)).toMatchObject({ dueCount: 1, items: [{ questionId: q1.id, due: true }] });
    expect((await call(stack, 'GET', '/api/home', { token })).body).toMatchObject({ reviewDue: 1 });
  });

  it('a wrong answer at 23:59:59 Tehran is due at 00:00 the next day; one at 00:00 the day after', async () => {
    stack.clock.set(tehran('2026-11-20', '23:59:59'));
    const s = await signIn(stack);
    const [q1, q2] = questionsOf(node1) as [SeedQuestion, SeedQuestion];
    await answer(stack, s.accessToken, q1, false);
    stack.clock.set(tehran('2026-11-21', '00:00:00'));
    await answer(stack, s.accessToken, q2, false);
    const items = (await queue(stack, s.accessToken)).items;
    expect(items.map((i: { questionId: number; dueOn: string; due: boolean }) => [i.questionId, i.dueOn, i.due])).toEqual([
      [q1.id, '2026-11-21', true],
      [q2.id, '2026-11-22', false],
    ]);
  });

  it('climbs a question through boxes 1-5 on its due days (1, 3, 7, 16, 35) until mastered, then it leaves', async () => {
    let now = tehran('2026-11-01');
    stack.clock.set(now);
    const s = await signIn(stack);
    const q = questionsOf(node1)[0] as SeedQuestion;
    await answer(stack, s.accessToken, q, false);
    const steps: Array<[number, string | null]> = [];
    let dueOn: string | null = '2026-11-02';
    while (dueOn) {
      now = tehran(dueOn);
      stack.clock.set(now);
      // Signed in again: the climb outlasts a refresh token.
      const { accessToken: token } = await signIn(stack, s.phone);
      expect((await queue(stack, token)).dueCount).toBe(1);
      const res = await review(stack, token, q, true);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ correct: true, xp: 2 });
      steps.push([res.body.box, res.body.dueOn]);
      dueOn = res.body.dueOn;
    }
    expect(steps).toEqual([
      [2, '2026-11-05'],
      [3, '2026-11-12'],
      [4, '2026-11-28'],
      [5, '2027-01-02'],
      [5, null],
    ]);
    const token = await freshToken(stack, await signIn(stack, s.phone));
    expect(await queue(stack, token)).toEqual({ dueCount: 0, items: [] });
    const again = await review(stack, token, q, true);
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('not_found');
    // A new mistake puts it back in box 1.
    await answer(stack, token, q, false);
    expect((await queue(stack, token)).items).toMatchObject([{ questionId: q.id, box: 1 }]);
  });

  it('sends a wrong review answer back to box 1 with the right answer, spending no heart', async () => {
    stack.clock.set(tehran('2026-12-01'));
    const s = await signIn(stack);
    const questions = questionsOf(node1);
    // Five wrong answers take all five hearts.
    for (const q of questions.slice(0, 5)) await answer(stack, s.accessToken, q, false);
    expect((await call(stack, 'GET', '/api/hearts', { token: s.accessToken })).body.hearts).toBe(0);
    const q = questions[0] as SeedQuestion;
    const up = await review(stack, s.accessToken, q, true); // practice ahead: not due until tomorrow
    expect(up.body).toMatchObject({ correct: true, box: 2, dueOn: '2026-12-04', mastered: false });
    const back = await review(stack, s.accessToken, q, false);
    expect(back.status).toBe(200);
    expect(back.body).toEqual({ correct: false, correctAnswer: q.answer, box: 1, dueOn: '2026-12-02', mastered: false, xp: 0 });
    expect((await call(stack, 'GET', '/api/hearts', { token: s.accessToken })).body.hearts).toBe(0);
  });

  it('counts a review answer as the day’s activity for the streak', async () => {
    stack.clock.set(tehran('2026-12-05'));
    const s = await signIn(stack);
    const q = questionsOf(node1)[0] as SeedQuestion;
    await answer(stack, s.accessToken, q, false);
    expect((await call(stack, 'GET', '/api/user/summary', { token: s.accessToken })).body.streak).toMatchObject({
      current: 0,
      today: false,
    });
    await review(stack, s.accessToken, q, false);
    expect((await call(stack, 'GET', '/api/user/summary', { token: s.accessToken })).body.streak).toMatchObject({
      current: 1,
      today: true,
    });
    stack.clock.set(tehran('2026-12-06'));
    const token = await freshToken(stack, s);
    await review(stack, token, q, true);
    expect((await call(stack, 'GET', '/api/home', { token })).body.streak).toEqual({
      current: 2,
      longest: 2,
      today: true,
      freezes: 0,
      freezesMax: 2,
    });
  });

  it('replays a retried answer with the same attemptId once, and refuses the id for another question', async () => {
    stack.clock.set(tehran('2026-12-08'));
    const s = await signIn(stack);
    const [q1, q2] = questionsOf(node1) as [SeedQuestion, SeedQuestion];
    await answer(stack, s.accessToken, q1, false);
    await answer(stack, s.accessToken, q2, false);
    const xpBefore = (await call(stack, 'GET', '/api/user/summary', { token: s.accessToken })).body.xp;
    const results = await Promise.all([1, 2, 3].map(() => review(stack, s.accessToken, q1, true, 'offline-answer-0001')));
    for (const r of results) expect(r.body).toEqual({ correct: true, box: 2, dueOn: '2026-12-11', mastered: false, xp: 2 });
    const later = await review(stack, s.accessToken, q1, true, 'offline-answer-0001');
    expect(later.body).toMatchObject({ box: 2, xp: 2 });
    expect((await call(stack, 'GET', '/api/user/summary', { token: s.accessToken })).body.xp).toBe(xpBefore + 2);
    expect((await queue(stack, s.accessToken)).items.find((i: { questionId: number }) => i.questionId === q1.id).box).toBe(2);
    const conflict = await review(stack, s.accessToken, q2, true, 'offline-answer-0001');
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe('idempotency_conflict');
  });

  it('refuses bad input with the JSON error body', async () => {
    stack.clock.set(tehran('2026-12-10'));
    const s = await signIn(stack);
    const q = questionsOf(node1)[0] as SeedQuestion;
    await answer(stack, s.accessToken, q, false);
    const t = s.accessToken;
    const form = await call(stack, 'POST', `/api/review/${q.id}/answer`, {
      token: t,
      body: { answer: q.type === 'choice' ? 'zz' : 'twelve' },
    });
    expect([form.status, form.body.code]).toEqual([400, 'validation_error']);
    const persian = await call(stack, 'POST', '/api/review/۴۰۰۱۲۱/answer', { token: t, body: { answer: 'a' } });
    expect([persian.status, persian.body.code]).toEqual([400, 'invalid_id']);
    const extra = await call(stack, 'POST', `/api/review/${q.id}/answer`, { token: t, body: { answer: q.answer, hearts: 5 } });
    expect([extra.status, extra.body.code]).toEqual([400, 'validation_error']);
    const missing = await call(stack, 'POST', `/api/review/${q.id}/answer`, { token: t, body: {} });
    expect([missing.status, missing.body.code]).toEqual([400, 'validation_error']);
    const notInReview = await review(stack, t, questionsOf(node1)[1] as SeedQuestion, true);
    expect([notInReview.status, notInReview.body.code]).toEqual([404, 'not_found']);
    const unknown = await call(stack, 'POST', '/api/review/999999999/answer', { token: t, body: { answer: '1' } });
    expect(unknown.status).toBe(404);
    expect((await call(stack, 'GET', '/api/review')).status).toBe(401);
    expect((await call(stack, 'POST', `/api/review/${q.id}/answer`, { body: { answer: q.answer } })).status).toBe(401);
    expect((await call(stack, 'GET', '/api/review?x=1', { token: t })).status).toBe(200);
  });
});

describe('review XP: 2 a right answer, at most 20 a Tehran day, on the leaderboards', () => {
  const stack = useStack({ now: tehran('2026-11-18'), env: { HEARTS_ENFORCED: '0' } });

  /** A learner with every question of the first three islands wrong in the review (15+ questions). */
  async function learnerWithMistakes(): Promise<{ s: Session; questions: SeedQuestion[] }> {
    const s = await signIn(stack);
    const questions: SeedQuestion[] = [];
    for (const node of [node1, node2, node3]) {
      for (const q of questionsOf(node)) {
        await answer(stack, s.accessToken, q, false);
        questions.push(q);
      }
      await call(stack, 'POST', `/api/nodes/${node.id}/quiz/complete`, { token: s.accessToken });
    }
    return { s, questions };
  }

  const weeklyXp = async (token: string) => {
    stack.clock.advance(61); // past the leaderboard's 60-second cache
    return (await call(stack, 'GET', '/api/leaderboard?period=weekly', { token })).body.me.xp as number;
  };

  it('stops granting review XP at 20 a day, on the summary and the weekly board, and grants again the next day', async () => {
    stack.clock.set(tehran('2026-11-18'));
    const { s, questions } = await learnerWithMistakes();
    expect(questions.length).toBeGreaterThanOrEqual(12);
    const before = (await call(stack, 'GET', '/api/user/summary', { token: s.accessToken })).body.xp;
    const boardBefore = await weeklyXp(s.accessToken);
    const xps: number[] = [];
    for (const q of questions.slice(0, 12)) xps.push((await review(stack, s.accessToken, q, true)).body.xp);
    expect(xps).toEqual([2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0, 0]);
    expect((await call(stack, 'GET', '/api/user/summary', { token: s.accessToken })).body.xp).toBe(before + 20);
    expect(await weeklyXp(s.accessToken)).toBe(boardBefore + 20);
    // The next Tehran day starts a new allowance (Wednesday to Thursday: the same leaderboard week).
    stack.clock.set(tehran('2026-11-19', '00:00:00'));
    const token = await freshToken(stack, s);
    expect((await review(stack, token, questions[12] as SeedQuestion, true)).body.xp).toBe(2);
    expect(await weeklyXp(token)).toBe(boardBefore + 22);
  });

  it('lists at most 20, the due ones first (oldest due day first), then those due later, with their count', async () => {
    stack.clock.set(tehran('2026-11-10'));
    const s = await signIn(stack);
    const nodes = allNodes().slice(0, 6);
    const wrong: SeedQuestion[] = [];
    for (const [i, node] of nodes.entries()) {
      if (i === 3) stack.clock.set(tehran('2026-11-11')); // the last three islands' mistakes a day later
      const token = await freshToken(stack, s);
      for (const q of questionsOf(node)) {
        await answer(stack, token, q, false);
        wrong.push(q);
      }
      await call(stack, 'POST', `/api/nodes/${node.id}/quiz/complete`, { token });
    }
    expect(wrong.length).toBeGreaterThan(20);
    stack.clock.set(tehran('2026-11-11', '12:00:00')); // the first day's mistakes are due, the second day's not yet
    const list = await queue(stack, await freshToken(stack, s));
    const firstDay = wrong.filter((q) => nodes.slice(0, 3).some((n) => questionsOf(n).includes(q)));
    expect(list.dueCount).toBe(firstDay.length);
    expect(list.items).toHaveLength(20);
    const keys = list.items.map((i: { dueOn: string; questionId: number; due: boolean }) => [i.dueOn, i.questionId, i.due]);
    expect(keys).toEqual([...keys].sort((a, b) => String(a[0]).localeCompare(String(b[0])) || Number(a[1]) - Number(b[1])));
    expect(keys.slice(0, firstDay.length).every((k: unknown[]) => k[2] === true)).toBe(true);
    expect(keys.slice(firstDay.length).every((k: unknown[]) => k[2] === false && k[0] === '2026-11-12')).toBe(true);
  });

  it('never passes the cap when many answers arrive at once', async () => {
    stack.clock.set(tehran('2026-11-20'));
    const { s, questions } = await learnerWithMistakes();
    const before = (await call(stack, 'GET', '/api/user/summary', { token: s.accessToken })).body.xp;
    const batch = questions.slice(0, 14).map((q, i) => ({ q, attemptId: `burst-answer-${i}` }));
    let results = await Promise.all(batch.map(({ q, attemptId }) => review(stack, s.accessToken, q, true, attemptId)));
    // Fourteen grants on one learner at once may lose more races than a request retries (503 database_busy, with
    // Retry-After): the app sends those again with the same attemptId, as it would after going offline.
    for (let round = 0; round < 5 && results.some((r) => r.status !== 200); round++) {
      for (const r of results) if (r.status !== 200) expect([r.status, r.body.code]).toEqual([503, 'database_busy']);
      results = await Promise.all(
        batch.map(({ q, attemptId }, i) => (results[i]!.status === 200 ? results[i]! : review(stack, s.accessToken, q, true, attemptId))),
      );
    }
    expect(results.map((r) => r.status)).toEqual(batch.map(() => 200));
    expect(results.reduce((sum, r) => sum + r.body.xp, 0)).toBe(20);
    expect((await call(stack, 'GET', '/api/user/summary', { token: s.accessToken })).body.xp).toBe(before + 20);
  });
});
