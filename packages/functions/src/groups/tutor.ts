/**
 * Endpoint group `tutor` (issue 5): `POST /api/ai/ask`, a streamed route. Deployed as a Lambda function URL in
 * RESPONSE_STREAM mode (stacks/Tutor.ts); locally served by the same handler through the `streamifyResponse`
 * shim (packages/local/src/awslambda.ts). The only groups wiring the model adapter are this one and `rag`.
 *
 * Body `{ userQuestion (1-2000 characters), lessonId?, questionId? }`. Success: 200 `text/plain; charset=utf-8`,
 * the answer written as the model produces it, with headers `X-Tutor-Outcome` (`answer`, `cached`,
 * `off_topic`, `help_line`, `abuse_help`, `personal_data`) and, for answers, `X-Message-Id` (the id to rate with `POST /api/ai/feedback`).
 * Errors before the first byte are JSON (400, 401, 404, 429 `ai_quota_exceeded`, 503 `assistant_busy` /
 * `assistant_unavailable`); a failure after it cuts the stream.
 */
import { Readable } from 'node:stream';
import { createOpenAiModel } from '@mathisland/core/providers/openai';
import { askTutor, USER_QUESTION_MAX } from '@mathisland/core/tutor';
import * as z from 'zod';
import { defineGroup } from '../lib/group';
import { HttpResponse } from '../lib/http';
import { route, type UserInput } from '../lib/route';

const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const Ask = z.strictObject({
  userQuestion: z
    .string()
    .refine((s) => [...s].length <= USER_QUESTION_MAX, { message: `At most ${USER_QUESTION_MAX} characters` })
    .refine((s) => s.trim().length > 0, { message: 'Must not be empty' }),
  lessonId: id.optional(),
  questionId: id.optional(),
});

async function ask({ deps, user, body }: UserInput<z.infer<typeof Ask>, unknown>) {
  const reply = await askTutor(deps, user, body);
  return new HttpResponse(200, Readable.from(reply.chunks), {
    'content-type': 'text/plain; charset=utf-8',
    'x-tutor-outcome': reply.outcome,
    ...(reply.messageId ? { 'x-message-id': reply.messageId } : {}),
  });
}

export const { handler, createHandler, routes } = defineGroup(
  'tutor',
  { 'POST /api/ai/ask': route.user({ body: Ask, run: ask }) },
  { adapters: { model: createOpenAiModel } },
);
