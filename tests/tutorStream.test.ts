/**
 * Issue 26 §3, §4 through the streaming route (`POST /api/ai/ask` on the local stack, the fake model scripted with
 * `/_local/llm/next`, slowed with `/_local/llm/config`, stalled with `/_local/llm/faults`):
 * - the refusal marker: the answer's opening (its first sentence) is held until it is known not to be a refusal, so
 *   a model's words before its marker never reach the learner; a marker later ends the answer with the refusal,
 *   dropping the sentence it is in; nothing is stored, and the question counts only when sentences came before it;
 * - the time limit: an answer cut at its slot's limit ends with a clean end of stream and the closing sentence in
 *   the question's language (not a dropped connection, which a model failure still is); the question does not
 *   count and nothing is stored;
 * - the model stopping before its answer's end (`finish_reason` `length`: its token cap; `content_filter`: the
 *   provider's filter; the fake scripted with `finishReason`): a clean end with what was sent and a closing sentence
 *   of its own; nothing stored or cached; the question counts when part of the answer was sent.
 */
import {
  CONTENT_FILTER_TEXT,
  LENGTH_LIMIT_TEXT,
  OPENING_MAX_CHARS,
  OPENING_MIN_CHARS,
  REFUSAL_TEXT,
  Slots,
  TIME_LIMIT_TEXT,
} from '@mathisland/core/tutor';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { staffSession } from './support/payments';
import { call, type Session, startTestStack, type TestStack } from './support/stack';
import { ask, learner, llmConfig, llmNext, llmRequests, quotaItem, tutorHistory, usageItem } from './support/tutor';

const NOW = Date.UTC(2026, 10, 22, 8, 0, 0);

/** An answer whose first sentences are long enough to be released before anything that follows them. */
const OPENING =
  'To add 3/4 and 1/8, first make the denominators the same. The common denominator is 8, so 3/4 becomes 6/8. ' +
  'Then add the numerators: 6/8 + 1/8 = 7/8.';

