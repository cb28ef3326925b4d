/**
 * `POST /api/ai/ask`: one question to the tutor, answered as a stream of plain text (issue 5; spec Endpoints,
 * Errors, Limits, "Assistant data").
 *
 * Order of the steps, each only when the previous passed:
 * 1. The gate (`gate/screen.ts`, issue 16): self-harm → the help-line message; abuse → the abuse help message;
 *    personal data is redacted from the request; off-topic (stage 1, `gate/topic.ts`) → the fixed refusal, or the
 *    personal-data message when the request held personal data. None of these calls the model, spends quota,
 *    takes a slot or is stored; each is logged as a category (`tutor gate`), never with the text.
 * 2. The tutor must be on (OPENAI_API_KEY not empty), else 503 `assistant_unavailable`.
 * 3. Grounding (`grounding.ts`): the practice question (questionId), the lesson (lessonId) or the learner's grade
 *    book; unknown ids → 404, a questionId of another lesson than lessonId → 400.
 * 4. The answer session (`session.ts`): a concurrency slot of this worker, else 503 `assistant_busy` (nothing
 *    reserved yet); then the daily quota, reserved atomically with the DAY# activity counter (`quota.ts`), else
 *    429 `ai_quota_exceeded`; the conversation's last 6 messages are read meanwhile.
 * 5. The answer cache (`cache.ts`): a hit is streamed without a model call.
 * 6. Otherwise the model's answer (`modelAnswer.ts`): textbook retrieval and the model call, returned once the
 *    answer's opening (its first sentence) is decided, so every failure before it is a JSON error (503, quota given
 *    back). The model's refusal marker is the gate's stage 2: the same fixed refusal, quota given back, nothing
 *    stored (`X-Tutor-Outcome: off_topic` when it is in the opening). An answer cut at the time limit ends cleanly
 *    with a closing sentence, quota given back, nothing stored.
 * With a `questionId` the answer climbs the hint ladder, says whether the learner's attempt was right and never
 * states the practice question's answer (`hints.ts`, `guardedAnswer.ts`).
 */
import type { User } from '../auth';
import type { Deps } from '../deps';
import { logger } from '../log';
import { countEvent, type TutorOutcome } from '../metrics';
import { cachedAnswer } from './cache';
import { ABUSE_HELP_TEXT, HELP_LINE_TEXT, inLanguageOf, PERSONAL_DATA_TEXT, REFUSAL_TEXT } from './copy';
import { tutorErrors } from './errors';
import { type GateVerdict, screenRequest } from './gate/screen';
import { resolveGrounding } from './grounding';
import { modelReply } from './modelAnswer';
import { cachedReply, closeUnanswered, openSession, type TutorReply } from './session';

/** Longest userQuestion, characters (spec Limits). */
export const USER_QUESTION_MAX = 2000;

export interface AskInput {
  userQuestion: string;
  lessonId?: number;
  questionId?: number;
}

async function* once(text: string): AsyncIterable<string> {
  yield text;
}

/** The fixed message of each verdict that is not an answer. */
const FIXED_TEXTS = {
  help_line: HELP_LINE_TEXT,
  abuse_help: ABUSE_HELP_TEXT,
  personal_data: PERSONAL_DATA_TEXT,
  off_topic: REFUSAL_TEXT,
} as const;

/** The `TutorOutcomes` count of each verdict of the gate that is not an answer (infra/metrics.ts; stage 1). */
const GATE_OUTCOMES = {
  help_line: 'help_line',
  abuse_help: 'abuse_help',
  personal_data: 'personal_data',
  off_topic: 'refusal',
} as const satisfies Record<keyof typeof FIXED_TEXTS, TutorOutcome['outcome']>;

/** The gate's decision for the log: categories and reasons only, never the text (issue 16 §3). */
const gateLog = (v: GateVerdict) => ({
  outcome: v.kind,
  ...('category' in v ? { category: v.category } : {}),
  ...('reason' in v ? { reason: v.reason } : {}),
  ...('personal' in v && v.personal.length ? { personalData: v.personal } : {}),
  stage: 'classifier',
});

/**
 * Answers `input.userQuestion` for `user` (see the module doc for the steps and what each outcome does).
 * Errors before the reply (mapped to HTTP by the caller): `assistant_unavailable`, `not_found`,
 * `validation_error`, `assistant_busy`, `ai_quota_exceeded`, `database_busy`.
 */
export async function askTutor(deps: Deps, user: User, input: AskInput): Promise<TutorReply> {
  const startedAt = performance.now();
  const context = input.questionId !== undefined ? 'question' : input.lessonId !== undefined ? 'lesson' : 'book';
  const verdict = screenRequest(input.userQuestion, context);
  logger.info('tutor gate', { userId: user.id, ...gateLog(verdict) });
  if (verdict.kind !== 'ask') {
    countEvent('TutorOutcomes', { outcome: GATE_OUTCOMES[verdict.kind], stage: 'gate' });
    return { outcome: verdict.kind, chunks: once(inLanguageOf(FIXED_TEXTS[verdict.kind], input.userQuestion)) };
  }
  const model = deps.model;
  if (!model) throw tutorErrors.off();
  const resolved = await resolveGrounding(deps, user, input);
  const session = await openSession(deps, user, resolved, verdict.question, model.chatModel, startedAt, {
    redacted: verdict.personal.length > 0,
  });
  try {
    const hit = await cachedAnswer(deps, session.cacheKey);
    if (hit !== undefined) return cachedReply(session, hit);
    return await modelReply(session, model);
  } catch (error) {
    await closeUnanswered(session);
    throw error;
  }
}
