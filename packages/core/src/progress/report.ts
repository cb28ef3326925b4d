/**
 * The weekly report (`GET /api/user/weekly-report`, issue 3 §4; spec: "the 'parent report' page in the
 * learner's own account": the last 7 days next to the 7 days before: estimated minutes, questions,
 * accuracy, islands, assistant questions).
 *
 * Periods are Tehran calendar days: `current` is the 7 days ending today (today included, so it grows during
 * the day), `previous` the 7 days before it. One Query reads the 14 daily activity items
 * (dayActivity.entity.ts), whose counters were written in the same transactions as the answers, completions
 * and tutor questions they count.
 *
 * How minutes are estimated: the app reports no screen time, so minutes are estimated from what was done.
 * Each answered question counts {@link SECONDS_PER_QUESTION} seconds (reading a grade 4-5 one-step item,
 * working it out and answering) and each tutor question {@link SECONDS_PER_ASSISTANT_QUESTION} seconds
 * (typing the question and reading the streamed answer). Completing a lesson or island adds nothing of its
 * own: its time is in its questions. The seconds of a period are summed and rounded to the nearest minute.
 */
import type { User } from '../auth';
import { addDays, lastDays } from '../calendar/tehran';
import type { Deps } from '../deps';
import { streakAt } from './activity';
import { type ActivityCounters, type DayActivity, dayActivityBetween } from './dayActivity.entity';

export const SECONDS_PER_QUESTION = 40;
export const SECONDS_PER_ASSISTANT_QUESTION = 90;

export interface PeriodReport {
  /** First and last Tehran day of the period, YYYY-MM-DD, both included. */
  from: string;
  to: string;
  /** Estimated, see the module doc. */
  minutes: number;
  questions: number;
  correct: number;
  /** Correct answers in percent (0-100, rounded), or null when no question was answered. */
  accuracy: number | null;
  /** Islands (nodes) completed. */
  islands: number;
  lessons: number;
  assistantQuestions: number;
  /** Days with any activity. */
  activeDays: number;
}

export interface DayReport {
  day: string;
  minutes: number;
  questions: number;
  correct: number;
  islands: number;
  lessons: number;
  assistantQuestions: number;
}

export interface WeeklyReport {
  current: PeriodReport;
  previous: PeriodReport;
  /** The 14 days, oldest first (days without activity are zeros). */
  days: DayReport[];
  /** How `minutes` is estimated, in words. */
  minutesMethod: string;
}

const secondsOf = (d: ActivityCounters) =>
  (d.answered ?? 0) * SECONDS_PER_QUESTION + (d.assistantQuestions ?? 0) * SECONDS_PER_ASSISTANT_QUESTION;

/** The report of `days` (Tehran YYYY-MM-DD, oldest first, never empty). */
function periodOf(days: string[], byDay: Map<string, DayActivity>): PeriodReport {
  const items = days.map((d) => byDay.get(d)).filter((d): d is DayActivity => d !== undefined);
  const sum = (pick: (d: DayActivity) => number | undefined) => items.reduce((total, d) => total + (pick(d) ?? 0), 0);
  const questions = sum((d) => d.answered);
  const correct = sum((d) => d.correct);
  return {
    from: days[0] ?? '',
    to: days.at(-1) ?? '',
    minutes: Math.round(sum(secondsOf) / 60),
    questions,
    correct,
    accuracy: questions === 0 ? null : Math.round((correct / questions) * 100),
    islands: sum((d) => d.completedNodes),
    lessons: sum((d) => d.completedLessons),
    assistantQuestions: sum((d) => d.assistantQuestions),
    activeDays: items.filter(
      (d) => (d.answered ?? 0) + (d.completedLessons ?? 0) + (d.completedNodes ?? 0) + (d.assistantQuestions ?? 0) > 0,
    ).length,
  };
}

/** The weekly report of learner `userId` as of now (one Query of their daily activity). */
export async function weeklyReport(deps: Deps, userId: number): Promise<WeeklyReport> {
  const days = lastDays(deps.clock.now(), 14);
  const activity = await dayActivityBetween(deps.db, userId, days[0] ?? '', days.at(-1) ?? '');
  const byDay = new Map(activity.map((d) => [d.day, d]));
  return {
    current: periodOf(days.slice(7), byDay),
    previous: periodOf(days.slice(0, 7), byDay),
    days: days.map((day) => {
      const d: ActivityCounters = byDay.get(day) ?? {};
      return {
        day,
        minutes: Math.round(secondsOf(d) / 60),
        questions: d.answered ?? 0,
        correct: d.correct ?? 0,
        islands: d.completedNodes ?? 0,
        lessons: d.completedLessons ?? 0,
        assistantQuestions: d.assistantQuestions ?? 0,
      };
    }),
    minutesMethod: `Estimated from activity: ${SECONDS_PER_QUESTION} s per answered question and ${SECONDS_PER_ASSISTANT_QUESTION} s per tutor question, summed and rounded to the nearest minute.`,
  };
}

/** A learner's figures of one Tehran week, as the parent's weekly SMS tells them (DESIGN §13). */
export interface WeekFigures {
  /** Days of the week with any activity (0-7). */
  daysActive: number;
  /** XP earned in the week (the weekly leaderboard's figure). */
  xp: number;
  /** Islands (nodes) completed in the week. */
  islands: number;
  /** The streak now (days). */
  streak: number;
}

/**
 * The figures of `user` (the user item as read) for the Tehran week starting Saturday `weekStart` (YYYY-MM-DD), as
 * of now: one Query of the week's daily activity; the XP is the week's leaderboard XP stored on the user item.
 */
export async function weekFigures(deps: Deps, user: User, weekStart: string): Promise<WeekFigures> {
  const days = Array.from({ length: 7 }, (_, i) => addDays(weekStart, i));
  const activity = await dayActivityBetween(deps.db, user.id, weekStart, days[6] as string);
  const week = periodOf(days, new Map(activity.map((d) => [d.day, d])));
  return {
    daysActive: week.activeDays,
    xp: user.weekKey === weekStart ? (user.weekXp ?? 0) : 0,
    islands: week.islands,
    streak: streakAt(user, deps.clock.now()).current,
  };
}
