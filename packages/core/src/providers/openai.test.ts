/**
 * The openai adapter's streamed chat (providers/openai.ts) against canned OpenAI streams (providers.md §5): text
 * deltas, the choice's `finish_reason` passed on after the last text (in its own chunk, as OpenAI sends it, or in
 * the last content chunk, as some compatible providers do), then the usage. No network: `fetch` is replaced for
 * each test, before the client is built (the SDK takes the global one then).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadSettings } from '../config/settings';
import { createOpenAiModel } from './openai';
import type { ModelChunk } from './ports';

const ai = { ...loadSettings({ SECRET_KEY: 'x'.repeat(40), TABLE_NAME: 't', STAGE: 'test' }).ai, apiKey: 'key' };

/** A `chat.completion.chunk` with one choice (`delta`, `finish_reason`), or none and `usage`. */
const chunk = (choice: { delta: Record<string, unknown>; finish?: string } | null, usage: unknown = null) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1,
  model: ai.model,
  choices: choice ? [{ index: 0, delta: choice.delta, logprobs: null, finish_reason: choice.finish ?? null }] : [],
  usage,
});

/** Answers every call with the server-sent events of `chunks`, then `[DONE]`. */
function streams(chunks: unknown[]) {
  const body = `${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}data: [DONE]\n\n`;
  const fetch = vi.fn(async () => new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

async function read(): Promise<ModelChunk[]> {
  const out: ModelChunk[] = [];
  const model = createOpenAiModel(ai);
  for await (const piece of model.streamChat([{ role: 'user', content: 'hi' }], { signal: new AbortController().signal })) out.push(piece);
  return out;
}

const usage = { prompt_tokens: 12, completion_tokens: 800, total_tokens: 812 };

afterEach(() => vi.unstubAllGlobals());

describe('streamChat', () => {
  it('passes on why the model stopped, after its last text and before the usage', async () => {
    for (const reason of ['stop', 'length', 'content_filter'] as const) {
      streams([
        chunk({ delta: { role: 'assistant', content: '' } }),
        chunk({ delta: { content: 'Add the ' } }),
        chunk({ delta: { content: [{ type: 'text', text: 'tops' }] } }),
        chunk({ delta: {}, finish: reason }),
        chunk(null, usage),
      ]);
      expect(await read(), reason).toEqual([
        { text: 'Add the ' },
        { text: 'tops' },
        { finishReason: reason },
        { usage: { promptTokens: 12, completionTokens: 800 } },
      ]);
    }
  });

  it('reads a finish reason sent with the last text, and a stream without one', async () => {
    streams([chunk({ delta: { content: 'Add the tops' }, finish: 'length' }), chunk(null, usage)]);
    expect(await read()).toEqual([
      { text: 'Add the tops' },
      { finishReason: 'length' },
      { usage: { promptTokens: 12, completionTokens: 800 } },
    ]);
    streams([chunk({ delta: { content: 'Add the tops' } })]);
    expect(await read()).toEqual([{ text: 'Add the tops' }]);
  });
});
