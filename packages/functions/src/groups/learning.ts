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
import { route, type UserInput } from '../lib/route';

const HomeQuery = z.object({ gradeId: z.string().optional() });
const Answer = z.strictObject({
  answer: z.union([z.string().min(1).max(50), z.number().finite().transform(String)]),
  attemptId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{8,64}$/, 'attemptId must be 8 to 64 of A-Z a-z 0-9 _ -')
    .optional(),
});

type Input = UserInput<undefined, unknown>;

const showHome = ({ deps, user, query }: UserInput<undefined, z.infer<typeof HomeQuery>>) =>
  home(deps, user, query.gradeId === undefined ? undefined : parseId(query.gradeId));

const nodeProgress = async ({ deps, user }: Input) => ({ items: await listNodeProgress(deps, user) });

async function answer({ deps, user, id, body }: UserInput<z.infer<typeof Answer>, unknown>) {
  const result = await answerQuestion(deps, user, id, body.answer, body.attemptId);
  return { ...result, nextHeartAt: isoTime(result.nextHeartAt) };
}

const completeQuiz = ({ deps, user, id }: Input) => completeNode(deps, user, id);
const completeOneLesson = ({ deps, user, id }: Input) => completeLesson(deps, user, id);

export const { handler, createHandler, routes } = defineGroup('learning', {
  'GET /api/home': route.user({ query: HomeQuery, run: showHome }),
  'GET /api/progress/nodes': route.user({ run: nodeProgress }),
  'POST /api/questions/{id}/answer': route.user({ body: Answer, throttleInTransaction: true, run: answer }),
  'POST /api/nodes/{id}/quiz/complete': route.user({ throttleInTransaction: true, run: completeQuiz }),
  'POST /api/lessons/{id}/complete': route.user({ throttleInTransaction: true, run: completeOneLesson }),
});
