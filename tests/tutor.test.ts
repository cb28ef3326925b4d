/**
 * Issue 5: the tutor. `POST /api/ai/ask` streamed through the local streamifyResponse shim, with the fake model
 * of the local stack; history, feedback, the internal RAG ingest routes.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { HELP_LINE_TEXT, REFUSAL_TEXT, Slots, TIME_LIMIT_TEXT } from '@mathisland/core/tutor';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { allNodes, questionsOf, wrongAnswer } from './support/content';
import { buyAndPay, PLAN_30 } from './support/payments';
import { call, lastCode, type Session, signIn, startTestStack, type TestStack, useStack } from './support/stack';
import { ask, dayItem, llmConfig, llmNext, llmRequests, markup, quotaItem, subscribe, usageItem } from './support/tutor';

const NOW = Date.UTC(2026, 10, 20, 8, 0, 0);
const FRACTIONS_BOOK = 'ریاضی چهارم — جمع و تفریق کسرها';
const INTERNAL = { 'x-internal-key': 'test-internal-key-0123456789' };

/** A new learner whose clock moves on a little (message order within a conversation). */
async function learner(stack: TestStack): Promise<Session> {
  stack.clock.advance(1);
  return signIn(stack);
}

describe('POST /api/ai/ask', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ now: NOW });
  });
  beforeEach(async () => {
    await llmConfig(stack, { firstTokenDelayMs: 20, chunkDelayMs: 2 });
    stack.clock.advance(1);
  });
  afterAll(() => stack?.close());

  it('streams a plain-text answer in several chunks as the model writes it, Markdown and LaTeX stripped mid-stream', async () => {
    await llmConfig(stack, { firstTokenDelayMs: 50, chunkDelayMs: 30 });
    const s = await learner(stack);
    const res = await ask(stack, s.accessToken, { userQuestion: 'how do I add 3/4 and 1/8?' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.headers.get('x-tutor-outcome')).toBe('answer');
    expect(res.headers.get('x-message-id')).toMatch(/^\d{13}-[0-9a-f]{8}$/);
    expect(res.cut).toBe(false);
    expect(res.chunks.length).toBeGreaterThan(3);
    expect((res.chunks.at(-1)?.at ?? 0) - (res.chunks[0]?.at ?? 0)).toBeGreaterThan(60);
    // The model wrote `## Adding…`, `**Step 1:**`, `$\frac{3}{4} = \frac{6}{8}$` and `- So…`, split every 6 characters.
    const [model] = (await llmRequests(stack)).slice(-1);
    expect(model?.stream).toBe(true);
    expect(res.text).toContain('Adding 3/4 and 1/8');
    expect(res.text).toContain('Step 1: Make the denominators the same.');
    expect(res.text).toContain('3/4 = 6/8');
    expect(res.text).toContain('6/8 + 1/8 = 7/8');
    expect(res.text).toContain('• So the answer is 7/8.');
    expect(markup(res.text)).toEqual([]);
    for (const chunk of res.chunks) expect(markup(chunk.text)).toEqual([]);
  });

  it('refuses a userQuestion over 2000 characters, an empty one and unknown fields, with JSON errors', async () => {
    const s = await learner(stack);
    const long = await ask(stack, s.accessToken, { userQuestion: `what is ${'1'.repeat(1993)}?` });
    expect(long.status).toBe(400);
    expect(long.headers.get('cache-control')).toBe('private, no-store');
    expect(long.json).toMatchObject({ code: 'validation_error', fields: { userQuestion: [expect.any(String)] } });
    expect((await ask(stack, s.accessToken, { userQuestion: '   ' })).json.code).toBe('validation_error');
    expect((await ask(stack, s.accessToken, { userQuestion: 'hi', lessonId: '40161' })).json.code).toBe('validation_error');
    expect((await ask(stack, s.accessToken, { userQuestion: 'hi', mode: 'fast' })).json.fields).toEqual({ mode: ['Unknown field'] });
    expect((await ask(stack, s.accessToken, '{"userQuestion":')).json.code).toBe('invalid_json');
    expect((await ask(stack, undefined, { userQuestion: 'hi' })).status).toBe(401);
    const exactly = await ask(stack, s.accessToken, { userQuestion: `what is ${'۱'.repeat(1991)}?` });
    expect([...`what is ${'۱'.repeat(1991)}?`].length).toBe(2000);
    expect(exactly.status).toBe(200);
    expect(await quotaItem(stack, s.userId)).toMatchObject({ used: 1 });
  });

  it('answers an off-topic question with the fixed refusal, without the model and without quota', async () => {
    const s = await learner(stack);
    const before = (await llmRequests(stack)).length;
    for (const [q, text] of [
      ['who is the best football player?', REFUSAL_TEXT.en],
      ['فوتبال دوست داری؟', REFUSAL_TEXT.fa],
    ] as const) {
      const res = await ask(stack, s.accessToken, { userQuestion: q });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-tutor-outcome')).toBe('off_topic');
      expect(res.text).toBe(text);
    }
    expect((await llmRequests(stack)).length).toBe(before);
    expect(await quotaItem(stack, s.userId)).toBeUndefined();
    expect((await dayItem(stack, s.userId))?.assistantQuestions).toBeUndefined();
    expect((await call(stack, 'GET', '/api/ai/history', { token: s.accessToken })).body.items).toEqual([]);
  });

  it('answers self-harm content with the help line, never the model, without quota', async () => {
    const s = await learner(stack);
    const before = (await llmRequests(stack)).length;
    const en = await ask(stack, s.accessToken, { userQuestion: 'I want to die. what is 2 + 2?' });
    expect(en.headers.get('x-tutor-outcome')).toBe('help_line');
    expect(en.text).toBe(HELP_LINE_TEXT.en);
    expect(en.text).toContain('123');
    const fa = await ask(stack, s.accessToken, { userQuestion: 'می‌خوام خودمو بکشم' });
    expect(fa.text).toBe(HELP_LINE_TEXT.fa);
    expect((await llmRequests(stack)).length).toBe(before);
    expect(await quotaItem(stack, s.userId)).toBeUndefined();
  });

  it('gives a free learner AI_DAILY_QUOTA_FREE (2) questions a Tehran day, counted on the day activity, then 429', async () => {
    const s = await learner(stack);
    for (let i = 1; i <= 2; i++) {
      const res = await ask(stack, s.accessToken, { userQuestion: `what is ${i}/5 + 1/5?` });
      expect(res.status).toBe(200);
      stack.clock.advance(1);
    }
    const third = await ask(stack, s.accessToken, { userQuestion: 'what is 3/5 + 1/5?' });
    expect(third.status).toBe(429);
    expect(third.json).toMatchObject({ code: 'ai_quota_exceeded' });
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(third.headers.get('cache-control')).toBe('private, no-store');
    expect(await quotaItem(stack, s.userId)).toMatchObject({ used: 2, limit: 2 });
    expect(await dayItem(stack, s.userId)).toMatchObject({ assistantQuestions: 2 });
    // The weekly report reads the same counter; a refused question does not count.
    await ask(stack, s.accessToken, { userQuestion: 'who won the football match?' });
    const report = await call(stack, 'GET', '/api/user/weekly-report', { token: s.accessToken });
    expect(report.body.current.assistantQuestions).toBe(2);
  });

  it('gives a subscriber the plan’s aiDailyQuota (4), and an expired plan the free quota', async () => {
    const s = await learner(stack);
    await subscribe(stack, s.userId, 4);
    const statuses: number[] = [];
    for (let i = 1; i <= 5; i++) {
      statuses.push((await ask(stack, s.accessToken, { userQuestion: `what is ${i}/7 + 1/7?` })).status);
      stack.clock.advance(1);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429]);

    const lapsed = await learner(stack);
    await subscribe(stack, lapsed.userId, 4, stack.clock.now() - 1000);
    for (let i = 1; i <= 2; i++) expect((await ask(stack, lapsed.accessToken, { userQuestion: `what is ${i}/9 + 1/9?` })).status).toBe(200);
    expect((await ask(stack, lapsed.accessToken, { userQuestion: 'what is 3/9 + 1/9?' })).status).toBe(429);
  });

  it('gives a learner who buys a plan through the gateway the plan’s aiDailyQuota at once', async () => {
    const s = await learner(stack);
    for (let i = 1; i <= 2; i++) expect((await ask(stack, s.accessToken, { userQuestion: `what is ${i}/13 + 1/13?` })).status).toBe(200);
    expect((await ask(stack, s.accessToken, { userQuestion: 'what is 3/13 + 1/13?' })).status).toBe(429);
    const { landing } = await buyAndPay(stack, s, PLAN_30);
    expect(landing).toContain('status=paid');
    const statuses: number[] = [];
    for (let i = 3; i <= 5; i++) statuses.push((await ask(stack, s.accessToken, { userQuestion: `what is ${i}/13 + 1/13?` })).status);
    expect(statuses).toEqual([200, 200, 429]);
    expect(await quotaItem(stack, s.userId)).toMatchObject({ used: 4, limit: 4 });
  });

  it('never lets parallel asks exceed the quota', async () => {
    const s = await learner(stack);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => ask(stack, s.accessToken, { userQuestion: `race: what is ${i + 1}/11 + 1/11?` })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 429, 429, 429, 429]);
    expect(await quotaItem(stack, s.userId)).toMatchObject({ used: 2 });
    expect(await dayItem(stack, s.userId)).toMatchObject({ assistantQuestions: 2 });
  });

  it('answers 503 assistant_busy with Retry-After when the worker’s slots are full, before any quota is reserved', async () => {
    const s = await learner(stack);
    const leases = [];
    for (let lease = stack.deps.tutorSlots.tryAcquire(); lease; lease = stack.deps.tutorSlots.tryAcquire()) leases.push(lease);
    expect(leases).toHaveLength(12);
    try {
      const health = await call(stack, 'GET', '/api/health', { headers: INTERNAL });
      expect(health.body.aiConcurrency).toEqual({ max: 12, inUse: 12 });
      const res = await ask(stack, s.accessToken, { userQuestion: 'what is 1/2 + 1/4?' });
      expect(res.status).toBe(503);
      expect(res.json).toMatchObject({ code: 'assistant_busy' });
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await quotaItem(stack, s.userId)).toBeUndefined();
      expect(await dayItem(stack, s.userId)).toBeUndefined();
      // Refusals need no slot.
      expect((await ask(stack, s.accessToken, { userQuestion: 'tell me a joke' })).status).toBe(200);
    } finally {
      for (const lease of leases) lease.release();
    }
    expect((await ask(stack, s.accessToken, { userQuestion: 'what is 1/2 + 1/4?' })).status).toBe(200);
    expect((await call(stack, 'GET', '/api/health', { headers: INTERNAL })).body.aiConcurrency).toEqual({ max: 12, inUse: 0 });
  });

  it('gives the quota back when the model call fails before the first byte (503 assistant_unavailable)', async () => {
    const s = await learner(stack);
    await llmNext(stack, { fail: 'error', times: 2 }); // the SDK retries once
    const res = await ask(stack, s.accessToken, { userQuestion: 'what is 1/3 + 1/3?' });
    expect(res.status).toBe(503);
    expect(res.json).toMatchObject({ code: 'assistant_unavailable' });
    expect(res.headers.get('retry-after')).toBeTruthy();
    expect(await quotaItem(stack, s.userId)).toMatchObject({ used: 0 });
    expect(await dayItem(stack, s.userId)).toMatchObject({ assistantQuestions: 0 });
    for (let i = 1; i <= 2; i++) expect((await ask(stack, s.accessToken, { userQuestion: `what is ${i}/3 + 1/6?` })).status).toBe(200);
    expect((await call(stack, 'GET', '/api/user/weekly-report', { token: s.accessToken })).body.current.assistantQuestions).toBe(2);
  });

  it('cuts the stream when the model fails mid-answer: incomplete answer, quota given back, nothing stored', async () => {
    const s = await learner(stack);
    await llmConfig(stack, { firstTokenDelayMs: 20, chunkDelayMs: 20 });
    await llmNext(stack, { fail: 'cut', cutAfterChunks: 30 });
    const res = await ask(stack, s.accessToken, { userQuestion: 'how do I add 2/3 and 1/6?' });
    expect(res.status).toBe(200);
    expect(res.cut).toBe(true);
    expect(res.text.length).toBeGreaterThan(0);
    expect(res.text).not.toContain('5/6');
    expect(await quotaItem(stack, s.userId)).toMatchObject({ used: 0 });
    expect(await dayItem(stack, s.userId)).toMatchObject({ assistantQuestions: 0 });
    expect((await call(stack, 'GET', '/api/ai/history', { token: s.accessToken })).body.items).toEqual([]);
  });

  it('answers 503 when the model fails before the answer’s first sentence was sent, the quota given back', async () => {
    const s = await learner(stack);
    await llmNext(stack, { fail: 'cut', cutAfterChunks: 4 });
    const res = await ask(stack, s.accessToken, { userQuestion: 'how do I add 2/3 and 1/12?' });
    expect(res.status).toBe(503);
    expect(res.json.code).toBe('assistant_unavailable');
    expect(await quotaItem(stack, s.userId)).toMatchObject({ used: 0 });
  });

  it('frees a slot after its hold time at the latest: the slow answer ends with the closing sentence and its quota is given back', async () => {
    const s = await learner(stack);
    const original = stack.deps.tutorSlots;
    stack.deps.tutorSlots = new Slots(12, 400);
    try {
      await llmConfig(stack, { firstTokenDelayMs: 20, chunkDelayMs: 100 });
      const res = await ask(stack, s.accessToken, { userQuestion: 'how do I add 1/5 and 1/10?' });
      expect(res.status).toBe(200);
      expect(res.cut).toBe(false);
      expect(res.text.endsWith(TIME_LIMIT_TEXT.en)).toBe(true);
      expect(res.chunks.at(-1)?.at).toBeLessThan(1500);
      expect(stack.deps.tutorSlots.stats().inUse).toBe(0);
      expect(await quotaItem(stack, s.userId)).toMatchObject({ used: 0 });
    } finally {
      stack.deps.tutorSlots = original;
    }
  });

  it('finishes and stores the answer when the learner hangs up mid-answer (it is in the history), the question counted', async () => {
    const s = await learner(stack);
    await llmConfig(stack, { firstTokenDelayMs: 20, chunkDelayMs: 50 });
    const before = (await llmRequests(stack)).length;
    const controller = new AbortController();
    const response = await fetch(`${stack.baseUrl}/api/ai/ask`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.accessToken}` },
      body: JSON.stringify({ userQuestion: 'how do I add 1/6 and 1/12?' }),
      signal: controller.signal,
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    controller.abort();
    await expect(reader.read()).rejects.toThrow();
    await expect.poll(() => stack.deps.tutorSlots.stats().inUse, { timeout: 10_000 }).toBe(0);
    expect((await llmRequests(stack)).length).toBe(before + 1);
    expect(await quotaItem(stack, s.userId)).toMatchObject({ used: 1 });
    await expect
      .poll(async () => (await call(stack, 'GET', '/api/ai/history', { token: s.accessToken })).body.items[0]?.text, { timeout: 5000 })
      .toContain('So the answer is 1/4.');
  });

  it('neither stores nor caches an answer the model refuses after a few words, and gives the quota back', async () => {
    const s = await learner(stack);
    // A question the gate lets through; the model (scripted here) refuses it late.
    const question = 'what is 9 + 9 and tell me something about your life';
    await llmNext(stack, { reply: 'Numbers are fun! But [[OFF_TOPIC]]' });
    const res = await ask(stack, s.accessToken, { userQuestion: question });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-tutor-outcome')).toBe('off_topic');
    expect(res.text).toBe(REFUSAL_TEXT.en); // the words before the marker never reach the learner
    expect(res.text).not.toContain('OFF_TOPIC');
    expect((await call(stack, 'GET', '/api/ai/history', { token: s.accessToken })).body.items).toEqual([]);
    expect(await quotaItem(stack, s.userId)).toMatchObject({ used: 0 });
    // Not cached: another learner asking the same gets a model call.
    const other = await learner(stack);
    const before = (await llmRequests(stack)).length;
    const again = await ask(stack, other.accessToken, { userQuestion: question });
    expect(again.headers.get('x-tutor-outcome')).toBe('answer');
    expect((await llmRequests(stack)).length).toBe(before + 1);
  });

  it('serves the same first question of another learner from the cache, without a model call', async () => {
    const a = await learner(stack);
    const b = await learner(stack);
    const question = 'How do I subtract 1/8 from 3/4?';
    const first = await ask(stack, a.accessToken, { userQuestion: question });
    expect(first.headers.get('x-tutor-outcome')).toBe('answer');
    const before = (await llmRequests(stack)).length;
    const hit = await ask(stack, b.accessToken, { userQuestion: 'how do i subtract 1/8 from 3/4' });
    expect(hit.status).toBe(200);
    expect(hit.headers.get('x-tutor-outcome')).toBe('cached');
    expect(hit.text).toBe(first.text);
    expect((await llmRequests(stack)).length).toBe(before);
    expect(await quotaItem(stack, b.userId)).toMatchObject({ used: 1 });
    const [answer] = (await call(stack, 'GET', '/api/ai/history', { token: b.accessToken })).body.items;
    expect(answer).toMatchObject({ role: 'assistant', cached: true, promptTokens: 0, completionTokens: 0 });
  });

  it('records token usage of streamed answers: on the answer, the learner’s day and the service’s day', async () => {
    const s = await learner(stack);
    const before = await usageItem(stack);
    const res = await ask(stack, s.accessToken, { userQuestion: 'how do I add 2/9 and 5/9?' });
    const { body } = await call(stack, 'GET', '/api/ai/history', { token: s.accessToken });
    const answer = body.items[0];
    expect(answer).toMatchObject({ id: res.headers.get('x-message-id'), role: 'assistant', cached: false });
    expect(answer.promptTokens).toBeGreaterThan(100);
    expect(answer.completionTokens).toBeGreaterThan(10);
    expect(await quotaItem(stack, s.userId)).toMatchObject({
      promptTokens: answer.promptTokens,
      completionTokens: answer.completionTokens,
    });
    const after = await usageItem(stack);
    expect(after?.answers).toBe((before?.answers ?? 0) + 1);
    expect(after?.promptTokens).toBe((before?.promptTokens ?? 0) + answer.promptTokens);
  });
});

describe('grounding', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ now: NOW, env: { AI_DAILY_QUOTA_FREE: '20' } });
    await llmConfig(stack, { firstTokenDelayMs: 5, chunkDelayMs: 1 });
  });
  afterAll(() => stack?.close());

  const systemOfLast = async () => (await llmRequests(stack)).at(-1)?.messages[0]?.content ?? '';

  it('ingested every seed textbook excerpt at start (each lessonId a lesson of its grade)', () => {
    // seedTextbook validates each excerpt like the ingest route; a failure would be a start-up warning.
    expect(stack.warnings.filter((w) => w.startsWith('tutor:'))).toEqual([]);
  });

  it('uses the book of the learner’s grade without lessonId', async () => {
    const s = await learner(stack);
    await ask(stack, s.accessToken, { userQuestion: 'how do I add 3/4 and 1/8?' });
    let system = await systemOfLast();
    expect(system).toContain('grade 4');
    expect(system).toContain(`--- ${FRACTIONS_BOOK}`);
    expect(system).toContain('۳/۴ + ۱/۸ = ۶/۸ + ۱/۸ = ۷/۸');
    expect(system).not.toContain('ریاضی پنجم');

    await call(stack, 'PATCH', '/api/user/profile', { token: s.accessToken, body: { gradeId: 5 } });
    stack.clock.advance(1);
    await ask(stack, s.accessToken, { userQuestion: 'how do I find the area of a triangle?' });
    system = await systemOfLast();
    expect(system).toContain('grade 5');
    expect(system).toContain('--- ریاضی پنجم — مساحت مثلث');
    expect(system).not.toContain('ریاضی چهارم');
  });

  it('uses the lesson’s part of the book with lessonId', async () => {
    const s = await learner(stack);
    const res = await ask(stack, s.accessToken, { userQuestion: 'how do I add 3/4 and 1/8?', lessonId: 40241 });
    expect(res.status).toBe(200);
    const system = await systemOfLast();
    expect(system).toMatch(/Lesson: .+\n/);
    const titles = [...system.matchAll(/^--- (.+)$/gm)].map((m) => m[1]);
    expect(titles.length).toBeGreaterThan(0);
    expect(new Set(titles)).toEqual(new Set(['ریاضی چهارم — محیط و مساحت']));
    expect(system).not.toContain(FRACTIONS_BOOK);
  });

  it('gives the practice question, its correct answer and the learner’s last wrong answer with questionId, and asks to guide', async () => {
    const s = await learner(stack);
    const node = allNodes()[0]!;
    const q = questionsOf(node)[0]!;
    const wrong = wrongAnswer(q);
    await call(stack, 'POST', `/api/questions/${q.id}/answer`, { token: s.accessToken, body: { answer: wrong } });
    const res = await ask(stack, s.accessToken, { userQuestion: 'I do not understand this one', questionId: q.id });
    expect(res.status).toBe(200);
    const system = await systemOfLast();
    const shown = (a: string) => {
      const choice = q.choices?.find((c) => c.id === a);
      return choice ? `${choice.id}) ${choice.text}` : a;
    };
    expect(system).toContain(`Practice question:\n${q.text}`);
    expect(system).toContain(`Correct answer: ${shown(q.answer)}`);
    expect(system).toContain(`The child's last wrong answer: ${shown(wrong)}`);
    expect(system).toContain('Do not state the final answer');
    // Later right answers do not erase the last wrong one.
    await call(stack, 'POST', `/api/questions/${q.id}/answer`, { token: s.accessToken, body: { answer: q.answer } });
    stack.clock.advance(1);
    await ask(stack, s.accessToken, { userQuestion: 'why was my answer wrong?', questionId: q.id });
    expect(await systemOfLast()).toContain(`The child's last wrong answer: ${shown(wrong)}`);
  });

  it('refuses unknown or mismatched lesson and question ids', async () => {
    const s = await learner(stack);
    expect((await ask(stack, s.accessToken, { userQuestion: 'what is 1/2?', lessonId: 99999 })).status).toBe(404);
    expect((await ask(stack, s.accessToken, { userQuestion: 'what is 1/2?', questionId: 99999 })).status).toBe(404);
    const q = questionsOf(allNodes()[0]!)[0]!;
    const mismatch = await ask(stack, s.accessToken, { userQuestion: 'what is 1/2?', questionId: q.id, lessonId: 40241 });
    expect(mismatch.status).toBe(400);
    expect(await quotaItem(stack, s.userId)).toBeUndefined();
  });

  it('sends the last 6 messages of the conversation to the model', async () => {
    const s = await learner(stack);
    for (let i = 1; i <= 5; i++) {
      await ask(stack, s.accessToken, { userQuestion: `question ${i}: what is ${i}/8 + 1/8?`, lessonId: 40161 });
      stack.clock.advance(1);
    }
    const messages = (await llmRequests(stack)).at(-1)?.messages ?? [];
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user']);
    expect(messages[1]?.content).toContain('question 2');
    expect(messages.at(-1)?.content).toContain('question 5');
    // Another context is another conversation.
    await ask(stack, s.accessToken, { userQuestion: 'what is 1/2 + 1/2?' });
    expect((await llmRequests(stack)).at(-1)?.messages.map((m) => m.role)).toEqual(['system', 'user']);
  });
});

