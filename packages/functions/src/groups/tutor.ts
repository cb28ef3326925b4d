/**
 * Endpoint group `tutor` (issue 5): `POST /api/ai/ask`, a streamed route. Deployed as a Lambda function URL in
 * RESPONSE_STREAM mode (stacks/Tutor.ts); locally served by the same handler through the `streamifyResponse`
 * shim (packages/local/src/awslambda.ts). The only groups wiring the model adapter are this one and `rag`.
 *
 * Body `{ userQuestion (1-2000 characters), lessonId?, questionId? }`. Success: 200 `text/plain; charset=utf-8`,
 * the answer written sentence by sentence as the model produces it, with headers `X-Tutor-Outcome` (`answer`,
 * `cached`, `off_topic`, `help_line`, `abuse_help`, `personal_data`) and, for answers, `X-Message-Id` (the id to rate
 * with `POST /api/ai/feedback`). Errors before the first byte are JSON (400, 401, 404, 429 `ai_quota_exceeded`, 503
 * `assistant_busy` / `assistant_unavailable`). After it, the body's last paragraph tells how an answer ended
 * (docs/api.md): the refusal text (refused by the model), the closing sentence (cut at the time limit), else a
 * complete answer; a model failure cuts the stream (a network error for the client).
 */

import { Readable } from 'node:stream';
import { lazySchema } from '@mathisland/core';
import { openAiModel } from '@mathisland/core/providers/model';
import { type AskOutcome, askTutor, REFUSAL_TEXT, TIME_LIMIT_TEXT, USER_QUESTION_MAX } from '@mathisland/core/tutor';
import * as z from 'zod';
import { tutorRoutes } from '../../../../infra/routes/tutor';
import { defineGroup } from '../lib/group';
import { HttpResponse } from '../lib/http';
import { text } from '../lib/responses';
import { route, type UserInput } from '../lib/route';
import { streaming } from '../lib/streaming';

const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const Ask = lazySchema(() =>
  z.strictObject({
    userQuestion: z
      .string()
      .refine((s) => [...s].length <= USER_QUESTION_MAX, { message: `At most ${USER_QUESTION_MAX} characters` })
      .refine((s) => s.trim().length > 0, { message: 'Must not be empty' }),
    lessonId: id.optional(),
    questionId: id.optional(),
  }),
);

const OUTCOMES = ['answer', 'cached', 'off_topic', 'help_line', 'abuse_help', 'personal_data'] as const satisfies readonly AskOutcome[];
const Answer = text(
  'text/plain; charset=utf-8',
  z.string().meta({ description: 'Plain text (Markdown and LaTeX removed)' }),
  'The answer',
  {
    streamed: true,
    headers: {
      'X-Tutor-Outcome': {
        schema: z.enum(OUTCOMES),
        description:
          'answer, cached; or a fixed safe text: off_topic (the gate or the model refused), help_line, abuse_help, personal_data (no quota, not stored)',
      },
      'X-Message-Id': { schema: z.string(), description: 'Answers only: the id POST /api/ai/feedback rates', required: false },
    },
    examples: { tutor: { summary: 'A streamed answer', value: 'Three quarters is bigger: 3/4 = 6/8, and 6/8 > 5/8.' } },
  },
);

async function ask({ deps, user, body }: UserInput<z.infer<typeof Ask>, unknown>) {
  const reply = await askTutor(deps, user, body);
  return new HttpResponse(200, Readable.from(reply.chunks), {
    'content-type': 'text/plain; charset=utf-8',
    'x-tutor-outcome': reply.outcome,
    ...(reply.messageId ? { 'x-message-id': reply.messageId } : {}),
  });
}

export const { handler, createHandler, routes } = defineGroup(
  tutorRoutes,
  {
    'POST /api/ai/ask': route.user({
      body: Ask,
      bodyExamples: { tutor: { summary: 'Ask the tutor', value: { userQuestion: 'Which is bigger, 3/4 or 5/8?', lessonId: 4001 } } },
      description:
        `Read the body as it arrives; it comes sentence by sentence. With \`questionId\` the answer starts with whether the attempt was right, climbs a hint ladder and never contains the answer. ` +
        `The last paragraph tells how an answer ended: exactly the refusal text (the model refused after its first sentence: nothing stored, the question not counted; fa «${REFUSAL_TEXT.fa}», en «${REFUSAL_TEXT.en}»), ` +
        `exactly the closing sentence of the time limit (about 40 s: nothing stored, the question not counted; fa «${TIME_LIMIT_TEXT.fa}», en «${TIME_LIMIT_TEXT.en}»), else a complete answer. ` +
        'A model failure after the first byte cuts the stream (a network error; the question is not counted).',
      responses: { 200: Answer },
      errors: {
        not_found: 'No such lesson or question.',
        ai_quota_exceeded: 'The daily tutor quota is used up; `Retry-After`: seconds to Tehran midnight.',
        assistant_busy: 'Every tutor slot is taken; `Retry-After: 5`.',
        assistant_unavailable: 'The tutor is off, or the model failed before the first byte; `Retry-After: 60`.',
      },
      run: ask,
    }),
  },
  { adapters: { model: openAiModel }, streaming },
);
