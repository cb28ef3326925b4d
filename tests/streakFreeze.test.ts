/**
 * Streak freezes (DESIGN §13) through the local stack: one earned at every 7-day milestone, at most 2 held; each
 * missed Tehran day uses one, at the next activity or by the nightly job (`POST /_local/jobs/streak-freezes`), with a
 * `streak_frozen` notification each; two missed days need two; a freeze is never used twice: not by two answers on
 * both sides of Tehran midnight, not by the job racing the next activity or running twice, not after the account is
 * deleted. Summary and home show `streak: { current, longest, today, freezes, freezesMax: 2 }`.
 */
import type { SeedNode, SeedQuestion } from '@mathisland/core/curriculum';
import { describe, expect, it } from 'vitest';
import { runStreakFreezes } from '../packages/functions/src/jobs/streakFreezes';
import { allNodes, questionsOf, wrongAnswer } from './support/content';
import { call, freshToken, lastCode, type Session, signIn, type TestStack, useStack } from './support/stack';
import { asFunction } from './support/tableAccess';

const node1 = allNodes()[0] as SeedNode;
const intro = node1.lessons[0]!; // a lesson without questions: completes without answers, counts the day

/** `time` Tehran on `day` (YYYY-MM-DD), epoch ms. */
const tehran = (day: string, time = '10:00:00') => Date.parse(`${day}T${time}+03:30`);
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** A fresh access token at the clock's now (refresh tokens live 30 days). */
const tokenOf = (stack: TestStack, s: Session) => freshToken(stack, s);

/** The learner is active on Tehran day `day` (a lesson completed at `time`); returns the completion's streak. */
async function activeOn(stack: TestStack, s: Session, day: string, time = '10:00:00') {
  stack.clock.set(tehran(day, time));
  const res = await call(stack, 'POST', `/api/lessons/${intro.id}/complete`, { token: await tokenOf(stack, s) });
  expect(res.status).toBe(200);
  return res.body.streak as { current: number; longest: number };
}

const summaryStreak = async (stack: TestStack, s: Session) =>
  (await call(stack, 'GET', '/api/user/summary', { token: await tokenOf(stack, s) })).body.streak;

async function frozenNotes(stack: TestStack, s: Session): Promise<Array<{ kind: string; data: { day: string; freezesLeft: number } }>> {
  const res = await call(stack, 'GET', '/api/notifications', { token: await tokenOf(stack, s) });
  return res.body.items.filter((n: { kind: string }) => n.kind === 'streak_frozen');
}

/** One run of the nightly job as the deployed function runs it (its DynamoDB requests checked against its declaration). */
const runFreezeJob = (stack: TestStack) => asFunction('streak-freezes', () => runStreakFreezes(stack.deps));

/** A learner with a streak of `days` days ending on `lastDay`. */
async function streakOf(stack: TestStack, days: number, lastDay: string): Promise<Session> {
  stack.clock.set(tehran(addDays(lastDay, 1 - days)));
  const s = await signIn(stack);
  for (let i = days - 1; i >= 0; i--) await activeOn(stack, s, addDays(lastDay, -i));
  return s;
}