describe('slots under live load (AI_MAX_CONCURRENT_PER_WORKER=1)', () => {
  const stack = useStack({ now: NOW, env: { AI_MAX_CONCURRENT_PER_WORKER: '1' } });

  it('holds the slot while an answer streams, answers 503 to a second ask, and frees it at the end', async () => {
    await llmConfig(stack, { firstTokenDelayMs: 300, chunkDelayMs: 5 });
    const a = await learner(stack);
    const b = await learner(stack);
    const slow = ask(stack, a.accessToken, { userQuestion: 'what is 1/4 + 1/4?' });
    await new Promise((r) => setTimeout(r, 150));
    expect((await call(stack, 'GET', '/api/health', { headers: INTERNAL })).body.aiConcurrency).toEqual({ max: 1, inUse: 1 });
    const busy = await ask(stack, b.accessToken, { userQuestion: 'what is 1/3 + 1/3?' });
    expect(busy.status).toBe(503);
    expect(busy.json.code).toBe('assistant_busy');
    expect(await quotaItem(stack, b.userId)).toBeUndefined();
    expect((await slow).status).toBe(200);
    expect((await call(stack, 'GET', '/api/health', { headers: INTERNAL })).body.aiConcurrency).toEqual({ max: 1, inUse: 0 });
    expect((await ask(stack, b.accessToken, { userQuestion: 'what is 1/3 + 1/3?' })).status).toBe(200);
  });
});

