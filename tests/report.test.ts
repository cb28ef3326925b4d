/**
 * The weekly report (issue 3 §4): the last 7 Tehran days next to the 7 before, with estimated minutes,
 * questions, accuracy, islands and tutor questions; the period boundary is Tehran midnight.
 */
import { transact } from '@mathisland/core/db';
import { addDayActivity, SECONDS_PER_ASSISTANT_QUESTION, SECONDS_PER_QUESTION } from '@mathisland/core/progress';
import { describe, expect, it } from 'vitest';
import { allNodes, playNode, questionsOf } from './support/content';
import { call, freshToken, signIn, useStack } from './support/stack';

const tehranMidnight = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d) - 3.5 * 3600_000;
// "Today" is Friday 2026-11-27 (Tehran); the current period is Nov 21-27 and the previous Nov 14-20.
const today = tehranMidnight(2026, 11, 27) + 10 * 3600_000;

describe('weekly report', () => {
  const stack = useStack({ now: today });

  it('compares the last 7 Tehran days with the 7 before, split at Tehran midnight', async () => {
    const s = stack;
    const [node1, node2] = allNodes();
    // Previous period, its last instant: Friday Nov 20, 23:59:59 Tehran: node1 with 4 of 5 right.
    s.clock.set(tehranMidnight(2026, 11, 21) - 1000);
    const learner = await signIn(s);
    await playNode(s, learner.accessToken, node1!, 4);
    // Current period, its first instant: Saturday Nov 21, 00:00 Tehran: node2, all right.
    s.clock.set(tehranMidnight(2026, 11, 21));
    await playNode(s, await freshToken(s, learner), node2!);
    // Two tutor questions today (the tutor counts them in the same daily item).
    await transact(s.deps.db, [addDayActivity(s.deps.db, learner.userId, today, { assistantQuestions: 2 })]);
    // Activity older than 14 days is outside the report.
    await transact(s.deps.db, [
      addDayActivity(s.deps.db, learner.userId, tehranMidnight(2026, 11, 13) + 1000, { answered: 50, correct: 50 }),
    ]);

    s.clock.set(today);
    const res = await call(s, 'GET', '/api/user/weekly-report', { token: await freshToken(s, learner) });
    expect(res.status).toBe(200);
    const n1 = questionsOf(node1!).length;
    const n2 = questionsOf(node2!).length;
    expect(res.body.previous).toEqual({
      from: '2026-11-14',
      to: '2026-11-20',
      minutes: Math.round((n1 * SECONDS_PER_QUESTION) / 60),
      questions: n1,
      correct: 4,
      accuracy: Math.round((4 / n1) * 100),
      islands: 1,
      lessons: 0,
      assistantQuestions: 0,
      activeDays: 1,
    });
    expect(res.body.current).toEqual({
      from: '2026-11-21',
      to: '2026-11-27',
      minutes: Math.round((n2 * SECONDS_PER_QUESTION + 2 * SECONDS_PER_ASSISTANT_QUESTION) / 60),
      questions: n2,
      correct: n2,
      accuracy: 100,
      islands: 1,
      lessons: 0,
      assistantQuestions: 2,
      activeDays: 2,
    });
    expect(res.body.days).toHaveLength(14);
    expect(res.body.days[0].day).toBe('2026-11-14');
    expect(res.body.days[13]).toMatchObject({ day: '2026-11-27', assistantQuestions: 2, questions: 0 });
    expect(res.body.minutesMethod).toContain(`${SECONDS_PER_QUESTION} s per answered question`);
  });

  it('a learner with no activity gets zeros and null accuracy', async () => {
    const s = stack;
    s.clock.set(today);
    const learner = await signIn(s);
    const res = await call(s, 'GET', '/api/user/weekly-report', { token: learner.accessToken });
    expect(res.body.current).toMatchObject({ minutes: 0, questions: 0, accuracy: null, islands: 0, assistantQuestions: 0, activeDays: 0 });
    expect(res.body.previous.accuracy).toBeNull();
    expect((await call(s, 'GET', '/api/user/weekly-report')).status).toBe(401);
  });
});
