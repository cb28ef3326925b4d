/**
 * Instruments (issue 30 §4) through the local runtime, as a learner, a buyer, the marketplace and staff use the
 * service: each business event is counted once, where it happens, with the dimensions of infra/metrics.ts (answers
 * right and wrong, first completions of a lesson and an island, orders paid by provider, refunds by staff and at the
 * marketplace, the tutor's outcomes by stage, throttled requests by scope), and nothing is counted for what did not
 * happen (a repeated completion, a refused purchase). Every log line of a request carries the Lambda context and the
 * request's correlation id, which the response answers as X-Request-Id.
 *
 * The metrics are read as CloudWatch would: the EMF lines the process writes to stdout.
 */
import { logger } from '@mathisland/core';
import { renewDueMarketplaceSubscriptions, saveDiscountCode } from '@mathisland/core/subscriptions';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BusinessMetric } from '../infra/metrics';
import { allNodes, questionsOf, wrongAnswer } from './support/content';
import { marketplaceSubscriber, moveClockTo, refundOnMarketplace } from './support/marketplace';
import { admin, buyAndPay, PLAN_30, PLAN_90, purchase, staffSession } from './support/payments';
import { call, newPhone, signIn, useStack } from './support/stack';
import { ask, llmNext } from './support/tutor';

// The project turns the metrics off (vitest.config.ts); this file reads them. Set before the stack counts anything.
process.env.POWERTOOLS_METRICS_DISABLED = 'false';

type Line = Record<string, any>;
const written: Line[] = [];

beforeAll(() => {
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    for (const text of String(chunk).split('\n')) {
      if (!text.startsWith('{')) continue;
      try {
        written.push(JSON.parse(text) as Line);
      } catch {
        // not a JSON line
      }
    }
    return true;
  });
});
afterAll(() => {
  vi.restoreAllMocks();
  process.env.POWERTOOLS_METRICS_DISABLED = 'true';
});
beforeEach(() => {
  written.length = 0;
});

/** The counts of `metric` written since the test began, as `dimension values → count` (`-` for none). */
function counts(metric: BusinessMetric): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of written) {
    const directive = line._aws?.CloudWatchMetrics?.[0];
    if (!directive?.Metrics?.some((m: { Name: string }) => m.Name === metric)) continue;
    expect(directive.Namespace).toBe('mathisland/local');
    const dims = (directive.Dimensions[0] as string[]).filter((d) => d !== 'service');
    const key = dims.map((d) => line[d]).join('/') || '-';
    out[key] = (out[key] ?? 0) + line[metric];
  }
  return out;
}

const stack = useStack({ now: Date.UTC(2026, 10, 18, 8, 30), env: { BENCH_THROTTLE_LIMIT: '60' } });
const node = allNodes()[0]!;

