import { describe, expect, it } from 'vitest';
import { type StreakFields, streakAt, streakPlan } from './activity';
import { nextBox, reviewXp } from './leitner';

/** 10:00 Tehran on `day` (YYYY-MM-DD). */
const at = (day: string) => Date.parse(`${day}T10:00:00+03:30`);
const learner = (fields: Partial<StreakFields>): StreakFields => ({ id: 1, ...fields });

describe('streakAt: freezes judged lazily', () => {
  it('keeps a streak over missed days its freezes cover, and shows the freezes left', () => {
    const user = learner({ streakCurrent: 9, streakLongest: 9, streakLastDay: '2026-11-10', streakFreezes: 2 });
    expect(streakAt(user, at('2026-11-11'))).toMatchObject({ current: 9, freezes: 2, today: false });
    expect(streakAt(user, at('2026-11-12'))).toMatchObject({ current: 9, freezes: 1, lastDay: '2026-11-11' });
    expect(streakAt(user, at('2026-11-13'))).toMatchObject({ current: 9, freezes: 0, lastDay: '2026-11-12' });
    // Three missed days with two freezes: both used for the first two, then broken.
    expect(streakAt(user, at('2026-11-14'))).toMatchObject({ current: 0, freezes: 0, longest: 9 });
  });

  it('uses no freeze on a streak already broken', () => {
    const user = learner({ streakCurrent: 0, streakLastDay: '2026-11-01', streakFreezes: 1 });
    expect(streakAt(user, at('2026-11-10'))).toMatchObject({ current: 0, freezes: 1 });
  });
});

describe('streakPlan', () => {
  it('extends by one on the next day and earns a freeze at every 7th day, at most 2 held', () => {
    let user = learner({ streakCurrent: 6, streakLongest: 6, streakLastDay: '2026-11-06' });
    const plan = streakPlan(user, at('2026-11-07'), true)!;
    expect(plan.after).toMatchObject({ current: 7, longest: 7, freezes: 1, today: true });
    expect(plan).toMatchObject({ freezeEarned: true, milestone: true, frozenDays: [] });
    expect(plan.condition).toEqual({
      expression: '(#streakLastDay = :c_streakLastDay) AND (attribute_not_exists(#streakFreezes))',
      values: { ':c_streakLastDay': '2026-11-06' },
    });
    user = learner({ streakCurrent: 20, streakLongest: 20, streakLastDay: '2026-11-06', streakFreezes: 2 });
    expect(streakPlan(user, at('2026-11-07'), true)).toMatchObject({ freezeEarned: false, milestone: false, after: { freezes: 2 } });
  });

  it('does nothing when today already counts, and counts a first day', () => {
    const user = learner({ streakCurrent: 3, streakLongest: 3, streakLastDay: '2026-11-07', streakFreezes: 0 });
    expect(streakPlan(user, at('2026-11-07'), true)).toBeUndefined();
    expect(streakPlan(learner({}), at('2026-11-07'), true)?.after).toMatchObject({ current: 1, lastDay: '2026-11-07' });
  });

  it('uses one freeze per missed day at the next activity (condition: last day and freezes as read)', () => {
    const user = learner({ streakCurrent: 8, streakLongest: 8, streakLastDay: '2026-11-07', streakFreezes: 2 });
    const plan = streakPlan(user, at('2026-11-10'), true)!;
    expect(plan.frozenDays).toEqual(['2026-11-08', '2026-11-09']);
    expect(plan.after).toMatchObject({ current: 9, freezes: 0, lastDay: '2026-11-10' });
    expect(plan.change.add).toEqual({ streakFreezesUsed: 2 });
    expect(plan.condition.values).toMatchObject({ ':c_streakLastDay': '2026-11-07', ':c_streakFreezes': 2 });
  });

  it('two missed days with one freeze: the freeze goes to the first day and the streak starts again', () => {
    const user = learner({ streakCurrent: 8, streakLongest: 8, streakLastDay: '2026-11-07', streakFreezes: 1 });
    const plan = streakPlan(user, at('2026-11-10'), true)!;
    expect(plan.frozenDays).toEqual(['2026-11-08']);
    expect(plan.after).toMatchObject({ current: 1, longest: 8, freezes: 0 });
    // The nightly job on the first night decides the same for that night, then nothing more is saved.
    const night = streakPlan(user, Date.parse('2026-11-09T00:05:00+03:30'), false)!;
    expect(night.frozenDays).toEqual(['2026-11-08']);
    expect(night.after).toMatchObject({ current: 8, freezes: 0, lastDay: '2026-11-08', today: false });
  });

  it('without activity: nothing when no day was missed or no freeze is held', () => {
    const user = learner({ streakCurrent: 5, streakLastDay: '2026-11-08', streakFreezes: 1 });
    expect(streakPlan(user, at('2026-11-09'), false)).toBeUndefined();
    expect(streakPlan({ ...user, streakFreezes: 0 }, at('2026-11-12'), false)).toBeUndefined();
  });
});

describe('Leitner boxes', () => {
  it('moves a right answer up a box after 1, 3, 7, 16, 35 days and masters it after box 5', () => {
    expect(nextBox(1, true, '2026-11-10')).toEqual({ box: 2, dueOn: '2026-11-13', mastered: false });
    expect(nextBox(2, true, '2026-11-10')).toEqual({ box: 3, dueOn: '2026-11-17', mastered: false });
    expect(nextBox(3, true, '2026-11-10')).toEqual({ box: 4, dueOn: '2026-11-26', mastered: false });
    expect(nextBox(4, true, '2026-11-10')).toEqual({ box: 5, dueOn: '2026-12-15', mastered: false });
    expect(nextBox(5, true, '2026-11-10')).toEqual({ box: 5, dueOn: null, mastered: true });
  });

  it('sends a wrong answer back to box 1, due the next day', () => {
    expect(nextBox(4, false, '2026-11-30')).toEqual({ box: 1, dueOn: '2026-12-01', mastered: false });
  });

  it('gives 2 XP a right answer up to 20 a day, none for a wrong one', () => {
    expect(reviewXp(true, 0)).toBe(2);
    expect(reviewXp(true, 18)).toBe(2);
    expect(reviewXp(true, 20)).toBe(0);
    expect(reviewXp(false, 0)).toBe(0);
  });
});
