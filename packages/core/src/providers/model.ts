/**
 * The model adapter as the endpoint groups wire it (tutor, rag): {@link openAiModel} answers at once with a
 * {@link ModelClient} that loads the openai adapter (providers/openai.ts, with the openai SDK) at its first call.
 *
 * Why (issue 15, cold import): evaluating the openai SDK, which reads the global `Response` and so loads Node's
 * fetch implementation, was about 15 ms of the tutor's cold start, paid even by the calls that never reach the
 * model: a question the gate refuses, a used-up quota, a busy tutor, bad input, a 401 or 429. The model groups are
 * bundled with code splitting (infra/functions.ts `nodejsProps`), so the `import()` below loads the adapter and the
 * SDK from a file of their own in the function's package when it runs: a cold start neither evaluates nor parses
 * them. The model calls keep their own time budgets (providers/openai.ts); the one-time load comes before them.
 */
import type { Settings } from '../config/settings';
import type { ModelClient } from './ports';

type AiSettings = Settings['ai'] & { apiKey: string };

/**
 * A model client for `ai` whose adapter is built by `load`'s factory at the first `streamChat` or `embed`, then
 * reused. A failed load is not kept: the next call loads again. Errors: those of the load and of the adapter.
 */
export function loadedOnFirstCall(ai: AiSettings, load: () => Promise<(ai: AiSettings) => ModelClient>): ModelClient {
  let client: Promise<ModelClient> | undefined;
  const loaded = (): Promise<ModelClient> => {
    client ??= load().then(
      (create) => create(ai),
      (error: unknown) => {
        client = undefined;
        throw error;
      },
    );
    return client;
  };
  return {
    chatModel: ai.model,
    embeddingModel: ai.embeddingModel,
    async *streamChat(messages, options) {
      yield* (await loaded()).streamChat(messages, options);
    },
    async embed(texts, options) {
      return (await loaded()).embed(texts, options);
    },
  };
}

/** The openai adapter (providers/openai.ts `createOpenAiModel`), loaded at its first call: the wiring's `adapters.model`. */
export const openAiModel = (ai: AiSettings): ModelClient => loadedOnFirstCall(ai, async () => (await import('./openai')).createOpenAiModel);