describe('GET /api/ai/history and POST /api/ai/feedback', () => {
  let stack: TestStack;
  let a: Session;
  let b: Session;
  beforeAll(async () => {
    stack = await startTestStack({ now: NOW });
    await llmConfig(stack, { firstTokenDelayMs: 5, chunkDelayMs: 1 });
    a = await learner(stack);
    b = await learner(stack);
    for (const s of [a, b]) {
      for (let i = 1; i <= 2; i++) {
        await ask(stack, s.accessToken, { userQuestion: `history ${s.userId}.${i}: what is ${i}/6 + 1/6?` });
        stack.clock.advance(1);
      }
    }
  });
  afterAll(() => stack?.close());

  it('lists the caller’s messages newest first, in pages', async () => {
    const all = await call(stack, 'GET', '/api/ai/history', { token: a.accessToken });
    expect(all.status).toBe(200);
    expect(all.body.items.map((m: { role: string }) => m.role)).toEqual(['assistant', 'user', 'assistant', 'user']);
    expect(all.body.items[1].text).toContain(`history ${a.userId}.2`);
    expect(all.body.items.every((m: { text: string }) => !m.text.includes(`history ${b.userId}`))).toBe(true);
    expect(all.body.nextCursor).toBeUndefined();
    const page1 = await call(stack, 'GET', '/api/ai/history?limit=3', { token: a.accessToken });
    expect(page1.body.items).toHaveLength(3);
    const page2 = await call(stack, 'GET', `/api/ai/history?limit=3&cursor=${page1.body.nextCursor}`, { token: a.accessToken });
    expect([...page1.body.items, ...page2.body.items]).toEqual(all.body.items);
    expect((await call(stack, 'GET', '/api/ai/history?cursor=nope', { token: a.accessToken })).status).toBe(400);
    expect((await call(stack, 'GET', '/api/ai/history')).status).toBe(401);
  });

  it('records feedback on the caller’s own answers only', async () => {
    const [answer, question] = (await call(stack, 'GET', '/api/ai/history', { token: a.accessToken })).body.items;
    const up = await call(stack, 'POST', '/api/ai/feedback', { token: a.accessToken, body: { messageId: answer.id, rating: 'up' } });
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ id: answer.id, rating: 'up' });
    const down = await call(stack, 'POST', '/api/ai/feedback', {
      token: a.accessToken,
      body: { messageId: answer.id, rating: 'down', comment: 'too long' },
    });
    expect(down.body).toMatchObject({ rating: 'down', comment: 'too long' });
    expect((await call(stack, 'GET', '/api/ai/history', { token: a.accessToken })).body.items[0]).toMatchObject({ rating: 'down' });

    const others = await call(stack, 'POST', '/api/ai/feedback', { token: b.accessToken, body: { messageId: answer.id, rating: 'up' } });
    expect(others.status).toBe(404);
    expect(others.body.code).toBe('not_found');
    const own = await call(stack, 'POST', '/api/ai/feedback', { token: a.accessToken, body: { messageId: question.id, rating: 'up' } });
    expect(own.status).toBe(400);
    expect((await call(stack, 'POST', '/api/ai/feedback', { token: a.accessToken, body: { messageId: 'x', rating: 'up' } })).status).toBe(
      404,
    );
    expect(
      (await call(stack, 'POST', '/api/ai/feedback', { token: a.accessToken, body: { messageId: answer.id, rating: 'meh' } })).status,
    ).toBe(400);
  });
});

