/**
 * Answering a question (`POST /api/questions/{id}/answer`; spec "Node (island)", Errors; issue 3 §1, §2).
 *
 * The answer is checked on the server and written in one conditional transaction with everything it changes
 * and everything it must hold: the latest answer to the question, the day's activity counters, the last wrong
 * answer (for the tutor) and the question's place in the mistakes review (box 1, due tomorrow: review.entity.ts),
 * the attempt record (with an `attemptId`, condition: not recorded yet), the user item's
 * counters and hearts, the lock rule (a check that the node before is completed) and the route's throttle hit
 * (`transactCounting`). So a call sends two DynamoDB requests: the session check, which loaded the user, and
 * the transaction (issue 15). A wrong answer costs a heart (when enforced) under the condition that the stored
 * hearts are still the ones it read, so two answers at once never take the same heart twice: the loser re-reads
 * the user and decides again (`retryOptimistic`). The cancellation reasons tell a locked node (403) and a
 * recorded attempt (its result replayed) apart from a lost race.
 */
import { getUser, type User, updateUser, userCondition } from '../auth';
import { failedItems, retryOptimistic } from '../db/conditions';
import type { TxItem } from '../db/transact';
import type { Deps } from '../deps';
import { commonErrors } from '../errors';
import { afterLosingOne, heartsAt } from '../hearts';
import { countEvent } from '../metrics';
import { type CountingDeps, transactCounting } from '../throttle';
import { putLatestAnswer } from './answer.entity';
import { type AnswerResult, getAttempt, putAttempt } from './attempt.entity';
import { addDayActivity } from './dayActivity.entity';
import { progressErrors } from './errors';
import { nodeOf, requireUnlocked, unlockedCheck } from './lock';
import { putMistake } from './review.entity';
import { checkAnswer } from './rules';
import { putWrongAnswer } from './wrongAnswer.entity';

export type { AnswerResult } from './attempt.entity';

/** The result recorded for `attemptId`, or undefined. Errors: `idempotency_conflict` (recorded for another question). */
async function replayAttempt(deps: Deps, userId: number, attemptId: string, questionId: number): Promise<AnswerResult | undefined> {
  const item = await getAttempt(deps.db, userId, attemptId);
  if (!item) return undefined;
  if (item.questionId !== questionId) throw progressErrors.attemptConflict();
  return item.result;
}

/** The user item's part of an answer: counters, and the hearts (condition: still the ones read) when one is lost. */
function userUpdate(
  deps: Deps,
  current: User,
  correct: boolean,
  after: { hearts: number; heartsUpdatedAt: number } | undefined,
  now: number,
) {
  const counted = { add: { answeredCount: 1, correctCount: correct ? 1 : 0 } };
  if (!after) return updateUser(deps.db, current.id, counted);
  return updateUser(
    deps.db,
    current.id,
    {
      ...counted,
      set: { hearts: after.hearts, heartsUpdatedAt: after.heartsUpdatedAt, ...(after.hearts === 0 ? { heartsEmptyAt: now } : {}) },
    },
    userCondition.all(userCondition.exists(), userCondition.is({ hearts: current.hearts, heartsUpdatedAt: current.heartsUpdatedAt })),
  );
}

/**
 * Checks `answer` to question `questionId` on the server and records it as the learner's latest answer to
 * that question. A wrong answer costs one heart when hearts are enforced. With `attemptId`, a retried
 * request replays the first result instead of answering twice.
 *
 * Errors: `not_found` (question), `node_locked`, `no_hearts` (enforced, 0 hearts), `validation_error`
 * (answer not a choice id / not a number), `idempotency_conflict` (attemptId used for another question),
 * `throttled` (the route's window is full: nothing written), `database_busy` after 8 lost races in a row.
 */
export async function answerQuestion(
  deps: CountingDeps,
  user: User,
  questionId: number,
  answer: string,
  attemptId?: string,
): Promise<AnswerResult> {
  const content = await deps.content.get();
  const question = content.question(questionId);
  if (!question) throw commonErrors.notFound('Question');
  const node = nodeOf(content, question.nodeId);
  const correct = checkAnswer(question, answer);
  if (correct === undefined) {
    await requireUnlocked(deps, user.id, node); // a locked node is 403 whatever the answer
    throw progressErrors.invalidAnswer(
      question.type === 'choice' ? 'answer must be the id of one of the choices' : 'answer must be a number',
    );
  }
  const lock = unlockedCheck(deps, user.id, node);

  let current: User = user;
  return retryOptimistic(
    async () => {
      const now = deps.clock.now();
      const hearts = heartsAt(current, now, deps.settings);
      if (hearts.enforced && hearts.hearts <= 0) {
        // A retried request whose first try took the last heart replays its result.
        const replay = attemptId ? await replayAttempt(deps, user.id, attemptId, questionId) : undefined;
        if (replay) return replay;
        // A locked node is 403 `node_locked` whatever the hearts (as for a malformed answer): only this refusal,
        // not the answer's own path, pays the read.
        if (lock) await requireUnlocked(deps, user.id, node);
        throw progressErrors.noHearts();
      }
      const losesHeart = !correct && hearts.enforced;
      const after = losesHeart ? afterLosingOne(hearts, now) : hearts.stored;
      const afterState = heartsAt(after, now, deps.settings);
      const result: AnswerResult = {
        correct,
        ...(correct ? {} : { correctAnswer: question.answer }),
        hearts: afterState.hearts,
        maxHearts: afterState.maxHearts,
        nextHeartAt: afterState.nextHeartAt,
        xp: current.xp,
      };
      const answeredAt = new Date(now).toISOString();
      // The lock check and the attempt come first, so their cancellation reasons have fixed positions.
      const items: TxItem[] = [
        ...(lock ? [lock] : []),
        ...(attemptId ? [putAttempt(deps.db, user.id, attemptId, questionId, result, now)] : []),
        putLatestAnswer(deps.db, user.id, { questionId: question.id, lessonId: question.lessonId, nodeId: node.id, correct, answeredAt }),
        addDayActivity(deps.db, user.id, now, { answered: 1, correct: correct ? 1 : 0 }),
        // The learner's last wrong answer to this question, for the tutor's questionId grounding (issue 5 §2), and
        // the question into the mistakes review, box 1, due tomorrow (DESIGN §13).
        ...(correct
          ? []
          : [
              putWrongAnswer(deps.db, user.id, { questionId: question.id, answer, answeredAt }),
              putMistake(deps.db, user.id, question.id, node.id, now),
            ]),
        userUpdate(deps, current, correct, losesHeart ? after : undefined, now),
      ];
      await transactCounting(deps, items);
      countEvent('Answers', { result: correct ? 'right' : 'wrong' });
      return result;
    },
    // Locked, or the attempt was recorded (by an earlier try of this request, or concurrently): decide from that.
    // Otherwise another answer changed the hearts first: reload and retry.
    async (error) => {
      const failed = failedItems(error);
      if (lock && failed.includes(0)) throw progressErrors.nodeLocked();
      if (attemptId && failed.includes(lock ? 1 : 0)) {
        const replay = await replayAttempt(deps, user.id, attemptId, questionId);
        if (replay) return { result: replay };
      }
      const fresh = await getUser(deps.db, user.id);
      if (!fresh) throw commonErrors.notFound('User');
      current = fresh;
      return undefined;
    },
    { busy: progressErrors.busy },
  );
}
