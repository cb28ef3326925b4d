/**
 * Endpoint group `learning`: the map, answering, completing (spec "Node (island)"; DESIGN §3), and the mistakes
 * review (DESIGN §13). Shapes: home `{ gradeId, units: [{ id, title, nodes: [{ id, title, locked, completed, stars }] }],
 * streak, reviewDue }`, answer `{ correct, correctAnswer?, hearts, xp }`, completion `{ stars, xp, nextNodeId }`, review
 * `{ dueCount, items: [{ questionId, nodeId, box, dueOn }] }`, review answer `{ correct, correctAnswer?, box, dueOn }`.
 */
import { lazySchema } from '@mathisland/core';
import { publicQuestion } from '@mathisland/core/curriculum';
import {
  answerQuestion,
  answerReview,
  completeLesson,
  completeNode,
  home,
  LEITNER_INTERVALS_DAYS,
  listNodeProgress,
  REVIEW_XP_DAILY_CAP,
  reviewQueue,
} from '@mathisland/core/progress';
import * as z from 'zod';
import { learningRoutes } from '../../../../infra/routes/learning';
import { defineGroup } from '../lib/group';
import { isoTime } from '../lib/http';
import { parseId } from '../lib/middlewares/pathId';
import { json } from '../lib/responses';
import { type Counting, route, type UserInput } from '../lib/route';
import { Day, Id, IsoTime, page, Question, responseShape, Streak, StreakWithFreezes } from '../lib/shapes';

const HomeQuery = lazySchema(() => z.object({ gradeId: z.string().optional() }));
const Answer = lazySchema(() =>
  z.strictObject({
    answer: z.union([z.string().min(1).max(50), z.number().finite().transform(String)]),
    attemptId: z
      .string()
      .regex(/^[A-Za-z0-9_-]{8,64}$/, 'attemptId must be 8 to 64 of A-Z a-z 0-9 _ -')
      .optional(),
  }),
);

/**
 * What the app may send when it completes a node's quiz or a lesson (spec Endpoints: "score data", "none/score"):
 * nothing, or its own tally in any shape. Accepted and ignored: stars and XP come from the answers the server recorded
 * (docs/decisions.md "Completion bodies"), so a client cannot raise its own score.
 */
const ScoreData = lazySchema(() =>
  z.union([
    z.undefined(),
    z.looseObject({}).meta({
      id: 'ScoreData',
      description:
        'The app’s own score data (for example `{ "score": 7, "total": 8 }`), accepted and ignored: stars and XP are computed from the answers the server recorded.',
      examples: [{ score: 7, total: 8 }],
    }),
  ]),
);

type Input = UserInput<undefined, unknown>;

const Home = responseShape(() =>
  z
    .object({
      gradeId: Id,
      title: z.string(),
      xp: z.number().int().min(0),
      stars: z.number().int().min(0),
      hearts: z.number().int().min(0),
      streak: StreakWithFreezes,
      reviewDue: z.number().int().min(0).meta({ description: 'Questions of the mistakes review due today or earlier (GET /api/review)' }),
      units: z.array(
        z.object({
          id: Id,
          title: z.string(),
          nodes: z.array(
            z.object({ id: Id, title: z.string(), locked: z.boolean(), completed: z.boolean(), stars: z.number().int().min(0).max(3) }),
          ),
        }),
      ),
    })
    .meta({ id: 'Home', description: 'The map of a grade (DESIGN §3)' }),
);
const NodeProgress = responseShape(() =>
  z.object({
    nodeId: Id,
    gradeId: Id,
    completed: z.boolean(),
    stars: z.number().int().min(0).max(3),
    xp: z.number().int().min(0),
    score: z.number().min(0),
    completedAt: IsoTime.nullable(),
  }),
);
const AnswerResult = responseShape(() =>
  z
    .object({
      correct: z.boolean(),
      correctAnswer: z.string().optional().meta({ description: 'The right answer, after a wrong one' }),
      hearts: z.number().int().min(0),
      maxHearts: z.number().int().positive(),
      nextHeartAt: IsoTime.nullable(),
      xp: z
        .number()
        .int()
        .min(0)
        .meta({ description: 'The learner’s total XP after this answer (XP is granted when a lesson or node is completed)' }),
    })
    .meta({ id: 'AnswerResult' }),
);
const Completion = responseShape(() =>
  z
    .object({
      stars: z.number().int().min(0).max(3),
      xp: z.number().int().min(0),
      nextNodeId: Id.nullable().meta({ description: 'null at the end of a grade' }),
      nodeCompleted: z.boolean(),
      alreadyCompleted: z.boolean(),
      streak: Streak,
    })
    .meta({ id: 'Completion', description: 'A node or lesson completion (DESIGN §3)' }),
);
const Box = z.number().int().min(1).max(5).meta({ description: 'Leitner box, 1-5' });
const Review = responseShape(() =>
  z
    .object({
      dueCount: z.number().int().min(0).meta({ description: 'Questions due today or earlier' }),
      items: z.array(
        z.object({
          questionId: Id,
          nodeId: Id,
          box: Box,
          dueOn: Day.meta({ description: 'The Tehran day it is due' }),
          due: z.boolean().meta({ description: 'Due today or earlier (later ones may be practised ahead)' }),
          question: Question,
        }),
      ),
    })
    .meta({ id: 'Review', description: 'The mistakes review: up to 20 questions, due first, then the next due (DESIGN §13)' }),
);
const ReviewResult = responseShape(() =>
  z
    .object({
      correct: z.boolean(),
      correctAnswer: z.string().optional().meta({ description: 'The right answer, after a wrong one' }),
      box: Box.meta({ description: 'The box it is in now (the last when mastered)' }),
      dueOn: Day.nullable().meta({ description: 'When it is due again; null when mastered (it left the review)' }),
      mastered: z.boolean(),
      xp: z
        .number()
        .int()
        .min(0)
        .meta({ description: `XP this answer earned: 2 when right, up to ${REVIEW_XP_DAILY_CAP} review XP a Tehran day` }),
    })
    .meta({ id: 'ReviewResult' }),
);

