/**
 * Hints that teach (issue 16 §4): with a `questionId`, the tutor tells the learner whether their attempt was right
 * and climbs a hint ladder across the conversation, never stating the final answer (`answerGuard.ts`).
 *
 * - The attempt: an answer typed in the message itself (`is it 12?`, `جوابش ۴۵ است؟`, `گزینه ب`), else the
 *   learner's latest answer to the question (progress: `latestAnswer`; when it was wrong, `lastWrongAnswer` holds
 *   what they answered). Checked against the answer key. A stored attempt is reported once: when it is newer than
 *   the conversation's last answer of the tutor; a typed one always.
 * - The ladder: 1 nudge (what to look at), 2 method (how such a question is solved, with other numbers), 3 worked
 *   step (the first step done on the question's own numbers, the rest left to the learner). The rung of each
 *   answer is stored with the conversation's messages; the next answer in the same conversation (60 minutes, the
 *   conversation window) climbs one rung, and the top rung repeats.
 */
import type { AnswerKey } from './answerForms';
import { numericTokens } from './answerForms';
import { canon } from './canon';
import { ATTEMPT_TEXT } from './copy';

export const HINT_RUNGS = ['nudge', 'method', 'worked_step'] as const;
export type HintRung = 1 | 2 | 3;

export interface Attempt {
  /** As the learner gave it (a choice id, or a number as written). */
  answer: string;
  correct: boolean;
  /** When it was submitted, epoch ms; undefined for an answer typed in the message. */
  atMs?: number;
}

export interface HintStep {
  rung: HintRung;
  /** The attempt to tell the learner about in this answer, if any. */
  report?: Attempt;
  /** The attempt the tutor knows of (reported or not). */
  attempt?: Attempt;
}

/** Whether `given` answers `key` (choice id, or the same number in any digits). */
export function isRight(key: AnswerKey, given: string): boolean {
  if (key.type === 'choice') return given.trim() === key.answer;
  const value = Number(canon(given).text.replace(/\s/g, ''));
  return Number.isFinite(value) && value === Number(key.answer);
}

/** The learner's latest stored attempt: their latest answer (right → the key; wrong → their last wrong answer). */
export function storedAttempt(
  key: AnswerKey,
  latest: { correct: boolean; answeredAt: string } | undefined,
  lastWrong: { answer: string; answeredAt: string } | undefined,
): Attempt | undefined {
  if (latest?.correct) return { answer: key.answer, correct: true, atMs: Date.parse(latest.answeredAt) };
  if (lastWrong) return { answer: lastWrong.answer, correct: isRight(key, lastWrong.answer), atMs: Date.parse(lastWrong.answeredAt) };
  return undefined;
}

const FA_LETTERS = ['الف', 'ب', 'ج', 'د'];
const CHOICE_CUE = /(?:گزینه|option|choice|answer|جواب|جوابش|پاسخ)\s*(?:ی|is|هست|:)?\s*[«"'(]?\s*([a-d]|الف|ب|ج|د|[1-4])(?![\p{L}\d])/u;

/**
 * An answer typed in `message` (see the module doc): for a number question the one number of the message that
 * is not in the question text; for a choice question a choice named after a cue word (`گزینه ب`, `option c`), a
 * message that is only a choice id, or the text of exactly one choice. Undefined when there is none or several.
 */
export function typedAttempt(key: AnswerKey, message: string): Attempt | undefined {
  const text = canon(message).text.trim();
  if (text.split(/\s+/).length > 14) return undefined;
  if (key.type === 'number') {
    const inQuestion = new Set(numericTokens(key.questionText));
    const own = [...new Set(numericTokens(message))].filter((t) => !inQuestion.has(t));
    if (own.length !== 1 || own[0]?.includes('/')) return undefined;
    return { answer: own[0] as string, correct: isRight(key, own[0] as string) };
  }
  const choices = key.choices ?? [];
  const named = CHOICE_CUE.exec(text)?.[1] ?? /^[«"'(]?([a-d]|الف|ب|ج|د)[)»"'.؟?!]*$/u.exec(text)?.[1];
  let id: string | undefined;
  if (named) {
    const byLetter = FA_LETTERS.indexOf(named);
    const index = byLetter >= 0 ? byLetter : /^[1-4]$/.test(named) ? Number(named) - 1 : -1;
    id = index >= 0 ? choices[index]?.id : choices.find((c) => c.id === named)?.id;
  } else {
    const byText = choices.filter((c) => {
      const t = canon(c.text).text.trim();
      return t.length >= 2 && text.includes(t);
    });
    if (byText.length === 1) id = byText[0]?.id;
  }
  return id === undefined ? undefined : { answer: id, correct: id === key.answer };
}

/**
 * The hint step of an answer: `conversation` is what the conversation's stored messages say (the last answer's
 * rung and instant, epoch ms), `stored` the learner's stored attempt, `message` the request.
 */
export function planHint(
  key: AnswerKey,
  conversation: { lastRung?: number; lastAnswerAtMs?: number },
  stored: Attempt | undefined,
  message: string,
): HintStep {
  const last = conversation.lastRung ?? 0;
  const rung: HintRung = last >= 2 ? 3 : last === 1 ? 2 : 1;
  const typed = typedAttempt(key, message);
  const attempt = typed ?? stored;
  const fresh =
    typed !== undefined || (stored?.atMs !== undefined && stored.atMs > (conversation.lastAnswerAtMs ?? Number.NEGATIVE_INFINITY));
  return { rung, attempt, ...(attempt && fresh ? { report: attempt } : {}) };
}

/** How an answer is shown to the learner and to the model: a choice as `b) ۳/۴`, a number as given. */
export function displayAnswer(key: AnswerKey, answer: string): string {
  const choice = key.choices?.find((c) => c.id === answer);
  return choice ? `${choice.id}) ${choice.text}` : answer;
}

/** The sentence telling the learner whether `attempt` was right (copy.ts ATTEMPT_TEXT). */
export function attemptSentence(key: AnswerKey, attempt: Attempt, persian: boolean): string {
  const lang = persian ? 'fa' : 'en';
  return attempt.correct ? ATTEMPT_TEXT.right[lang] : ATTEMPT_TEXT.wrong[lang].replace('{answer}', displayAnswer(key, attempt.answer));
}
