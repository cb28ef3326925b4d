/**
 * Answering a question of the mistakes review (`POST /api/review/{questionId}/answer`; DESIGN §13).
 *
 * One read (a BatchGetItem of the question's review item, today's activity and, with an `attemptId`, the attempt)
 * after the session check, then one conditional transaction with everything the answer changes: the review item
 * moved to its next box, back to box 1, or deleted once mastered (condition: box and due day as read), the attempt
 * record (condition: not there yet), today's activity (answers, review answers and review XP; when XP is granted,
 * under the condition that the day's review XP leaves room for it, so parallel answers never pass the daily cap),
 * the last wrong answer for the tutor, the grant (grant.ts: XP on the user item and both leaderboards, today as
 * streak activity with the freezes it needs, their notifications) and the route's throttle hit. Hearts are neither
 * checked nor spent. A lost race (another answer, a grant, the nightly freeze job) cancels it all; the answer is
 * re-read and decided again, and a recorded attempt is replayed.
 */
import { getUser, type User } from '../auth';
import { tehranDay } from '../calendar/tehran';
import { retryOptimistic } from '../db/conditions';
import { getRawItems, keyId, parseItem } from '../db/items';
import type { TxItem } from '../db/transact';
import type { Deps } from '../deps';
import { commonErrors } from '../errors';
import { countEvent } from '../metrics';
import { type CountingDeps, transactCounting } from '../throttle';
import { addDayActivity, DayActivityItem, dayActivityKey } from './dayActivity.entity';
import { progressErrors } from './errors';
import { grantItems, notificationIds, planGrant } from './grant';
import { nextBox, REVIEW_XP_DAILY_CAP, reviewXp } from './leitner';
import type { Question } from './lock';
import { masterReview, moveReview, ReviewItem, reviewKey } from './review.entity';
import { putReviewAttempt, ReviewAttemptItem, type ReviewResult, reviewAttemptKey } from './reviewAttempt.entity';
import { checkAnswer } from './rules';
import { putWrongAnswer } from './wrongAnswer.entity';

export type { ReviewResult } from './reviewAttempt.entity';

/** What a review answer reads before it decides, in one request. */
async function readState(deps: Deps, userId: number, question: Question, today: string, attemptId?: string) {
  const keys = {
    item: reviewKey(userId, question.nodeId, question.id),
    day: dayActivityKey(userId, today),
    attempt: attemptId ? reviewAttemptKey(userId, attemptId) : undefined,
  };
  const found = await getRawItems(deps.db, [keys.item, keys.day, ...(keys.attempt ? [keys.attempt] : [])]);
  const raw = (key: typeof keys.item | undefined) => (key ? found.get(keyId(key)) : undefined);
  const [item, day, attempt] = [raw(keys.item), raw(keys.day), raw(keys.attempt)];
  return {
    item: item ? parseItem(ReviewItem, item) : undefined,
    earnedToday: day ? (parseItem(DayActivityItem, day).reviewXp ?? 0) : 0,
    attempt: attempt ? parseItem(ReviewAttemptItem, attempt) : undefined,
  };
}

/**
 * Checks `answer` to question `questionId` of the learner's review and moves it between Leitner boxes (leitner.ts);
 * a right answer earns 2 XP (leitner.ts) up to the day's cap. With `attemptId`, a retried request replays
 * the first result. Errors: `not_found` (the question is not in the learner's review, or not in the curriculum),
 * `validation_error` (not a choice id / not a number), `idempotency_conflict` (attemptId used for another
 * question), `throttled`, `database_busy` after 8 lost races in a row.
 */
export async function answerReview(
  deps: CountingDeps,
  user: User,
  questionId: number,
  answer: string,
  attemptId?: string,
): Promise<ReviewResult> {
  const content = await deps.content.get();
  const question = content.question(questionId);
  if (!question) throw progressErrors.notInReview();
  let current = user;
  return retryOptimistic(
    async () => {
      const now = deps.clock.now();
      const today = tehranDay(now);
      const state = await readState(deps, user.id, question, today, attemptId);
      if (state.attempt) {
        if (state.attempt.questionId !== questionId) throw progressErrors.attemptConflict();
        return state.attempt.result;
      }
      if (!state.item) throw progressErrors.notInReview();
      const correct = checkAnswer(question, answer);
      if (correct === undefined) {
        throw progressErrors.invalidAnswer(
          question.type === 'choice' ? 'answer must be the id of one of the choices' : 'answer must be a number',
        );
      }
      const next = nextBox(state.item.box, correct, today);
      const xp = reviewXp(correct, state.earnedToday);
      const result: ReviewResult = {
        correct,
        ...(correct ? {} : { correctAnswer: question.answer }),
        box: next.box,
        dueOn: next.dueOn,
        mastered: next.mastered,
        xp,
      };
      const plan = planGrant(current, { xp, counters: next.mastered ? { reviewMastered: 1 } : {}, activity: true }, now);
      const items: TxItem[] = [
        ...(attemptId ? [putReviewAttempt(deps.db, user.id, attemptId, questionId, result, now)] : []),
        next.dueOn === null
          ? masterReview(deps.db, user.id, state.item)
          : moveReview(deps.db, user.id, state.item, next.box, next.dueOn, now),
        addDayActivity(
          deps.db,
          user.id,
          now,
          { answered: 1, correct: correct ? 1 : 0, reviewAnswered: 1, ...(xp > 0 ? { reviewXp: xp } : {}) },
          xp > 0
            ? { condition: 'attribute_not_exists(reviewXp) OR reviewXp <= :capLeft', values: { ':capLeft': REVIEW_XP_DAILY_CAP - xp } }
            : {},
        ),
        ...(correct ? [] : [putWrongAnswer(deps.db, user.id, { questionId, answer, answeredAt: new Date(now).toISOString() })]),
        ...grantItems(deps, current, plan, notificationIds(deps, plan.notifications)),
      ];
      await transactCounting(deps, items);
      countEvent('Answers', { result: correct ? 'right' : 'wrong' });
      return result;
    },
    // Another answer, grant or the freeze job changed something read: read the user and everything else again.
    async () => {
      const fresh = await getUser(deps.db, user.id);
      if (!fresh) throw commonErrors.notFound('User');
      current = fresh;
      return undefined;
    },
    { busy: progressErrors.busy },
  );
}