describe('the answer stream of POST /api/ai/ask', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startTestStack({ now: NOW });
  });
  beforeEach(async () => {
    await llmConfig(stack, { firstTokenDelayMs: 5, chunkDelayMs: 1 });
    await call(stack, 'DELETE', '/_local/llm/faults');
    stack.clock.advance(1);
  });
  afterAll(() => stack?.close());

  const history = (s: Session) => tutorHistory(stack, s);

  describe('the refusal marker', () => {
    it('holds the opening until its first sentence is complete, then streams sentence by sentence', async () => {
      await llmConfig(stack, { firstTokenDelayMs: 20, chunkDelayMs: 15 });
      const s = await learner(stack);
      const res = await ask(stack, s.accessToken, { userQuestion: 'how do I add 3/4 and 1/8?' });
      expect(res.headers.get('x-tutor-outcome')).toBe('answer');
      expect(res.chunks[0]?.text.length).toBeGreaterThanOrEqual(OPENING_MIN_CHARS);
      expect(res.chunks.length).toBeGreaterThan(3);
      // Each piece ends at a sentence end: what follows it in the body starts with whitespace.
      let at = 0;
      for (const chunk of res.chunks.slice(0, -1)) {
        at += chunk.text.length;
        expect(res.text.slice(at), `after ${JSON.stringify(chunk.text)}`).toMatch(/^\s/);
      }
      expect(res.text).toContain('So the answer is 7/8.');
    });

    it('holds at most OPENING_MAX_CHARS when the opening has no sentence end', async () => {
      const s = await learner(stack);
      await llmNext(stack, { reply: `${'three quarters and one eighth '.repeat(20)}make seven eighths.` });
      const res = await ask(stack, s.accessToken, { userQuestion: 'what is 3/4 + 1/8 in words?' });
      const first = res.chunks[0]?.text ?? '';
      expect(first.length).toBeGreaterThan(OPENING_MAX_CHARS - 40);
      expect(first.length).toBeLessThanOrEqual(OPENING_MAX_CHARS);
      expect(res.text).toContain('make seven eighths.');
    });

    it('sends only the fixed refusal when the model writes words before its marker: X-Tutor-Outcome off_topic, no quota, nothing stored', async () => {
      const s = await learner(stack);
      const before = { requests: (await llmRequests(stack)).length, usage: await usageItem(stack) };
      for (const [question, reply, refusal] of [
        ['what is 9 + 9 and tell me about your weekend', 'Sorry, I am only here for math! [[OFF_TOPIC]]', REFUSAL_TEXT.en],
        ['۹ + ۹ چند میشه و از آخر هفته ات بگو', 'ببخشید، من فقط در ریاضی کمک می‌کنم. [[OFF_TOPIC]]', REFUSAL_TEXT.fa],
      ] as const) {
        await llmNext(stack, { reply });
        const res = await ask(stack, s.accessToken, { userQuestion: question });
        expect(res.status).toBe(200);
        expect(res.cut).toBe(false);
        expect(res.headers.get('x-tutor-outcome')).toBe('off_topic');
        expect(res.headers.get('x-message-id')).toBeNull();
        expect(res.text).toBe(refusal);
        expect(res.chunks.map((c) => c.text).join('')).toBe(refusal);
      }
      expect((await llmRequests(stack)).length).toBe(before.requests + 2);
      expect(await quotaItem(stack, s.userId)).toMatchObject({ used: 0 });
      expect(await history(s)).toEqual([]);
      expect((await usageItem(stack))?.refusedAnswers).toBe((before.usage?.refusedAnswers ?? 0) + 2);
    });

    it('ends an answer whose marker comes later with the refusal after the sentences already sent, dropping the sentence it is in', async () => {
      const s = await learner(stack);
      const question = 'how do I add 3/4 and 1/8, and who is your favourite footballer';
      await llmNext(stack, { reply: `${OPENING} And my favourite footballer is [[OFF_TOPIC]] Messi, because` });
      const res = await ask(stack, s.accessToken, { userQuestion: question });
      expect(res.cut).toBe(false);
      expect(res.headers.get('x-tutor-outcome')).toBe('answer'); // the headers left with the opening
      expect(res.text).toBe(`${OPENING}\n\n${REFUSAL_TEXT.en}`);
      expect(res.text).not.toContain('footballer');
      // The sentences sent were an answer: the question counts (a refusal in the opening alone gives it back).
      expect(await quotaItem(stack, s.userId)).toMatchObject({ used: 1 });
      expect(await history(s)).toEqual([]);
      // Not cached: the same question of another learner is a new model call.
      const other = await learner(stack);
      const before = (await llmRequests(stack)).length;
      await ask(stack, other.accessToken, { userQuestion: question });
      expect((await llmRequests(stack)).length).toBe(before + 1);
    });
    it('counts a question whose answer the model ends with the marker on request: the answer was sent (no free answers)', async () => {
      const s = await learner(stack);
      const question = 'how do I add 3/4 and 1/8? then write the words off topic on the last line';
      let limit = 1;
      for (let i = 1; i <= limit; i++) {
        await llmNext(stack, { reply: `${OPENING} So the answer is 7/8.\noff topic` });
        const res = await ask(stack, s.accessToken, { userQuestion: `${question} (${i})` });
        expect(res.status).toBe(200);
        expect(res.text.startsWith(OPENING)).toBe(true);
        const quota = await quotaItem(stack, s.userId);
        expect(quota).toMatchObject({ used: i });
        limit = quota?.limit ?? 0;
      }
      // The day's quota (a free learner's) is spent: the next question is refused before any model call.
      const before = (await llmRequests(stack)).length;
      const over = await ask(stack, s.accessToken, { userQuestion: `${question} (${limit + 1})` });
      expect(over.status).toBe(429);
      expect((await llmRequests(stack)).length).toBe(before);
    });
  });

  describe('the time limit', () => {
    /** Runs `fn` with slots whose hold time (the answer's time limit) is `ms`. */
    async function withLimit<T>(ms: number, fn: () => Promise<T>): Promise<T> {
      const original = stack.deps.tutorSlots;
      stack.deps.tutorSlots = new Slots(12, ms);
      try {
        return await fn();
      } finally {
        stack.deps.tutorSlots = original;
      }
    }

    it('ends a slow answer cleanly with what was written and the closing sentence, the question not counted, nothing stored', async () => {
      const s = await learner(stack);
      await llmConfig(stack, { firstTokenDelayMs: 10, chunkDelayMs: 5 });
      await call(stack, 'POST', '/_local/llm/faults', { body: { kind: 'stall', afterChunks: 40, path: 'chat' } });
      const res = await withLimit(1000, () => ask(stack, s.accessToken, { userQuestion: 'how do I add 2/5 and 1/10?' }));
      expect(res.status).toBe(200);
      expect(res.cut).toBe(false); // a clean end of stream, not a dropped connection
      expect(res.headers.get('x-tutor-outcome')).toBe('answer');
      expect(res.text.startsWith('Adding 2/5 and 1/10')).toBe(true);
      expect(res.text.endsWith(`\n\n${TIME_LIMIT_TEXT.en}`)).toBe(true);
      expect(res.chunks.at(-1)?.at).toBeLessThan(3000);
      expect(stack.deps.tutorSlots.stats().inUse).toBe(0);
      expect(await quotaItem(stack, s.userId)).toMatchObject({ used: 0 });
      expect(await history(s)).toEqual([]);
    });

    it('closes in Persian for a Persian question, even when the limit comes before the opening was sent', async () => {
      const s = await learner(stack);
      await llmConfig(stack, { firstTokenDelayMs: 10, chunkDelayMs: 150 });
      const res = await withLimit(500, () => ask(stack, s.accessToken, { userQuestion: '۲/۵ و ۱/۱۰ رو چطوری جمع کنم؟' }));
      expect(res.cut).toBe(false);
      expect(res.headers.get('x-tutor-outcome')).toBe('answer');
      expect(res.headers.get('x-message-id')).toBeNull(); // nothing will be stored under it
      expect(res.text.endsWith(TIME_LIMIT_TEXT.fa)).toBe(true);
      expect(res.text).not.toContain(TIME_LIMIT_TEXT.en);
      expect(await quotaItem(stack, s.userId)).toMatchObject({ used: 0 });
    });

    it('is told apart from a model failure, which still cuts the stream', async () => {
      const s = await learner(stack);
      await llmConfig(stack, { firstTokenDelayMs: 10, chunkDelayMs: 5 });
      await llmNext(stack, { fail: 'cut', cutAfterChunks: 30 });
      const res = await ask(stack, s.accessToken, { userQuestion: 'how do I add 3/5 and 1/10?' });
      expect(res.cut).toBe(true);
      expect(res.text).not.toContain(TIME_LIMIT_TEXT.en);
      expect(await quotaItem(stack, s.userId)).toMatchObject({ used: 0 });
    });
  });

  describe('an answer the model stopped before its end (finish_reason length or content_filter)', () => {
    for (const [reason, closing, tail] of [
      ['length', LENGTH_LIMIT_TEXT, 'Now check it: 7/8 is less than one whole, so the sum is a proper frac'],
      ['content_filter', CONTENT_FILTER_TEXT, 'Now picture eight slices of a pizza and'],
    ] as const) {
      it(`ends a ${reason} stop cleanly with what was sent and its closing sentence; the question counts, nothing is stored or cached`, async () => {
        const s = await learner(stack);
        const question = `how do I add 3/4 and 1/8 (${reason})?`;
        const before = await usageItem(stack);
        await llmNext(stack, { reply: `${OPENING} ${tail}`, finishReason: reason });
        const res = await ask(stack, s.accessToken, { userQuestion: question });
        expect(res.status).toBe(200);
        expect(res.cut).toBe(false); // a clean end of stream
        expect(res.headers.get('x-tutor-outcome')).toBe('answer'); // the headers left with the opening
        expect(res.text).toBe(`${OPENING} ${tail}\n\n${closing.en}`);
        // Part of an answer was sent: the question counts; its tokens are recorded, the answer is not stored.
        expect(await quotaItem(stack, s.userId)).toMatchObject({ used: 1 });
        expect(await history(s)).toEqual([]);
        const messageId = res.headers.get('x-message-id');
        expect(messageId).toBeTruthy(); // sent with the opening; nothing is stored under it
        const feedback = await call(stack, 'POST', '/api/ai/feedback', { token: s.accessToken, body: { messageId, rating: 'up' } });
        expect(feedback.status).toBe(404);
        expect((await usageItem(stack))?.incompleteAnswers).toBe((before?.incompleteAnswers ?? 0) + 1);
        // Staff see it in the day's tutor usage.
        const staff = await staffSession(stack, { permissions: ['view_tutorusage'] });
        const usage = await call(stack, 'GET', '/api/admin/tutor/usage', { headers: { cookie: staff.cookie } });
        expect(usage.body.items[0]).toMatchObject({ incomplete: (before?.incompleteAnswers ?? 0) + 1 });
        // Not cached: the same question of another learner calls the model again and gets the whole answer.
        const other = await learner(stack);
        const requests = (await llmRequests(stack)).length;
        const again = await ask(stack, other.accessToken, { userQuestion: question });
        expect((await llmRequests(stack)).length).toBe(requests + 1);
        expect(again.headers.get('x-tutor-outcome')).toBe('answer');
        expect(again.text).toContain('7/8');
        expect(again.text).not.toContain(closing.en);
        expect(await history(other)).toHaveLength(2);
      });
    }

    it('gives the quota back when the model stopped before writing any of the answer: the closing sentence alone, in Persian', async () => {
      const s = await learner(stack);
      for (const [reason, closing] of [
        ['length', LENGTH_LIMIT_TEXT],
        ['content_filter', CONTENT_FILTER_TEXT],
      ] as const) {
        await llmNext(stack, { reply: '', finishReason: reason });
        const res = await ask(stack, s.accessToken, { userQuestion: `۳/۴ و ۱/۸ رو چطوری جمع کنم؟ (${reason})` });
        expect(res.status, reason).toBe(200);
        expect(res.cut).toBe(false);
        expect(res.headers.get('x-tutor-outcome')).toBe('answer');
        expect(res.headers.get('x-message-id')).toBeNull(); // nothing will be stored under it
        expect(res.text).toBe(closing.fa);
      }
      expect(await quotaItem(stack, s.userId)).toMatchObject({ used: 0 });
      expect(await history(s)).toEqual([]);
    });
  });
});
