/**
 * Endpoint group `ai` (issue 5 §6): the tutor's buffered routes.
 * - `GET /api/ai/history?cursor=&limit=` → `{ items: [{ id, role, text, context, lessonId, questionId, createdAt,
 *   cached?, tone?, promptTokens?, completionTokens?, rating?, comment? }], nextCursor? }`, newest first.
 * - `POST /api/ai/feedback` `{ messageId, rating: 'up' | 'down', comment? (≤ 1000) }` → the rated message.
 *   Only the caller's own answers: another learner's message id is 404.
 */
// The conversation module only: this Lambda does not need the model client (the openai SDK).
import { listHistory, rateMessage } from '@mathisland/core/tutor/conversation';
import { z } from 'zod';
import { defineGroup, route } from '../lib/group';

export const { handler, routes } = defineGroup('ai', {
  'GET /api/ai/history': route({
    query: z.object({
      cursor: z.string().max(40).optional(),
      limit: z.coerce.number().int().min(1).max(50).optional(),
    }),
    run: ({ deps, user, query }) => listHistory(deps, user.id, query),
  }),
  'POST /api/ai/feedback': route({
    body: z.strictObject({
      messageId: z.string().min(1).max(40),
      rating: z.enum(['up', 'down']),
      comment: z.string().trim().max(1000).optional(),
    }),
    run: ({ deps, user, body }) => rateMessage(deps, user.id, body),
  }),
});
