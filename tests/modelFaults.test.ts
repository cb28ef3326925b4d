/**
 * The OpenAI-compatible model API failing and refusing the ways the real one does (issue 13; issue 16 item 5;
 * providers.md §5), produced through the fake model's fault controls, and what the service answers:
 * - the fake refuses like the real models (unknown model, `max_tokens` and a non-default temperature on reasoning
 *   models), and the adapter sends what every model takes, so switching AI_MODEL cannot break the tutor;
 * - message content as an array of parts, both ways; embeddings in the model's own dimension;
 * - rate limits, server errors, auth errors, resets, garbage, hangs and long retry-after before the first byte:
 *   503 `assistant_unavailable` with Retry-After, within the time budget, the question not counted;
 * - embeddings failing: the tutor and the ingest route answer 503 within the deadline.
 */
import { createOpenAiModel } from '@mathisland/core/providers/openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFigures } from './support/figures';
import { call, signIn, startTestStack, type TestStack, useStack } from './support/stack';
import { ask, quotaItem } from './support/tutor';

const INTERNAL = { 'x-internal-key': 'test-internal-key-0123456789' };

const fault = (stack: TestStack, body: Record<string, unknown>) =>
  call(stack, 'POST', '/_local/llm/faults', { body }).then((res) => {
    expect(res.status, res.text).toBe(200);
  });

/** A raw call of the fake model API, as any client would make it. */
const modelApi = (stack: TestStack, path: string, body: unknown) =>
  call(stack, 'POST', `/_local/llm/v1/${path}`, { body, headers: { authorization: `Bearer ${stack.deps.settings.ai.apiKey}` } });

const chatBody = (model: string, extra: Record<string, unknown> = {}) => ({
  model,
  messages: [{ role: 'user', content: 'what is 1/2 + 1/4?' }],
  ...extra,
});

/** An answer's text through the adapter, for `model`. */
async function adapterAnswer(stack: TestStack, model: string): Promise<string> {
  const ai = stack.deps.settings.ai;
  const client = createOpenAiModel({ ...ai, apiKey: ai.apiKey as string, model });
  let text = '';
  for await (const chunk of client.streamChat([{ role: 'user', content: 'how do I add 3/4 and 1/8?' }], {
    signal: new AbortController().signal,
  })) {
    text += chunk.text ?? '';
  }
  return text;
}

