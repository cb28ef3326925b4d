/**
 * The model adapter (issue 5 §7; issue 16 item 5): chat completions (streamed) and embeddings through the openai
 * SDK, against OPENAI_BASE_URL with OPENAI_API_KEY, models AI_MODEL and AI_EMBEDDING_MODEL (providers.md §5).
 * Any OpenAI-compatible API works, the local fake (`/_local/llm/v1`, packages/local/src/fakes/llm.ts) included:
 * switching to a real model is a settings change only.
 *
 * Parameters every model takes (providers.md §5: o-series and gpt-5 models refuse `max_tokens` and a non-default
 * `temperature` with 400): the answer's length is capped with `max_completion_tokens`; `temperature` is sent only
 * to models that take it ({@link takesTemperature}); reasoning models get `reasoning_effort: 'low'` and a larger
 * cap, since their hidden reasoning counts against it. A streamed delta's `content` may be a string or an array
 * of parts (`[{ type: 'text', text }]`, as some compatible providers send): both are read. The choice's
 * `finish_reason` is passed on (`ModelChunk.finishReason`): an answer stopped at the cap (`length`) or by the
 * provider's content filter (`content_filter`) is not a complete answer (tutor/modelAnswer.ts).
 *
 * Time budgets (DESIGN §11; docs/decisions.md "Time budgets"):
 * - chat: each attempt must get the response's headers within {@link CHAT_ATTEMPT_TIMEOUT_MS}, one retry (the SDK's,
 *   on 408/409/429/5xx and timeouts), and the headers must be there within {@link CHAT_HEADERS_BUDGET_MS} in all,
 *   whatever `retry-after` the API asks for (the SDK would wait up to 60 s); after the headers the answer runs
 *   under the caller's signal (the tutor's 40 s slot);
 * - embeddings: each attempt {@link EMBED_ATTEMPT_TIMEOUT_MS}, one retry, {@link EMBED_BUDGET_MS} in all, and never
 *   past the request's deadline (the ingest route is behind API Gateway's 30 s).
 * A call over its budget throws (the SDK's abort error); the tutor answers 503 `assistant_unavailable`.
 *
 * Only the endpoint groups that ask the model (tutor, rag) wire it (through providers/model.ts, which loads this
 * module at the first model call), so the openai SDK stays out of every other Lambda bundle.
 */
import OpenAI from 'openai';
import type { Settings } from '../config/settings';
import { callTimeout } from '../deadline';
import type { ModelClient } from './ports';

/** Upper bound of an answer's length, tokens (the prompt asks for much less). */
export const MAX_ANSWER_TOKENS = 800;
/** The cap for reasoning models, whose hidden reasoning tokens count against `max_completion_tokens`. */
export const MAX_REASONING_ANSWER_TOKENS = 4000;
/** The tutor's sampling temperature, for models that take one. */
export const TEMPERATURE = 0.3;

export const CHAT_ATTEMPT_TIMEOUT_MS = 10_000;
export const CHAT_HEADERS_BUDGET_MS = 22_000;
export const EMBED_ATTEMPT_TIMEOUT_MS = 5_000;
export const EMBED_BUDGET_MS = 12_000;
/** Retries of a failed call (the SDK's default is 2). */
export const MAX_RETRIES = 1;

/** The model's own name, without a provider prefix (`openai/gpt-5-mini` → `gpt-5-mini`). */
const baseName = (model: string): string => model.slice(model.lastIndexOf('/') + 1).toLowerCase();

/**
 * Whether `model` is a reasoning model: the o-series (`o1`, `o3-mini`, `o4-mini`, ...) and gpt-5 (`gpt-5`,
 * `gpt-5-mini`, `gpt-5-nano`; not `gpt-5-chat-*`, a chat model). They refuse `max_tokens` and any temperature
 * but the default (providers.md §5).
 */
export const isReasoningModel = (model: string): boolean => /^(o\d+($|-)|gpt-5($|-(?!chat)))/.test(baseName(model));

/** Whether `model` takes a `temperature` other than its default. */
export const takesTemperature = (model: string): boolean => !isReasoningModel(model);

/** The length, sampling and reasoning parameters sent to `model`. */
export function chatParameters(model: string): {
  max_completion_tokens: number;
  temperature?: number;
  reasoning_effort?: 'low';
} {
  return isReasoningModel(model)
    ? { max_completion_tokens: MAX_REASONING_ANSWER_TOKENS, reasoning_effort: 'low' }
    : { max_completion_tokens: MAX_ANSWER_TOKENS, temperature: TEMPERATURE };
}

/** The text of a delta's `content`: a string, or the text of an array of parts (other part types are skipped). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) =>
      part && typeof part === 'object' && typeof (part as { text?: unknown }).text === 'string' ? (part as { text: string }).text : '',
    )
    .join('');
}

/** A signal aborted by `signal` or after `ms`, and the function that stops the timer. */
function budget(ms: number, signal?: AbortSignal): { signal: AbortSignal; done: () => void } {
  const timer = new AbortController();
  const id = setTimeout(() => timer.abort(new Error(`The model API did not answer within ${ms} ms`)), ms);
  return { signal: signal ? AbortSignal.any([signal, timer.signal]) : timer.signal, done: () => clearTimeout(id) };
}

/** A client for settings.ai through the openai SDK. */
export function createOpenAiModel(ai: Settings['ai'] & { apiKey: string }): ModelClient {
  const client = new OpenAI({ apiKey: ai.apiKey, baseURL: ai.baseUrl, maxRetries: MAX_RETRIES, timeout: CHAT_ATTEMPT_TIMEOUT_MS });
  return {
    chatModel: ai.model,
    embeddingModel: ai.embeddingModel,
    async *streamChat(messages, { signal }) {
      const headers = budget(CHAT_HEADERS_BUDGET_MS, signal);
      const stream = await client.chat.completions
        .create(
          { model: ai.model, messages, stream: true, stream_options: { include_usage: true }, ...chatParameters(ai.model) },
          { signal: headers.signal },
        )
        .finally(headers.done); // from here on only the caller's signal ends the answer
      for await (const chunk of stream) {
        const choice = chunk.choices[0];
        const text = contentText(choice?.delta?.content);
        if (text) yield { text };
        // After the last text (in its own chunk, or in the last content chunk as some compatible providers send it).
        if (choice?.finish_reason) yield { finishReason: choice.finish_reason };
        if (chunk.usage) yield { usage: { promptTokens: chunk.usage.prompt_tokens, completionTokens: chunk.usage.completion_tokens } };
      }
    },
    async embed(texts, options = {}) {
      if (texts.length === 0) return [];
      const call = budget(callTimeout(EMBED_BUDGET_MS), options.signal);
      try {
        const result = await client.embeddings.create(
          { model: ai.embeddingModel, input: texts },
          { signal: call.signal, timeout: EMBED_ATTEMPT_TIMEOUT_MS },
        );
        return [...result.data].sort((a, b) => a.index - b.index).map((d) => Array.from(d.embedding as ArrayLike<number>));
      } finally {
        call.done();
      }
    },
  };
}