describe('business metrics', () => {
  it('counts every answer right or wrong, and each first completion of a lesson and of an island, once', async () => {
    const s = await signIn(stack);
    const [lesson] = node.lessons.filter((l) => l.questions.length > 0);
    let wrong = 0;
    for (const [i, q] of questionsOf(node).entries()) {
      const answer = i === 0 ? wrongAnswer(q) : q.answer;
      if (i === 0) wrong++;
      expect((await call(stack, 'POST', `/api/questions/${q.id}/answer`, { token: s.accessToken, body: { answer } })).status).toBe(200);
    }
    const total = questionsOf(node).length;
    expect(counts('Answers')).toEqual({ right: total - wrong, wrong });

    const path = `/api/lessons/${lesson!.id}/complete`;
    expect((await call(stack, 'POST', path, { token: s.accessToken })).status).toBe(200);
    expect((await call(stack, 'POST', path, { token: s.accessToken })).status).toBe(200); // a repeat: nothing new
    expect(counts('Completions')).toEqual({ lesson: 1 });
    const quiz = `/api/nodes/${node.id}/quiz/complete`;
    expect((await call(stack, 'POST', quiz, { token: s.accessToken })).status).toBe(200);
    expect((await call(stack, 'POST', quiz, { token: s.accessToken })).status).toBe(200);
    expect(counts('Completions')).toEqual({ lesson: 1, island: 1 });
  });

  it('counts orders paid by who took the money, and refunds by staff and at the marketplace', async () => {
    const s = await signIn(stack);
    const { orderId } = await buyAndPay(stack, s, PLAN_90);
    await buyAndPay(stack, s, PLAN_30, 'cancel'); // not paid: not counted
    await saveDiscountCode(stack.deps.db, { code: 'METRICSFREE', title: 'free', percent: 100, advertised: false, active: true });
    const free = await purchase(stack, s, { planId: PLAN_30, paymentMethod: 'gateway', discountCode: 'METRICSFREE' });
    expect(free.status, free.text).toBe(201);
    expect(free.body.status).toBe('paid');
    const sub = await marketplaceSubscriber(stack);
    expect(counts('Purchases')).toEqual({ gateway: 1, free: 1, marketplace: 1 });

    const { cookie } = await staffSession(stack, { isSuperuser: true });
    const refunded = await admin(stack, cookie, 'POST', `/api/admin/orders/${orderId}/refund`, { confirm: true });
    expect(refunded.status, refunded.text).toBe(200);
    expect(counts('Refunds')).toEqual({ staff: 1 });

    await refundOnMarketplace(stack, sub.purchaseToken);
    await moveClockTo(stack, stack.clock.now() + 25 * 3_600_000, sub.s);
    expect((await renewDueMarketplaceSubscriptions(stack.deps)).ended).toBe(1);
    expect(await renewDueMarketplaceSubscriptions(stack.deps)).toMatchObject({ ended: 0 });
    expect(counts('Refunds')).toEqual({ staff: 1, store: 1 });
  });

  it('counts the tutor’s outcomes with the stage that decided each', async () => {
    const s = await signIn(stack);
    const other = await signIn(stack);
    const outcome = async (token: string, userQuestion: string) =>
      (await ask(stack, token, { userQuestion })).headers.get('x-tutor-outcome');
    expect(await outcome(s.accessToken, 'How do I add 1/3 and 1/6?')).toBe('answer');
    expect(await outcome(other.accessToken, 'how do i add 1/3 and 1/6')).toBe('cached');
    expect(await outcome(s.accessToken, 'who won the football match yesterday?')).toBe('off_topic');
    await llmNext(stack, { reply: 'Nice! But [[OFF_TOPIC]]' });
    expect(await outcome(other.accessToken, 'what is 9 + 9 and tell me about your life')).toBe('off_topic');
    expect(await outcome(s.accessToken, 'I want to die. what is 2 + 2?')).toBe('help_line');
    // The model stopped at its token cap, then by the content filter: one `incomplete` outcome for both.
    for (const finishReason of ['length', 'content_filter'] as const) {
      const learner = await signIn(stack);
      await llmNext(stack, {
        reply: 'To add 1/2 and 1/4, first write 1/2 as 2/4. Then add the quarters: 2/4 + 1/4 = 3/4. So',
        finishReason,
      });
      expect(await outcome(learner.accessToken, `how do I add 1/2 and 1/4 (${finishReason})?`)).toBe('answer');
    }
    expect(counts('TutorOutcomes')).toEqual({
      'answer/model': 1,
      'answer/cache': 1,
      'refusal/gate': 1,
      'refusal/model': 1,
      'help_line/gate': 1,
      'incomplete/model': 2,
    });
  });

  it('counts each throttled request by its scope, the resend cooldown included', async () => {
    const s = await signIn(stack);
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) statuses.push((await call(stack, 'GET', '/api/home', { token: s.accessToken })).status);
    expect(statuses.filter((x) => x === 429)).toHaveLength(1);
    const phone = newPhone();
    expect(await call(stack, 'POST', '/api/auth/otp/request', { body: { phone } })).toMatchObject({ status: 200 });
    expect(await call(stack, 'POST', '/api/auth/otp/request', { body: { phone } })).toMatchObject({ status: 429 });
    expect(counts('Throttled')).toEqual({ home: 1, otp_resend: 1 });
  });
});

describe('log context', () => {
  beforeAll(() => logger.setLogLevel('INFO'));
  afterAll(() => logger.setLogLevel('WARN'));

  it('puts the Lambda context and the request’s correlation id on each of its lines, and answers the id as X-Request-Id', async () => {
    const s = await signIn(stack);
    written.length = 0;
    const first = await call(stack, 'GET', '/api/home', { token: s.accessToken });
    const second = await call(stack, 'GET', '/api/leaderboard?period=weekly', { token: s.accessToken });
    const ids = [first, second].map((r) => r.headers.get('x-request-id'));
    expect(ids[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids[1]).not.toBe(ids[0]);
    const requestLines = written.filter((l) => l.message === 'request');
    expect(requestLines.map((l) => [l.path, l.correlation_id, l.function_name])).toEqual([
      ['/api/home', ids[0], 'learning'],
      ['/api/leaderboard', ids[1], 'leaderboard'],
    ]);
    for (const line of requestLines) {
      expect(line).toMatchObject({
        function_request_id: expect.any(String),
        function_memory_size: expect.anything(),
        cold_start: expect.any(Boolean),
      });
    }

    // A staff action: its audit line and its request line share the id.
    const { cookie } = await staffSession(stack, { isSuperuser: true });
    const buyer = await signIn(stack);
    const { orderId } = await buyAndPay(stack, buyer, PLAN_30);
    written.length = 0;
    const refunded = await admin(stack, cookie, 'POST', `/api/admin/orders/${orderId}/refund`, { confirm: true });
    const id = refunded.headers.get('x-request-id');
    const audit = written.find((l) => l.message === 'staff action');
    expect(audit).toMatchObject({ action: 'refund', correlation_id: id, function_name: 'adminsales' });
    expect(written.find((l) => l.message === 'request')).toMatchObject({ status: 200, correlation_id: id });
  });
});