describe('the fake model refuses like the real models, and the adapter works with any of them', () => {
  const stack = useStack();
  beforeAll(() => {
    stack.llm.config.firstTokenDelayMs = 0;
    stack.llm.config.chunkDelayMs = 0;
  });

  it('refuses an unknown model, max_tokens and a non-default temperature on reasoning models, reasoning_effort on chat models', async () => {
    const unknown = await modelApi(stack, 'chat/completions', chatBody('gpt-nonexistent'));
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ code: 'model_not_found', type: 'invalid_request_error' });
    for (const model of ['gpt-5-mini', 'o4-mini', 'gpt-5', 'o3-mini']) {
      const maxTokens = await modelApi(stack, 'chat/completions', chatBody(model, { max_tokens: 800 }));
      expect(maxTokens.status, model).toBe(400);
      expect(maxTokens.body.error).toMatchObject({ code: 'unsupported_parameter', param: 'max_tokens' });
      const temperature = await modelApi(stack, 'chat/completions', chatBody(model, { temperature: 0.3 }));
      expect(temperature.status, model).toBe(400);
      expect(temperature.body.error).toMatchObject({ code: 'unsupported_value', param: 'temperature' });
      expect((await modelApi(stack, 'chat/completions', chatBody(model, { max_completion_tokens: 100, temperature: 1 }))).status).toBe(200);
    }
    for (const model of ['gpt-4o-mini', 'gpt-4.1-nano', 'gpt-5-chat-latest']) {
      expect((await modelApi(stack, 'chat/completions', chatBody(model, { max_tokens: 100, temperature: 0.3 }))).status, model).toBe(200);
      const effort = await modelApi(stack, 'chat/completions', chatBody(model, { reasoning_effort: 'low' }));
      expect(effort.body.error, model).toMatchObject({ code: 'unsupported_parameter', param: 'reasoning_effort' });
    }
    const embeddingModel = await modelApi(stack, 'chat/completions', chatBody('text-embedding-3-small'));
    expect(embeddingModel.status).toBe(400);
    const models = await call(stack, 'GET', '/_local/llm/v1/models', {
      headers: { authorization: `Bearer ${stack.deps.settings.ai.apiKey}` },
    });
    expect(models.body.data.map((m: { id: string }) => m.id)).toEqual(expect.arrayContaining(['gpt-4o-mini', 'gpt-5-mini', 'o4-mini']));
  });

  it('answers through the adapter for chat and reasoning models alike', async () => {
    for (const model of ['gpt-4o-mini', 'gpt-4.1-nano', 'gpt-5-chat-latest', 'gpt-5-mini', 'gpt-5-nano', 'o4-mini', 'o3-mini', 'o1']) {
      expect(await adapterAnswer(stack, model), model).toContain('7/8');
    }
    await expect(adapterAnswer(stack, 'gpt-nonexistent')).rejects.toMatchObject({ status: 404 });
  });

  it('takes message content as an array of parts, and the adapter reads deltas sent as parts', async () => {
    const parts = await modelApi(stack, 'chat/completions', {
      model: 'gpt-4o-mini',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'how do I add 3/4 ' },
            { type: 'text', text: 'and 1/8?' },
          ],
        },
      ],
    });
    expect(parts.status).toBe(200);
    expect(parts.body.choices[0].message.content).toContain('7/8');
    const bad = await modelApi(stack, 'chat/completions', { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 42 }] });
    expect(bad.status).toBe(400);
    await call(stack, 'POST', '/_local/llm/config', { body: { contentParts: true } });
    try {
      expect(await adapterAnswer(stack, 'gpt-4o-mini')).toContain('7/8');
      const learner = await signIn(stack);
      const res = await ask(stack, learner.accessToken, { userQuestion: 'how do I add 3/4 and 1/8?' });
      expect(res.status).toBe(200);
      expect(res.text).toContain('7/8');
    } finally {
      await call(stack, 'POST', '/_local/llm/config', { body: { contentParts: false } });
    }
  });

  it('answers embeddings in the model’s own dimension, shortened by dimensions, as floats or base64', async () => {
    const floats = async (body: Record<string, unknown>) => {
      const res = await modelApi(stack, 'embeddings', { input: ['fractions', 'کسرها'], ...body });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data.map((d: { embedding: number[] | string }) =>
        typeof d.embedding === 'string' ? Array.from(new Float32Array(Buffer.from(d.embedding, 'base64').buffer.slice(0))) : d.embedding,
      );
    };
    expect((await floats({ model: 'text-embedding-3-small' }))[0]).toHaveLength(1536);
    expect((await floats({ model: 'text-embedding-3-large' }))[1]).toHaveLength(3072);
    expect((await floats({ model: 'text-embedding-ada-002' }))[0]).toHaveLength(1536);
    expect((await floats({ model: 'text-embedding-3-large', dimensions: 256 }))[0]).toHaveLength(256);
    const b64 = await floats({ model: 'text-embedding-3-small', encoding_format: 'base64' });
    expect(b64[0]).toHaveLength(1536);
    expect(Math.abs(Math.hypot(...b64[0]) - 1)).toBeLessThan(1e-3);
    const refused = [
      { model: 'text-embedding-ada-002', dimensions: 256 },
      { model: 'text-embedding-3-small', dimensions: 4096 },
      { model: 'gpt-4o-mini' },
    ];
    for (const body of refused)
      expect((await modelApi(stack, 'embeddings', { input: 'x', ...body })).status, JSON.stringify(body)).toBe(400);
    expect((await modelApi(stack, 'embeddings', { input: 'x', model: 'text-embedding-4' })).body.error.code).toBe('model_not_found');
    // Through the SDK (which asks for base64 and decodes it), as the tutor reads them.
    const ai = stack.deps.settings.ai;
    const large = createOpenAiModel({ ...ai, apiKey: ai.apiKey as string, embeddingModel: 'text-embedding-3-large' });
    expect((await large.embed(['fractions']))[0]).toHaveLength(3072);
  });

  it('switches AI_MODEL to a reasoning model and the tutor still answers', async () => {
    const reasoning = await startTestStack({ env: { AI_MODEL: 'gpt-5-mini' } });
    try {
      const learner = await signIn(reasoning);
      const res = await ask(reasoning, learner.accessToken, { userQuestion: 'how do I add 3/4 and 1/8?' });
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      expect(res.text).toContain('7/8');
    } finally {
      await reasoning.close();
    }
  });
});

