/**
 * The model client of the tutor (issue 5 §7): chat completions (streamed) and embeddings through the openai
 * SDK, against OPENAI_BASE_URL with OPENAI_API_KEY, models AI_MODEL and AI_EMBEDDING_MODEL. Any
 * OpenAI-compatible API works, the local fake (`/_local/llm/v1`, packages/local/src/fakes/llm.ts) included:
 * switching to a real model is a settings change only.
 *
 * The SDK is loaded only by the Lambdas that ask the model (tutor, rag), never by the other groups.
 */
import OpenAI from 'openai';
import type { Settings } from '../config/settings';
import type { Deps } from '../deps';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Tokens of one model call, as the API reports them. */
export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
}

/** One piece of a streamed answer: a text delta, or (last) the call's usage. */
export interface ModelChunk {
  text?: string;
  usage?: TokenUsage;
}

export interface ModelClient {
  /** The chat model's name (AI_MODEL); part of the answer cache key. */
  readonly chatModel: string;
  /** The embedding model's name (AI_EMBEDDING_MODEL); stored with every chunk. */
  readonly embeddingModel: string;
  /**
   * Streams a chat completion: text deltas as the model writes them, then the usage when the API reports it.
   * Throws (from the iterator) when the call fails or the connection is cut; aborting `signal` stops it.
   */
  streamChat(messages: ChatMessage[], options: { signal: AbortSignal }): AsyncIterable<ModelChunk>;
  /** One embedding vector per text, in order. Throws when the call fails. */
  embed(texts: string[], options?: { signal?: AbortSignal }): Promise<number[][]>;
}

/** Upper bound of an answer's length, tokens (the prompt asks for much less). */
export const MAX_ANSWER_TOKENS = 800;

/** A client for settings.ai through the openai SDK. */
export function createOpenAiModel(ai: Settings['ai'] & { apiKey: string }): ModelClient {
  const client = new OpenAI({ apiKey: ai.apiKey, baseURL: ai.baseUrl, maxRetries: 1, timeout: 30_000 });
  return {
    chatModel: ai.model,
    embeddingModel: ai.embeddingModel,
    async *streamChat(messages, { signal }) {
      const stream = await client.chat.completions.create(
        {
          model: ai.model,
          messages,
          stream: true,
          stream_options: { include_usage: true },
          temperature: 0.3,
          max_tokens: MAX_ANSWER_TOKENS,
        },
        { signal },
      );
      for await (const chunk of stream) {
        const text = chunk.choices[0]?.delta?.content;
        if (text) yield { text };
        if (chunk.usage) yield { usage: { promptTokens: chunk.usage.prompt_tokens, completionTokens: chunk.usage.completion_tokens } };
      }
    },
    async embed(texts, options = {}) {
      if (texts.length === 0) return [];
      const result = await client.embeddings.create({ model: ai.embeddingModel, input: texts }, { signal: options.signal });
      return [...result.data].sort((a, b) => a.index - b.index).map((d) => Array.from(d.embedding as ArrayLike<number>));
    },
  };
}

const clients = new WeakMap<Settings['ai'], ModelClient>();

/**
 * The worker's model client: `deps.llm` when set (tests), else an openai-SDK client for `deps.settings.ai`,
 * built once per worker. Undefined when OPENAI_API_KEY is unset or empty: the tutor is off.
 */
export function modelOf(deps: Deps): ModelClient | undefined {
  if (deps.llm) return deps.llm;
  const ai = deps.settings.ai;
  if (!ai.apiKey) return undefined;
  let client = clients.get(ai);
  if (!client) {
    client = createOpenAiModel({ ...ai, apiKey: ai.apiKey });
    clients.set(ai, client);
  }
  return client;
}
