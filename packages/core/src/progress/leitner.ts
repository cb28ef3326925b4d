/**
 * The rules of the mistakes review (DESIGN §13): spaced repetition in Leitner boxes, and its XP.
 *
 * - A question enters box 1 on a wrong answer, due the next Tehran day. A question in box b is due
 *   {@link LEITNER_INTERVALS_DAYS}[b - 1] Tehran days after it entered that box: 1, 3, 7, 16, 35.
 * - A right review answer moves it up one box (due after that box's interval, counted from the day of the answer);
 *   a right answer in the last box masters it and it leaves the review. A wrong one sends it back to box 1, due the
 *   next day. A question may be reviewed before it is due (practice ahead) and moves the same way.
 * - XP: {@link XP_PER_REVIEW} for each right review answer and none for a wrong one (as everywhere in the learning
 *   loop, XP comes from right answers: rules.ts), at most {@link REVIEW_XP_DAILY_CAP} review XP a Tehran day.
 */
import { addDays } from '../calendar/tehran';

/** Days until a question in box 1..5 is due again. */
export const LEITNER_INTERVALS_DAYS: readonly number[] = [1, 3, 7, 16, 35];
export const LEITNER_BOXES = LEITNER_INTERVALS_DAYS.length;
export const XP_PER_REVIEW = 2;
export const REVIEW_XP_DAILY_CAP = 20;

/** Where a question in `box` goes after a review answer on Tehran day `today` (YYYY-MM-DD). */
export function nextBox(box: number, correct: boolean, today: string): { box: number; dueOn: string | null; mastered: boolean } {
  if (!correct) return { box: 1, dueOn: addDays(today, LEITNER_INTERVALS_DAYS[0] as number), mastered: false };
  if (box >= LEITNER_BOXES) return { box: LEITNER_BOXES, dueOn: null, mastered: true };
  return { box: box + 1, dueOn: addDays(today, LEITNER_INTERVALS_DAYS[box] as number), mastered: false };
}

/** The XP a review answer earns when `earnedToday` review XP was earned already today. */
export const reviewXp = (correct: boolean, earnedToday: number): number =>
  correct ? Math.max(0, Math.min(XP_PER_REVIEW, REVIEW_XP_DAILY_CAP - earnedToday)) : 0;