describe('model faults', () => {
  const stack = useStack();
  afterAll(() => addFigures('faults', { modelFaults: stack.faultsInjected() }));

  let asked = 0;
  /** Asks a question never asked before (no cached answer) as a new learner; the answer, its time, the quota use after. */
  async function askTimed() {
    const question = `how do I add ${++asked}/97 and 1/8?`;
    const learner = await signIn(stack);
    const t0 = performance.now();
    const res = await ask(stack, learner.accessToken, { userQuestion: question });
    return { res, ms: performance.now() - t0, used: (await quotaItem(stack, learner.userId))?.used ?? 0 };
  }

  const expectUnavailable = ({ res, used }: Awaited<ReturnType<typeof askTimed>>, label: string) => {
    expect(res.status, `${label}: ${JSON.stringify(res.json)}`).toBe(503);
    expect(res.json?.code, label).toBe('assistant_unavailable');
    expect(Number(res.headers.get('retry-after')), label).toBeGreaterThan(0);
    expect(used, `${label}: the question is not counted`).toBe(0);
  };

  it('answers 503 assistant_unavailable before the first byte to rate limits, server errors, auth errors, resets and garbage', async () => {
    const faults = [
      { status: 429, retryAfter: 1, count: 2 },
      { status: 429, code: 'insufficient_quota', count: 2 },
      { status: 500, count: 2 },
      { status: 503, count: 2 },
      { status: 401 },
      { status: 404 },
      { status: 400 },
      { kind: 'reset', count: 2 },
      { kind: 'garbage' },
      { kind: 'garbage', status: 502, count: 2 },
    ];
    for (const f of faults) {
      await fault(stack, { ...f, path: 'chat' });
      const result = await askTimed();
      expectUnavailable(result, JSON.stringify(f));
      expect(result.ms).toBeLessThan(10_000);
      await call(stack, 'DELETE', '/_local/llm/faults');
    }
    // One 429 is retried by the SDK after its retry-after: the learner gets the answer.
    await fault(stack, { status: 429, retryAfter: 1, path: 'chat' });
    expect((await askTimed()).res.status).toBe(200);
  });

  it('gives up within its budget on a model that never answers or asks to wait longer than the budget', async () => {
    // Two asks at once: one meets a 429 asking to wait 55 s (the SDK would wait up to 60 s before its retry), the
    // other a model that never answers, twice (the attempt's timeout, the retry's timeout).
    await fault(stack, { status: 429, retryAfter: 55, path: 'chat' });
    await fault(stack, { kind: 'hang', count: 2, path: 'chat' });
    const results = await Promise.all([askTimed(), askTimed()]);
    for (const result of results) {
      expectUnavailable(result, 'hang / retry-after 55 s');
      expect(result.ms).toBeGreaterThan(15_000);
      expect(result.ms).toBeLessThan(25_000);
    }
    await call(stack, 'DELETE', '/_local/llm/faults');
  });

  it('answers 503 when the embeddings fail, for the tutor and the ingest route, within the deadline', async () => {
    await fault(stack, { status: 500, count: 2, path: 'embeddings' });
    expectUnavailable(await askTimed(), 'embeddings 500');
    const doc = { gradeId: 4, title: 'fault test', text: 'Fractions with the same denominator add their numerators. '.repeat(20) };
    await fault(stack, { status: 503, count: 2, path: 'embeddings' });
    const failed = await call(stack, 'POST', '/api/internal/rag/documents', { body: doc, headers: INTERNAL });
    expect(failed.status).toBe(503);
    expect(failed.body.code).toBe('assistant_unavailable');
    expect(failed.headers.get('retry-after')).toBeTruthy();
    await fault(stack, { kind: 'hang', count: 2, path: 'embeddings' });
    const t0 = performance.now();
    const hung = await call(stack, 'POST', '/api/internal/rag/documents', { body: doc, headers: INTERNAL });
    const ms = performance.now() - t0;
    expect(hung.status).toBe(503);
    expect(ms).toBeGreaterThan(4_000);
    expect(ms).toBeLessThan(15_000);
    await call(stack, 'DELETE', '/_local/llm/faults');
    expect((await call(stack, 'POST', '/api/internal/rag/documents', { body: doc, headers: INTERNAL })).status).toBe(201);
  });
});
