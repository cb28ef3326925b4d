/**
 * Endpoint group `ai` (issue 5 §6): the tutor's buffered routes. It does not wire the model adapter, so the
 * openai SDK stays out of this Lambda.
 * - `GET /api/ai/history?cursor=&limit=` → `{ items: [{ id, role, text, context, lessonId, questionId, createdAt,
 *   cached?, tone?, promptTokens?, completionTokens?, rating?, comment? }], nextCursor? }`, newest first.
 * - `POST /api/ai/feedback` `{ messageId, rating: 'up' | 'down', comment? (≤ 1000) }` → the rated message.
 *   Only the caller's own answers: another learner's message id is 404.
 */
import { listHistory, rateMessage } from '@mathisland/core/tutor';
import * as z from 'zod';
import { defineGroup } from '../lib/group';
import { route, type UserInput } from '../lib/route';

const HistoryQuery = z.object({
  cursor: z.string().max(40).optional(),
  limit: z.coerce.number().int().min(1).max(50).optional(),
});
const Feedback = z.strictObject({
  messageId: z.string().min(1).max(40),
  rating: z.enum(['up', 'down']),
  comment: z.string().trim().max(1000).optional(),
});

const history = ({ deps, user, query }: UserInput<undefined, z.infer<typeof HistoryQuery>>) => listHistory(deps, user.id, query);
const rate = ({ deps, user, body }: UserInput<z.infer<typeof Feedback>, unknown>) => rateMessage(deps, user.id, body);

export const { handler, createHandler, routes } = defineGroup('ai', {
  'GET /api/ai/history': route.user({ query: HistoryQuery, run: history }),
  'POST /api/ai/feedback': route.user({ body: Feedback, run: rate }),
});
