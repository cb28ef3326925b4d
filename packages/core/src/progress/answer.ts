/**
 * Answering a question (`POST /api/questions/{id}/answer`; spec "Node (island)", Errors; issue 3 §1, §2).
 *
 * The answer is checked on the server and written in one conditional transaction with everything it changes:
 * the latest answer to the question, the day's activity counters, the last wrong answer (for the tutor), the
 * attempt record (with an `attemptId`), and the user item's counters and hearts. A wrong answer costs a heart
 * (when enforced) under the condition that the stored hearts are still the ones it read, so two answers at once
 * never take the same heart twice: the loser re-reads the user and decides again (`retryOptimistic`).
 */
import { getUser, type User, userKey } from '../auth';
import { retryOptimistic } from '../db/conditions';
import { transact, update } from '../db/transact';
import type { Deps } from '../deps';
import { commonErrors } from '../errors';
import { afterLosingOne, heartsAt } from '../hearts';
import { putLatestAnswer } from './answer.entity';
import { type AnswerResult, getAttempt, putAttempt } from './attempt.entity';
import { addDayActivity } from './dayActivity.entity';
import { progressErrors } from './errors';
import { nodeOf, requireUnlocked } from './lock';
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

/**
 * Checks `answer` to question `questionId` on the server and records it as the learner's latest answer to
 * that question. A wrong answer costs one heart when hearts are enforced. With `attemptId`, a retried
 * request replays the first result instead of answering twice.
 *
 * Errors: `not_found` (question), `node_locked`, `no_hearts` (enforced, 0 hearts), `validation_error`
 * (answer not a choice id / not a number), `idempotency_conflict` (attemptId used for another question),
 * `database_busy` after 8 lost races in a row.
 */
export async function answerQuestion(
  deps: Deps,
  user: User,
  questionId: number,
  answer: string,
  attemptId?: string,
): Promise<AnswerResult> {
  const content = await deps.content.get();
  const question = content.question(questionId);
  if (!question) throw commonErrors.notFound('Question');
  const node = nodeOf(content, question.nodeId);
  await requireUnlocked(deps, user.id, node);
  const correct = checkAnswer(question, answer);
  if (correct === undefined) {
    throw progressErrors.invalidAnswer(
      question.type === 'choice' ? 'answer must be the id of one of the choices' : 'answer must be a number',
    );
  }

  let current: User = user;
  return retryOptimistic(
    async () => {
      if (attemptId) {
        const replay = await replayAttempt(deps, user.id, attemptId, questionId);
        if (replay) return replay;
      }
      const now = deps.clock.now();
      const hearts = heartsAt(current, now, deps.settings);
      if (hearts.enforced && hearts.hearts <= 0) throw progressErrors.noHearts();
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
      await transact(deps.db, [
        putLatestAnswer(deps.db, user.id, { questionId: question.id, lessonId: question.lessonId, nodeId: node.id, correct, answeredAt }),
        addDayActivity(deps.db, user.id, now, { answered: 1, correct: correct ? 1 : 0 }),
        // The learner's last wrong answer to this question, for the tutor's questionId grounding (issue 5 §2).
        ...(correct ? [] : [putWrongAnswer(deps.db, user.id, { questionId: question.id, answer, answeredAt })]),
        ...(attemptId ? [putAttempt(deps.db, user.id, attemptId, questionId, result, now)] : []),
        losesHeart
          ? update(
              deps.db,
              userKey(user.id),
              `SET hearts = :h, heartsUpdatedAt = :t${after.hearts === 0 ? ', heartsEmptyAt = :now' : ''} ADD answeredCount :one, correctCount :c`,
              {
                condition: 'attribute_exists(pk) AND hearts = :oh AND heartsUpdatedAt = :ot',
                values: {
                  ':one': 1,
                  ':c': 0,
                  ':h': after.hearts,
                  ':t': after.heartsUpdatedAt,
                  ':oh': current.hearts,
                  ':ot': current.heartsUpdatedAt,
                  ...(after.hearts === 0 ? { ':now': now } : {}),
                },
              },
            )
          : update(deps.db, userKey(user.id), 'ADD answeredCount :one, correctCount :c', {
              condition: 'attribute_exists(pk)',
              values: { ':one': 1, ':c': correct ? 1 : 0 },
            }),
      ]);
      return result;
    },
    // Another answer changed the hearts first (or the attempt was recorded concurrently): reload and retry.
    async () => {
      const fresh = await getUser(deps.db, user.id);
      if (!fresh) throw commonErrors.notFound('User');
      current = fresh;
      return undefined;
    },
    { busy: progressErrors.busy },
  );
}
