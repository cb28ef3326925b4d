/**
 * Test support for the tutor: asking with the stream read chunk by chunk (`response.body.getReader()`), the fake
 * model's control routes, and direct reads of the tutor's items (through the tutor's entity reads) and of the
 * learner's day activity.
 */
import { userKey } from '@mathisland/core/auth';
import { tehranDay } from '@mathisland/core/calendar';
import { updateItem } from '@mathisland/core/db';
import { getDayActivity } from '@mathisland/core/progress';
import { getDailyUsage, getQuota } from '@mathisland/core/tutor';
import { call, type Session, signIn, type TestStack } from './stack';

export interface StreamedAsk {
  status: number;
  headers: Headers;
  /** The JSON body of a non-streamed (error) response. */
  json?: any;
  /** Body chunks as they arrived, with the time since the request started (ms). */
  chunks: { text: string; at: number }[];
  text: string;
  /** The body ended with a network error (the server cut the stream). */
  cut: boolean;
}

/** `POST /api/ai/ask`, reading a streamed answer as it arrives. */
export async function ask(stack: TestStack, token: string | undefined, body: unknown): Promise<StreamedAsk> {
  const t0 = performance.now();
  const response = await fetch(`${stack.baseUrl}/api/ai/ask`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const result: StreamedAsk = { status: response.status, headers: response.headers, chunks: [], text: '', cut: false };
  if (!(response.headers.get('content-type') ?? '').startsWith('text/plain')) {
    result.json = await response.json();
    return result;
  }
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      result.chunks.push({ text: decoder.decode(value, { stream: true }), at: performance.now() - t0 });
    }
  } catch {
    result.cut = true;
  }
  result.text = result.chunks.map((c) => c.text).join('');
  return result;
}

export interface LlmRequest {
  model: string;
  messages: { role: string; content: string }[];
  stream: boolean;
}

/** The chat requests the fake model received, newest last. */
export async function llmRequests(stack: TestStack): Promise<LlmRequest[]> {
  return (await call<{ items: LlmRequest[] }>(stack, 'GET', '/_local/llm/requests')).body.items;
}

/** Sets the fake model's delays. */
export const llmConfig = (stack: TestStack, config: { firstTokenDelayMs?: number; chunkDelayMs?: number }) =>
  call(stack, 'POST', '/_local/llm/config', { body: config });

/** Queues a behaviour for the fake model's next chat request(s). */
export const llmNext = (
  stack: TestStack,
  script: {
    reply?: string;
    /** End the reply with this `finish_reason` instead of `stop` (the token cap, the content filter). */
    finishReason?: 'length' | 'content_filter';
    fail?: 'error' | 'cut';
    cutAfterChunks?: number;
    status?: number;
    times?: number;
  },
) => call(stack, 'POST', '/_local/llm/next', { body: script });

/** The learner's quota item of today (the stack clock's Tehran day), parsed. */
export const quotaItem = (stack: TestStack, userId: number) => getQuota(stack.deps.db, userId, tehranDay(stack.clock.now()));

/** The learner's daily activity item of today (the stack clock's Tehran day), parsed. */
export const dayItem = (stack: TestStack, userId: number) => getDayActivity(stack.deps.db, userId, tehranDay(stack.clock.now()));

/** Today's usage aggregate, parsed. */
export const usageItem = (stack: TestStack) => getDailyUsage(stack.deps.db, tehranDay(stack.clock.now()));

/** Makes the learner a subscriber (as a paid order would), with `aiDailyQuota` questions a day. */
export async function subscribe(stack: TestStack, userId: number, aiDailyQuota: number, expiresAt = stack.clock.now() + 30 * 86_400_000) {
  await updateItem(stack.deps.db, userKey(userId), 'SET subscription = :s', {
    values: { ':s': { planId: 1, planTitle: 'ماهانه', aiDailyQuota, expiresAt } },
  });
}

/** Markdown or LaTeX left in a text (empty when clean). */
export const markup = (text: string): string[] =>
  ['**', '$', '\\frac', '\\times', '`', '## ', '\n- ', '\n* '].filter((m) => text.includes(m) || (m.startsWith('#') && text.startsWith(m)));

/** A new learner, signed in after the stack clock moved on a little (message order within a conversation). */
export async function learner(stack: TestStack): Promise<Session> {
  stack.clock.advance(1);
  return signIn(stack);
}

/** The learner's tutor messages, newest first (`GET /api/ai/history`, first page). */
export const tutorHistory = async (stack: TestStack, s: Session) =>
  (await call<{ items: unknown[] }>(stack, 'GET', '/api/ai/history', { token: s.accessToken })).body.items;