const locked = {
  node_locked: 'The node is still locked (finish the one before it).',
  no_hearts: 'Out of hearts while they are enforced; `GET /api/hearts` says when one comes back.',
};
const completionErrors = {
  ...locked,
  not_found: 'No such node or lesson.',
  answers_missing: 'Not every question has a recorded answer yet.',
};
const completed = json(Completion, 'Completed: stars, XP, the next node', {
  examples: {
    learning: {
      summary: 'A lesson completed',
      value: { stars: 3, xp: 65, nextNodeId: 102, nodeCompleted: true, alreadyCompleted: false, streak: { current: 4, longest: 9 } },
    },
  },
});

const showHome = ({ deps, user, query }: UserInput<undefined, z.infer<typeof HomeQuery>>) =>
  home(deps, user, query.gradeId === undefined ? undefined : parseId(query.gradeId));

const nodeProgress = async ({ deps, user }: Input) => ({ items: await listNodeProgress(deps, user) });

async function answer({ deps, user, id, body }: Counting<UserInput<z.infer<typeof Answer>, unknown>>) {
  const result = await answerQuestion(deps, user, id, body.answer, body.attemptId);
  return { ...result, nextHeartAt: isoTime(result.nextHeartAt) };
}

async function review({ deps, user }: Input) {
  const queue = await reviewQueue(deps, user);
  return {
    dueCount: queue.dueCount,
    items: queue.items.map(({ question, ...entry }) => ({ ...entry, question: publicQuestion(question) })),
  };
}

const answerInReview = ({ deps, user, id, body }: Counting<UserInput<z.infer<typeof Answer>, unknown>>) =>
  answerReview(deps, user, id, body.answer, body.attemptId);

/** A completion's input: its body, the app's score data, is not read (see {@link ScoreData}). */
type CompletionInput = Counting<UserInput<z.infer<typeof ScoreData>, unknown>>;
const completeQuiz = ({ deps, user, id }: CompletionInput) => completeNode(deps, user, id);
const completeOneLesson = ({ deps, user, id }: CompletionInput) => completeLesson(deps, user, id);

export const { handler, createHandler, routes } = defineGroup(learningRoutes, {
  'GET /api/home': route.user({
    query: HomeQuery,
    description: 'The learner’s grade unless `gradeId` names another.',
    responses: { 200: Home },
    errors: { invalid_id: '`gradeId` is not an ASCII decimal id.', not_found: 'No such grade.' },
    run: showHome,
  }),
  'GET /api/progress/nodes': route.user({ responses: { 200: page(NodeProgress) }, run: nodeProgress }),
  'POST /api/questions/{id}/answer': route.user({
    body: Answer,
    throttleInTransaction: true,
    bodyExamples: {
      learning: { summary: 'A choice answered', value: { answer: 'b', attemptId: 'att-7f3a9c21' } },
      number: { summary: 'A number answered', value: { answer: '42' } },
    },
    description:
      'Checked and recorded on the server: the choice id of a choice question, the number (ASCII, Persian or Arabic-Indic digits) of a number question. The same `attemptId` again replays the first result.',
    responses: {
      200: json(AnswerResult, 'Checked and recorded', {
        examples: { learning: { summary: 'Right', value: { correct: true, hearts: 5, maxHearts: 5, nextHeartAt: null, xp: 240 } } },
      }),
    },
    errors: { ...locked, not_found: 'No such question.', idempotency_conflict: 'The `attemptId` was used for another answer.' },
    run: answer,
  }),
  'POST /api/nodes/{id}/quiz/complete': route.user({
    body: ScoreData,
    responses: { 200: completed },
    errors: completionErrors,
    throttleInTransaction: true,
    run: completeQuiz,
  }),
  'POST /api/lessons/{id}/complete': route.user({
    body: ScoreData,
    responses: { 200: completed },
    errors: completionErrors,
    throttleInTransaction: true,
    run: completeOneLesson,
  }),
  'GET /api/review': route.user({
    description:
      'Every wrong answer puts its question in box 1, due the next Tehran day; a question in box 1-5 is due ' +
      `${LEITNER_INTERVALS_DAYS.join(', ')} days after it entered that box. Questions not due yet follow the due ones and may be practised ahead.`,
    responses: { 200: Review },
    run: review,
  }),
  'POST /api/review/{id}/answer': route.user({
    body: Answer,
    throttleInTransaction: true,
    bodyExamples: { review: { summary: 'A review answer', value: { answer: 'b', attemptId: 'review-7f3a9c21' } } },
    description:
      '`{id}` is the question id. Right moves the question up a box (right in box 5: mastered, it leaves the review), wrong sends it back to box 1. ' +
      'Costs no heart; counts as today’s activity for the streak. The same `attemptId` again replays the first result.',
    responses: {
      200: json(ReviewResult, 'Checked; the question moved', {
        examples: {
          review: { summary: 'Right, up to box 3', value: { correct: true, box: 3, dueOn: '2026-11-27', mastered: false, xp: 2 } },
        },
      }),
    },
    errors: {
      not_found: 'The question is not in the caller’s review.',
      idempotency_conflict: 'The `attemptId` was used for another question.',
    },
    run: answerInReview,
  }),
});
