/**
 * The model adapter (issue 5 §7): chat completions (streamed) and embeddings through the openai SDK, against
 * OPENAI_BASE_URL with OPENAI_API_KEY, models AI_MODEL and AI_EMBEDDING_MODEL (providers.md §5). Any
 * OpenAI-compatible API works, the local fake (`/_local/llm/v1`, packages/local/src/fakes/llm.ts) included:
 * switching to a real model is a settings change only.
 *
 * Only the endpoint groups that ask the model (tutor, rag) pass this factory to the wiring, so the openai SDK
 * stays out of every other Lambda bundle.
 */
import OpenAI from 'openai';
import type { Settings } from '../config/settings';
import type { ModelClient } from './ports';

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
