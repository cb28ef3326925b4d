/**
 * The model adapter (issue 5 §7): chat completions (streamed) and embeddings of any OpenAI-compatible API at
 * OPENAI_BASE_URL with OPENAI_API_KEY, models AI_MODEL and AI_EMBEDDING_MODEL (wire facts: providers.md §5). The
 * local fake (`/_local/llm/v1`, packages/local/src/fakes/llm.ts) speaks the same protocol, so switching to a real
 * model is a settings change only.
 *
 * Written on `fetch` and `eventsource-parser` (the server-sent-events framing) like the other adapters
 * (kavenegar.ts, zarinpal.ts, cafebazaar.ts), not on the openai SDK: the SDK's client class carries every
 * resource of the OpenAI API (411 KiB of the tutor's 747 KiB bundle, issue 15) for the two calls used here. What
 * the adapter keeps of the SDK's behaviour: `Authorization: Bearer`, a 30 s limit for the response headers, one
 * retry of a failed call (408, 409, 429, 5xx, or no connection) after `retry-after` or half a second, an API
 * error body `{ error: { message } }` in the thrown error's message, embeddings asked for as base64 float32 (and
 * float arrays accepted), and a stream cut by the caller's `signal` ending quietly.
 *
 * Only the endpoint groups that ask the model (tutor, rag) pass this factory to the wiring.
 */
import { EventSourceParserStream } from 'eventsource-parser/stream';
import type { Settings } from '../config/settings';
import type { ChatMessage, ModelChunk, ModelClient } from './ports';

/** Upper bound of an answer's length, tokens (the prompt asks for much less). */
export const MAX_ANSWER_TOKENS = 800;
/** How long a call may wait for the response headers, ms. */
const HEADERS_TIMEOUT_MS = 30_000;
/** Tries of a call that failed before any data came back: the first and one retry. */
const MAX_TRIES = 2;
const RETRY_DELAY_MS = 500;

/** A failed model call: HTTP `status` (0 when the API could not be reached) and the API's message. */
export class ModelApiError extends Error {
  override name = 'ModelApiError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const retryable = (status: number) => status === 0 || status === 408 || status === 409 || status === 429 || status >= 500;

/** Seconds of a `retry-after` header, as ms, at most 8 s; the default delay without one. */
function retryDelay(response: Response | undefined): number {
  const seconds = Number(response?.headers.get('retry-after'));
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds * 1000, 8_000) : RETRY_DELAY_MS;
}

async function apiError(response: Response): Promise<ModelApiError> {
  const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
  return new ModelApiError(response.status, `${response.status} ${body?.error?.message ?? response.statusText}`);
}

/**
 * POSTs `body` as JSON to `url` and returns the response once its headers arrived with a 2xx status. Errors:
 * {@link ModelApiError} after the retry, or the caller's abort reason.
 */
async function post(apiKey: string, url: string, body: unknown, signal?: AbortSignal): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    const headersTimeout = AbortSignal.timeout(HEADERS_TIMEOUT_MS);
    let response: Response | undefined;
    let failure: ModelApiError;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
        signal: signal ? AbortSignal.any([signal, headersTimeout]) : headersTimeout,
      });
      if (response.ok) return response;
      failure = await apiError(response);
    } catch (error) {
      if (signal?.aborted) throw signal.reason ?? error;
      failure = new ModelApiError(0, `The model API could not be reached: ${(error as Error).message}`);
    }
    if (attempt >= MAX_TRIES || !retryable(failure.status)) throw failure;
    await new Promise((resolve) => setTimeout(resolve, retryDelay(response)));
  }
}

interface CompletionChunk {
  choices?: { delta?: { content?: string | null } }[];
  usage?: { prompt_tokens: number; completion_tokens: number } | null;
  error?: { message?: string };
}

/** The chunks of a streamed chat completion's body, text deltas then the usage; ends at `[DONE]` or an abort. */
async function* completionChunks(response: Response, signal: AbortSignal): AsyncGenerator<ModelChunk> {
  if (!response.body) throw new ModelApiError(response.status, 'The model API sent no body');
  const events = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
  const reader = events.getReader();
  try {
    for (;;) {
      const next = await reader.read().catch((error: unknown) => {
        if (signal.aborted) return { done: true as const, value: undefined };
        throw error;
      });
      if (next.done || next.value.data === '[DONE]') return;
      const chunk = JSON.parse(next.value.data) as CompletionChunk;
      if (chunk.error) throw new ModelApiError(200, chunk.error.message ?? 'The model failed mid-answer');
      const text = chunk.choices?.[0]?.delta?.content;
      if (text) yield { text };
      if (chunk.usage) yield { usage: { promptTokens: chunk.usage.prompt_tokens, completionTokens: chunk.usage.completion_tokens } };
    }
  } finally {
    reader.releaseLock();
    await response.body.cancel().catch(() => {});
  }
}

/** Decodes one embedding: a float array, or base64 of little-endian float32 values. */
function embeddingOf(value: number[] | string): number[] {
  if (typeof value !== 'string') return value;
  const bytes = Buffer.from(value, 'base64');
  return Array.from(new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4));
}

/** A client for settings.ai. Errors of its calls: {@link ModelApiError}, or the caller's abort reason. */
export function createOpenAiModel(ai: Settings['ai'] & { apiKey: string }): ModelClient {
  const url = (path: string) => `${ai.baseUrl.replace(/\/+$/, '')}${path}`;
  return {
    chatModel: ai.model,
    embeddingModel: ai.embeddingModel,
    async *streamChat(messages: ChatMessage[], { signal }) {
      const body = {
        model: ai.model,
        messages,
        stream: true,
        stream_options: { include_usage: true },
        temperature: 0.3,
        max_tokens: MAX_ANSWER_TOKENS,
      };
      yield* completionChunks(await post(ai.apiKey, url('/chat/completions'), body, signal), signal);
    },
    async embed(texts, options = {}) {
      if (texts.length === 0) return [];
      const response = await post(
        ai.apiKey,
        url('/embeddings'),
        { model: ai.embeddingModel, input: texts, encoding_format: 'base64' },
        options.signal,
      );
      const result = (await response.json()) as { data: { index: number; embedding: number[] | string }[] };
      return [...result.data].sort((a, b) => a.index - b.index).map((d) => embeddingOf(d.embedding));
    },
  };
}