describe('account deletion and the tutor', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ now: NOW });
    await llmConfig(stack, { firstTokenDelayMs: 5, chunkDelayMs: 1 });
  });
  afterAll(() => stack?.close());

  it('removes the learner’s tutor messages, quota and last wrong answers with the account', async () => {
    const s = await learner(stack);
    const q = questionsOf(allNodes()[0]!)[0]!;
    await call(stack, 'POST', `/api/questions/${q.id}/answer`, { token: s.accessToken, body: { answer: wrongAnswer(q) } });
    await ask(stack, s.accessToken, { userQuestion: 'why is it wrong?', questionId: q.id });
    const sks = async () =>
      (
        await stack.deps.db.doc.send(
          new QueryCommand({
            TableName: stack.deps.db.tableName,
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': `USER#${s.userId}` },
          }),
        )
      ).Items?.map((i) => String(i.sk)) ?? [];
    expect((await sks()).filter((sk) => /^(AIMSG|AIQUOTA|WRONG)#/.test(sk))).toHaveLength(4);
    stack.clock.advance(61);
    await call(stack, 'POST', '/api/auth/otp/request', { body: { phone: s.phone } });
    const deleted = await call(stack, 'POST', '/api/user/delete', { token: s.accessToken, body: { otp: await lastCode(stack, s.phone) } });
    expect(deleted.status).toBe(204);
    expect(await sks()).toEqual([]);
  });
});

