/**
 * Endpoint group `learning`: the map, answering, completing (spec "Node (island)"; DESIGN §3).
 * Shapes: home `{ gradeId, units: [{ id, title, nodes: [{ id, title, locked, completed, stars }] }] }`,
 * answer `{ correct, correctAnswer?, hearts, xp }`, completion `{ stars, xp, nextNodeId }`.
 */
import { answerQuestion, completeLesson, completeNode, home, listNodeProgress } from '@mathisland/core/progress';
import * as z from 'zod';
import { defineGroup } from '../lib/group';
import { isoTime } from '../lib/http';
import { parseId } from '../lib/middlewares/pathId';
import { json } from '../lib/responses';
import { type Counting, route, type UserInput } from '../lib/route';
import { Id, IsoTime, page, Streak } from '../lib/shapes';

const HomeQuery = z.object({ gradeId: z.string().optional() });
const Answer = z.strictObject({
  answer: z.union([z.string().min(1).max(50), z.number().finite().transform(String)]),
  attemptId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{8,64}$/, 'attemptId must be 8 to 64 of A-Z a-z 0-9 _ -')
    .optional(),
});

type Input = UserInput<undefined, unknown>;

const Home = z
  .object({
    gradeId: Id,
    title: z.string(),
    xp: z.number().int().min(0),
    stars: z.number().int().min(0),
    hearts: z.number().int().min(0),
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
  .meta({ id: 'Home', description: 'The map of a grade (DESIGN §3)' });
const NodeProgress = z.object({
  nodeId: Id,
  gradeId: Id,
  completed: z.boolean(),
  stars: z.number().int().min(0).max(3),
  xp: z.number().int().min(0),
  score: z.number().min(0),
  completedAt: IsoTime.nullable(),
});
const AnswerResult = z
  .object({
    correct: z.boolean(),
    correctAnswer: z.string().optional().meta({ description: 'The right answer, after a wrong one' }),
    hearts: z.number().int().min(0),
    maxHearts: z.number().int().positive(),
    nextHeartAt: IsoTime.nullable(),
    xp: z.number().int().min(0).meta({ description: 'XP this answer earned' }),
  })
  .meta({ id: 'AnswerResult' });
const Completion = z
  .object({
    stars: z.number().int().min(0).max(3),
    xp: z.number().int().min(0),
    nextNodeId: Id.nullable().meta({ description: 'null at the end of a grade' }),
    nodeCompleted: z.boolean(),
    alreadyCompleted: z.boolean(),
    streak: Streak,
  })
  .meta({ id: 'Completion', description: 'A node or lesson completion (DESIGN §3)' });
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

const completeQuiz = ({ deps, user, id }: Counting<Input>) => completeNode(deps, user, id);
const completeOneLesson = ({ deps, user, id }: Counting<Input>) => completeLesson(deps, user, id);

export const { handler, createHandler, routes } = defineGroup('learning', {
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
        examples: { learning: { summary: 'Right', value: { correct: true, hearts: 5, maxHearts: 5, nextHeartAt: null, xp: 10 } } },
      }),
    },
    errors: { ...locked, not_found: 'No such question.', idempotency_conflict: 'The `attemptId` was used for another answer.' },
    run: answer,
  }),
  'POST /api/nodes/{id}/quiz/complete': route.user({
    responses: { 200: completed },
    errors: completionErrors,
    throttleInTransaction: true,
    run: completeQuiz,
  }),
  'POST /api/lessons/{id}/complete': route.user({
    responses: { 200: completed },
    errors: completionErrors,
    throttleInTransaction: true,
    run: completeOneLesson,
  }),
});
