/**
 * Endpoint group `learning`: the map, answering, completing (spec "Node (island)"; DESIGN §3).
 * Shapes: home `{ gradeId, units: [{ id, title, nodes: [{ id, title, locked, completed, stars }] }] }`,
 * answer `{ correct, correctAnswer?, hearts, xp }`, completion `{ stars, xp, nextNodeId }`.
 */
import { answerQuestion, completeLesson, completeNode, home, listNodeProgress } from '@mathisland/core/progress/index';
import { z } from 'zod';
import { defineGroup, isoTime, parseId, route } from '../lib/group';

export const { handler, routes } = defineGroup('learning', {
  'GET /api/home': route({
    query: z.object({ gradeId: z.string().optional() }),
    run: ({ deps, user, query }) => home(deps, user, query.gradeId === undefined ? undefined : parseId(query.gradeId)),
  }),
  'GET /api/progress/nodes': route({
    run: async ({ deps, user }) => ({ items: await listNodeProgress(deps, user) }),
  }),
  'POST /api/questions/{id}/answer': route({
    body: z.strictObject({
      answer: z.union([z.string().min(1).max(50), z.number().finite().transform(String)]),
      attemptId: z
        .string()
        .regex(/^[A-Za-z0-9_-]{8,64}$/, 'attemptId must be 8 to 64 of A-Z a-z 0-9 _ -')
        .optional(),
    }),
    async run({ deps, user, id, body }) {
      const result = await answerQuestion(deps, user, id, body.answer, body.attemptId);
      return { ...result, nextHeartAt: isoTime(result.nextHeartAt) };
    },
  }),
  'POST /api/nodes/{id}/quiz/complete': route({ run: ({ deps, user, id }) => completeNode(deps, user, id) }),
  'POST /api/lessons/{id}/complete': route({ run: ({ deps, user, id }) => completeLesson(deps, user, id) }),
});