describe('internal RAG ingest', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ now: NOW, env: { AI_DAILY_QUOTA_FREE: '20' } });
    await llmConfig(stack, { firstTokenDelayMs: 5, chunkDelayMs: 1 });
  });
  afterAll(() => stack?.close());

  const doc = {
    gradeId: 4,
    lessonId: 40161,
    title: 'Zebra fractions',
    text: 'Zebra stripes: a zebra has 9 stripes and 7 of them are wide, so 7/9 of the stripes are wide. '.repeat(20),
  };

  it('is closed without the key or with a wrong one', async () => {
    expect((await call(stack, 'POST', '/api/internal/rag/documents', { body: doc })).status).toBe(403);
    const wrong = await call(stack, 'POST', '/api/internal/rag/documents', { body: doc, headers: { 'x-internal-key': 'nope' } });
    expect(wrong.status).toBe(403);
    expect(wrong.body.code).toBe('permission_denied');
    expect((await call(stack, 'DELETE', '/api/internal/rag/documents/1', { headers: { 'x-internal-key': 'nope' } })).status).toBe(403);
  });

  it('ingests a document (chunked, embedded), retrieves it for questions of its lesson, and deletes it', async () => {
    const created = await call(stack, 'POST', '/api/internal/rag/documents', { body: doc, headers: INTERNAL });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.any(Number),
      gradeId: 4,
      lessonId: 40161,
      title: doc.title,
      embeddingModel: 'text-embedding-3-small',
    });
    expect(created.body.chunks).toBeGreaterThan(1);

    const s = await learner(stack);
    await ask(stack, s.accessToken, { userQuestion: 'how many zebra stripes are wide?', lessonId: 40161 });
    expect((await llmRequests(stack)).at(-1)?.messages[0]?.content).toContain('--- Zebra fractions\nZebra stripes');
    stack.clock.advance(1);
    await ask(stack, s.accessToken, { userQuestion: 'how many zebra stripes are wide?', lessonId: 40241 });
    expect((await llmRequests(stack)).at(-1)?.messages[0]?.content).not.toContain('Zebra');

    expect((await call(stack, 'DELETE', `/api/internal/rag/documents/${created.body.id}`, { headers: INTERNAL })).status).toBe(204);
    stack.clock.advance(1);
    await ask(stack, s.accessToken, { userQuestion: 'how many zebra stripes are wide? again', lessonId: 40161 });
    expect((await llmRequests(stack)).at(-1)?.messages[0]?.content).not.toContain('Zebra');
    expect((await call(stack, 'DELETE', `/api/internal/rag/documents/${created.body.id}`, { headers: INTERNAL })).status).toBe(404);
  });

  it('replaces earlier documents of the same grade and title when one is ingested again', async () => {
    const first = await call(stack, 'POST', '/api/internal/rag/documents', { body: { ...doc, title: 'Twice' }, headers: INTERNAL });
    const second = await call(stack, 'POST', '/api/internal/rag/documents', {
      body: { ...doc, title: 'Twice', text: 'Kiwi halves: cut a kiwi into 2 equal parts, each part is 1/2.' },
      headers: INTERNAL,
    });
    expect(second.status).toBe(201);
    expect(second.body.replaced).toEqual([first.body.id]);
    expect((await call(stack, 'DELETE', `/api/internal/rag/documents/${first.body.id}`, { headers: INTERNAL })).status).toBe(404);
    const s = await learner(stack);
    await ask(stack, s.accessToken, { userQuestion: 'how many zebra stripes are wide? twice', lessonId: 40161 });
    const system = (await llmRequests(stack)).at(-1)?.messages[0]?.content ?? '';
    expect(system).toContain('--- Twice\nKiwi halves');
    expect(system).not.toContain('--- Twice\nZebra');
  });

  it('validates the document', async () => {
    const post = (body: unknown) => call(stack, 'POST', '/api/internal/rag/documents', { body, headers: INTERNAL });
    expect((await post({ ...doc, gradeId: 9 })).status).toBe(404);
    expect((await post({ ...doc, lessonId: 50111 })).body).toMatchObject({
      code: 'validation_error',
      fields: { lessonId: expect.any(Array) },
    });
    expect((await post({ ...doc, text: '   ' })).status).toBe(400);
    expect((await post({ ...doc, extra: 1 })).status).toBe(400);
    expect((await call(stack, 'DELETE', '/api/internal/rag/documents/۱۲', { headers: INTERNAL })).body.code).toBe('invalid_id');
  });
});

