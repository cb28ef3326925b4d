/**
 * What a tutor answer is grounded in (issue 5 §2, §3; spec `POST /api/ai/ask`: "lessonId and questionId
 * ground the answer: questionId gives the tutor the practice question and the learner's wrong answer").
 *
 * - `questionId`: the practice question (text, choices, correct answer), its lesson, the learner's last wrong
 *   answer to it and their latest answer (progress/: the attempt of `hints.ts`); the tone is `guide` (lead, do not
 *   reveal) and the conversation `question:<id>`. A `lessonId` given with it must be the question's lesson.
 * - `lessonId`: the lesson's title and body; tone `explain`, conversation `lesson:<id>`.
 * - neither: the book of the learner's grade (DEFAULT_GRADE_ID before they chose one); conversation `book:<gradeId>`.
 *
 * Then the textbook: the chunks of the grade's book (of the lesson, when there is one) closest to the question
 * (`retrieval.ts`) go into the system message with the grounding (`prompt.ts`).
 */
import { gradeOf, type User } from '../auth';
import type { Curriculum } from '../curriculum';
import type { Deps } from '../deps';
import { commonErrors } from '../errors';
import { lastWrongAnswer, latestAnswer } from '../progress';
import type { ChatMessage, ModelClient } from '../providers/ports';
import type { AnswerKey } from './answerForms';
import { type Attempt, displayAnswer, storedAttempt } from './hints';
import { buildMessages, type Grounding } from './prompt';
import { retrieve } from './retrieval';

/** The grounding of one question, before retrieval. */
export interface ResolvedGrounding {
  grounding: Omit<Grounding, 'chunks'>;
  /** The lesson the answer is about (lessonId, or the practice question's lesson). */
  lessonId?: number;
  questionId?: number;
  /** The learner's last wrong answer to the practice question, as they sent it. */
  wrongAnswer?: string;
  /** The practice question's answer key (for the answer guard) and the learner's latest stored attempt. */
  practice?: { key: AnswerKey; attempt?: Attempt };
}

async function practiceQuestion(
  deps: Deps,
  user: User,
  curriculum: Curriculum,
  questionId: number,
  lessonId: number | undefined,
): Promise<ResolvedGrounding> {
  const q = curriculum.question(questionId);
  if (!q) throw commonErrors.notFound('Question');
  if (lessonId !== undefined && lessonId !== q.lessonId) {
    throw commonErrors.validation('The question is not part of this lesson', { questionId: ['Not a question of lessonId'] });
  }
  const lesson = curriculum.lesson(q.lessonId);
  const [wrongItem, latest] = await Promise.all([lastWrongAnswer(deps.db, user.id, q.id), latestAnswer(deps.db, user.id, q.nodeId, q.id)]);
  const wrong = wrongItem?.answer;
  const key: AnswerKey = { type: q.type, answer: q.answer, choices: q.choices, questionText: q.text };
  const display = (answer: string) => displayAnswer(key, answer);
  return {
    lessonId: q.lessonId,
    questionId: q.id,
    wrongAnswer: wrong,
    practice: { key, attempt: storedAttempt(key, latest, wrongItem) },
    grounding: {
      gradeId: q.gradeId,
      lesson: lesson ? { id: lesson.id, title: lesson.title, body: lesson.body } : undefined,
      question: {
        id: q.id,
        text: q.text,
        choices: q.choices?.map((c) => `${c.id}) ${c.text}`),
        correctAnswer: display(q.answer),
        ...(wrong !== undefined ? { lastWrongAnswer: display(wrong) } : {}),
      },
      tone: 'guide',
      context: `question:${q.id}`,
    },
  };
}

/**
 * The grounding of a question (see the module doc). Errors: `not_found` (unknown lessonId or questionId),
 * `validation_error` (a questionId of another lesson than lessonId).
 */
export async function resolveGrounding(
  deps: Deps,
  user: User,
  input: { lessonId?: number; questionId?: number },
): Promise<ResolvedGrounding> {
  const curriculum = await deps.content.get();
  if (input.questionId !== undefined) return practiceQuestion(deps, user, curriculum, input.questionId, input.lessonId);
  if (input.lessonId !== undefined) {
    const lesson = curriculum.lesson(input.lessonId);
    if (!lesson) throw commonErrors.notFound('Lesson');
    return {
      lessonId: lesson.id,
      grounding: {
        gradeId: lesson.gradeId,
        lesson: { id: lesson.id, title: lesson.title, body: lesson.body },
        tone: 'explain',
        context: `lesson:${lesson.id}`,
      },
    };
  }
  const gradeId = gradeOf(user);
  return { grounding: { gradeId, tone: 'explain', context: `book:${gradeId}` } };
}

/**
 * The messages of the model call: the grounding with the textbook chunks retrieved for `question`, the
 * conversation's `history`, the question. Throws when the embeddings API fails (or `signal` aborts it).
 */
export async function groundedMessages(
  deps: Deps,
  model: ModelClient,
  resolved: ResolvedGrounding,
  history: ChatMessage[],
  question: string,
  signal: AbortSignal,
): Promise<ChatMessage[]> {
  const chunks = await retrieve(deps, model, { gradeId: resolved.grounding.gradeId, lessonId: resolved.lessonId, query: question, signal });
  return buildMessages({ ...resolved.grounding, chunks }, history, question);
}