describe('streak freezes', () => {
  const stack = useStack({ now: tehran('2026-10-01') });

  it('earns one at the 7th day and the 14th, holds at most 2, and shows them on the summary and home', async () => {
    const s = await streakOf(stack, 6, '2026-10-06');
    expect(await summaryStreak(stack, s)).toEqual({ current: 6, longest: 6, today: true, freezes: 0, freezesMax: 2 });
    expect(await activeOn(stack, s, '2026-10-07')).toEqual({ current: 7, longest: 7 });
    expect(await summaryStreak(stack, s)).toMatchObject({ current: 7, freezes: 1 });
    const notes = (await call(stack, 'GET', '/api/notifications', { token: await tokenOf(stack, s) })).body.items;
    expect(notes.find((n: { kind: string; data: { days?: number } }) => n.kind === 'streak_milestone' && n.data.days === 7).data).toEqual({
      days: 7,
      freezeEarned: true,
    });
    for (let d = 8; d <= 21; d++) await activeOn(stack, s, `2026-10-${String(d).padStart(2, '0')}`);
    const home = await call(stack, 'GET', '/api/home', { token: await tokenOf(stack, s) });
    expect(home.body.streak).toEqual({ current: 21, longest: 21, today: true, freezes: 2, freezesMax: 2 });
  });

  it('uses one for one missed day at the next activity: the streak goes on, one streak_frozen notification', async () => {
    const s = await streakOf(stack, 7, '2026-10-07');
    // 2026-10-08 missed. During it (and before the job) the streak reads as kept, the freeze still held.
    stack.clock.set(tehran('2026-10-08', '20:00:00'));
    expect(await summaryStreak(stack, s)).toMatchObject({ current: 7, today: false, freezes: 1 });
    // The next day, before any activity: the freeze is due, the streak still 7.
    stack.clock.set(tehran('2026-10-09', '09:00:00'));
    expect(await summaryStreak(stack, s)).toMatchObject({ current: 7, today: false, freezes: 0 });
    expect(await activeOn(stack, s, '2026-10-09')).toEqual({ current: 8, longest: 8 });
    expect(await summaryStreak(stack, s)).toMatchObject({ current: 8, freezes: 0 });
    const notes = await frozenNotes(stack, s);
    expect(notes.map((n) => n.data)).toEqual([{ day: '2026-10-08', freezesLeft: 0 }]);
  });

  it('two missed days with one freeze: the freeze goes to the first, the streak breaks and starts again', async () => {
    const s = await streakOf(stack, 7, '2026-10-07');
    stack.clock.set(tehran('2026-10-10', '08:00:00')); // 8th and 9th missed
    expect(await summaryStreak(stack, s)).toMatchObject({ current: 0, longest: 7, freezes: 0 });
    expect(await activeOn(stack, s, '2026-10-10')).toEqual({ current: 1, longest: 7 });
    expect((await frozenNotes(stack, s)).map((n) => n.data)).toEqual([{ day: '2026-10-08', freezesLeft: 0 }]);
  });

  it('two missed days with two freezes: both used, the streak goes on', async () => {
    const s = await streakOf(stack, 14, '2026-10-14');
    expect(await summaryStreak(stack, s)).toMatchObject({ freezes: 2 });
    expect(await activeOn(stack, s, '2026-10-17')).toEqual({ current: 15, longest: 15 });
    const notes = await frozenNotes(stack, s);
    expect(notes.map((n) => n.data).sort((a, b) => a.day.localeCompare(b.day))).toEqual([
      { day: '2026-10-15', freezesLeft: 1 },
      { day: '2026-10-16', freezesLeft: 0 },
    ]);
    expect(await summaryStreak(stack, s)).toMatchObject({ current: 15, freezes: 0 });
  });

  it('the nightly job uses the freeze after Tehran midnight, once however often it runs; the next activity uses none', async () => {
    const s = await streakOf(stack, 7, '2026-10-20');
    // 00:05 on the 22nd: the 21st was missed.
    stack.clock.set(tehran('2026-10-22', '00:05:00'));
    const first = await call(stack, 'POST', '/_local/jobs/streak-freezes').then((res) => res.body); // the local control route
    expect(first.freezesUsed).toBeGreaterThanOrEqual(1);
    expect((await frozenNotes(stack, s)).map((n) => n.data)).toEqual([{ day: '2026-10-21', freezesLeft: 0 }]);
    expect(await summaryStreak(stack, s)).toMatchObject({ current: 7, freezes: 0, today: false });
    const second = await runFreezeJob(stack);
    expect(second.freezesUsed).toBe(0);
    expect(await activeOn(stack, s, '2026-10-22')).toEqual({ current: 8, longest: 8 });
    expect(await frozenNotes(stack, s)).toHaveLength(1);
  });

  it('two answers across Tehran midnight (23:59:59 and 00:00:00) use the freeze once and count both days', async () => {
    const s = await streakOf(stack, 7, '2026-10-24');
    const q = questionsOf(node1)[0] as SeedQuestion;
    stack.clock.set(tehran('2026-10-26', '23:50:00')); // the 25th missed
    const token = await tokenOf(stack, s);
    await call(stack, 'POST', `/api/questions/${q.id}/answer`, { token, body: { answer: wrongAnswer(q) } });
    stack.clock.set(tehran('2026-10-26', '23:59:59'));
    const before = await call(stack, 'POST', `/api/review/${q.id}/answer`, { token, body: { answer: wrongAnswer(q) } });
    expect(before.status).toBe(200);
    stack.clock.set(tehran('2026-10-27', '00:00:00'));
    const after = await call(stack, 'POST', `/api/review/${q.id}/answer`, { token, body: { answer: q.answer } });
    expect(after.status).toBe(200);
    expect(await summaryStreak(stack, s)).toMatchObject({ current: 9, today: true, freezes: 0 });
    expect((await frozenNotes(stack, s)).map((n) => n.data)).toEqual([{ day: '2026-10-25', freezesLeft: 0 }]);
  });

  it('two answers racing at midnight, and the nightly job racing the next activity, never use a freeze twice', async () => {
    for (const round of [0, 1, 2]) {
      const s = await streakOf(stack, 14, addDays('2026-11-01', round * 5)); // two freezes
      const missedTo = addDays('2026-11-01', round * 5 + 2); // one day missed, the next one starts at midnight
      const q = questionsOf(node1)[round] as SeedQuestion;
      stack.clock.set(tehran(missedTo, '23:40:00'));
      const token = await tokenOf(stack, s);
      await call(stack, 'POST', `/api/questions/${q.id}/answer`, { token, body: { answer: wrongAnswer(q) } });
      stack.clock.set(tehran(missedTo, '23:59:59'));
      const a = call(stack, 'POST', `/api/review/${q.id}/answer`, { token, body: { answer: q.answer } });
      stack.clock.set(tehran(addDays(missedTo, 1), '00:00:00'));
      const [ra, rb] = await Promise.all([a, call(stack, 'POST', `/api/lessons/${intro.id}/complete`, { token }), runFreezeJob(stack)]);
      expect([ra.status, rb.status]).toEqual([200, 200]);
      const streak = await summaryStreak(stack, s);
      const notes = await frozenNotes(stack, s);
      // However the race went: freezes used = notifications = 2 - freezes held, and never more than the missed days.
      expect(notes.length).toBe(2 - streak.freezes);
      expect(notes.length).toBeGreaterThanOrEqual(1);
      expect(notes.length).toBeLessThanOrEqual(2);
      expect(new Set(notes.map((n) => n.data.day)).size).toBe(notes.length);
      expect(streak.current).toBeGreaterThanOrEqual(15);
    }
  });

  it('uses no freeze of a deleted account, and the job passes over it', async () => {
    const s = await streakOf(stack, 7, '2026-11-25');
    stack.clock.set(tehran('2026-11-27', '00:05:00'));
    await call(stack, 'POST', '/api/auth/otp/request', { body: { phone: s.phone } });
    const code = await lastCode(stack, s.phone);
    const token = await tokenOf(stack, s);
    const [deleted] = await Promise.all([call(stack, 'POST', '/api/user/delete', { token, body: { otp: code } }), runFreezeJob(stack)]);
    expect(deleted.status).toBe(204);
    // Whichever came first, nothing of the account is left for a later run: it finds no one to settle.
    expect((await runFreezeJob(stack)).settled).toBe(0);
    const again = await signIn(stack, s.phone);
    expect(again.isNewUser).toBe(true);
    expect(await summaryStreak(stack, again)).toEqual({ current: 0, longest: 0, today: false, freezes: 0, freezesMax: 2 });
  });
});