describe('internal RAG ingest in debug mode', () => {
  const stack = useStack({ now: NOW, env: { DEBUG: '1' } });

  it('is closed even with the right key', async () => {
    const res = await call(stack, 'POST', '/api/internal/rag/documents', {
      body: { gradeId: 4, title: 't', text: 'some text' },
      headers: INTERNAL,
    });
    expect(res.status).toBe(403);
  });
});

describe('the tutor switched off (OPENAI_API_KEY empty) and INTERNAL_SERVICE_KEY unset', () => {
  const stack = useStack({ now: NOW, env: { OPENAI_API_KEY: '', INTERNAL_SERVICE_KEY: undefined } });

  it('answers 503 assistant_unavailable without spending quota, and still refuses off-topic questions', async () => {
    const s = await learner(stack);
    const res = await ask(stack, s.accessToken, { userQuestion: 'how do I add 3/4 and 1/8?' });
    expect(res.status).toBe(503);
    expect(res.json).toMatchObject({ code: 'assistant_unavailable' });
    expect(await quotaItem(stack, s.userId)).toBeUndefined();
    expect((await ask(stack, s.accessToken, { userQuestion: 'who won the football match?' })).text).toBe(REFUSAL_TEXT.en);
    expect((await llmRequests(stack)).length).toBe(0);
  });

  it('keeps the ingest routes closed while the key is unset', async () => {
    const res = await call(stack, 'POST', '/api/internal/rag/documents', {
      body: { gradeId: 4, title: 't', text: 'some text' },
      headers: INTERNAL,
    });
    expect(res.status).toBe(403);
  });
});
