/**
 * Endpoint group `ai` (issue 5 §6): the tutor's buffered routes. It does not wire the model adapter, so the
 * openai SDK stays out of this Lambda.
 * - `GET /api/ai/history?cursor=&limit=` → `{ items: [{ id, role, text, context, lessonId, questionId, createdAt,
 *   cached?, tone?, promptTokens?, completionTokens?, rating?, comment? }], nextCursor? }`, newest first.
 * - `POST /api/ai/feedback` `{ messageId, rating: 'up' | 'down', comment? (≤ 1000) }` → the rated message.
 *   Only the caller's own answers: another learner's message id is 404.
 */
import { lazySchema } from '@mathisland/core';
import { listHistory, rateMessage } from '@mathisland/core/tutor';
import * as z from 'zod';
import { aiRoutes } from '../../../../infra/routes/ai';
import { defineGroup } from '../lib/group';
import { json } from '../lib/responses';
import { route, type UserInput } from '../lib/route';
import { Id, IsoTime, page, responseShape } from '../lib/shapes';

const HistoryQuery = lazySchema(() =>
  z.object({
    cursor: z.string().max(40).optional(),
    limit: z.coerce.number().int().min(1).max(50).optional(),
  }),
);
const Feedback = lazySchema(() =>
  z.strictObject({
    messageId: z.string().min(1).max(40),
    rating: z.enum(['up', 'down']),
    comment: z.string().trim().max(1000).optional(),
  }),
);

const Message = responseShape(() =>
  z
    .object({
      id: z.string(),
      role: z.enum(['user', 'assistant']),
      text: z.string(),
      context: z.string().meta({ description: 'What grounded it, e.g. `book:4`, `question:400123`' }),
      lessonId: Id.nullable(),
      questionId: Id.nullable(),
      createdAt: IsoTime,
      cached: z.boolean().optional(),
      tone: z.string().optional(),
      hintRung: z.number().int().min(1).max(3).optional(),
      promptTokens: z.number().int().min(0).optional(),
      completionTokens: z.number().int().min(0).optional(),
      rating: z.enum(['up', 'down']).optional(),
      comment: z.string().optional(),
    })
    .meta({ id: 'TutorMessage' }),
);

const history = ({ deps, user, query }: UserInput<undefined, z.infer<typeof HistoryQuery>>) => listHistory(deps, user.id, query);
const rate = ({ deps, user, body }: UserInput<z.infer<typeof Feedback>, unknown>) => rateMessage(deps, user.id, body);

export const { handler, createHandler, routes } = defineGroup(aiRoutes, {
  'GET /api/ai/history': route.user({
    query: HistoryQuery,
    description: 'Newest first, 20 per page (at most 50).',
    responses: { 200: page(Message) },
    run: history,
  }),
  'POST /api/ai/feedback': route.user({
    body: Feedback,
    description: 'Only an answer (not a question) of the caller’s can be rated.',
    responses: { 200: json(Message, 'The rated answer') },
    errors: { not_found: 'No such answer of the caller’s.' },
    run: rate,
  }),
});
