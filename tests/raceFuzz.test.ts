/**
 * Races, property-based (DESIGN §5: every money and progress change is a conditional transaction, "so a retry or
 * a race can never grant twice"): a learner fires a random mix of requests at once (right and wrong answers,
 * lesson and island completions, the payment callback and the status re-check of a paid order, repeated), and
 * afterwards nothing was lost or doubled:
 * - every answer is 2xx/4xx, or 503 `database_busy` with Retry-After (never a 500);
 * - hearts = 5 − wrong answers recorded; XP never above what the island can give, and equal on the user, the
 *   overall board and the summary;
 * - the order is paid once: one `payment_result` that is not ignored, the subscription exactly 30 days.
 * `FC_RUNS` runs more (the reliability run), `FC_SEED` replays.
 */

import { fc } from '@fast-check/vitest';
import { getUser } from '@mathisland/core/auth';
import { tehranDay } from '@mathisland/core/calendar';
import { getDayActivity } from '@mathisland/core/progress';
import { getOrder, listOrderEvents } from '@mathisland/core/subscriptions';
import { describe, expect, it } from 'vitest';
import { allNodes, nodeXp, questionsOf, wrongAnswer } from './support/content';
import { addFigures } from './support/figures';
import { DAY_MS, fetchManual, openPayLink, PLAN_30, pressOnGateway, purchase } from './support/payments';
import { call, signIn, useStack } from './support/stack';

const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : 20261123;
const RUNS = Number(process.env.FC_RUNS ?? 6);
const node = allNodes()[0]!;
const questions = questionsOf(node);
const lessons = node.lessons.filter((l) => l.questions.length > 0);

type Op =
  | { kind: 'answer'; question: number; right: boolean }
  | { kind: 'lesson'; lesson: number }
  | { kind: 'quiz' }
  | { kind: 'callback' }
  | { kind: 'status' };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('answer' as const), question: fc.nat({ max: questions.length - 1 }), right: fc.boolean() }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('lesson' as const), lesson: fc.nat({ max: lessons.length - 1 }) }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'quiz' as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'callback' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'status' as const }) },
);

describe('races of one learner’s requests', () => {
  const stack = useStack();

  it('lose and double nothing, whatever runs at once', { timeout: 60_000 + RUNS * 20_000 }, async () => {
    let requests = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 4, maxLength: 14 }), async (ops) => {
        const learner = await signIn(stack);
        const token = learner.accessToken;
        const bought = await purchase(stack, learner, { planId: PLAN_30, paymentMethod: 'gateway' });
        const callbackUrl = await pressOnGateway(await openPayLink(bought.body.paymentUrl), 'pay');
        const send = (o: Op) => {
          if (o.kind === 'answer') {
            const q = questions[o.question]!;
            return call(stack, 'POST', `/api/questions/${q.id}/answer`, { token, body: { answer: o.right ? q.answer : wrongAnswer(q) } });
          }
          if (o.kind === 'lesson') return call(stack, 'POST', `/api/lessons/${lessons[o.lesson]!.id}/complete`, { token });
          if (o.kind === 'quiz') return call(stack, 'POST', `/api/nodes/${node.id}/quiz/complete`, { token });
          if (o.kind === 'status') return call(stack, 'GET', '/api/subscription/status', { token });
          return fetchManual(callbackUrl).then(async (r) => ({ status: r.status, headers: r.headers, body: await r.text(), text: '' }));
        };
        const answers = await Promise.all(ops.map(send));
        requests += ops.length;
        for (const res of answers) {
          expect(res.status < 500 || res.status === 503, `${res.status} ${JSON.stringify(res.body)}`).toBe(true);
          if (res.status === 503) expect(res.headers.get('retry-after')).toBeTruthy();
        }

        const user = (await getUser(stack.deps.db, learner.userId))!;
        const day = await getDayActivity(stack.deps.db, learner.userId, tehranDay(stack.clock.now()));
        expect(user.hearts).toBe(5 - ((day?.answered ?? 0) - (day?.correct ?? 0)));
        expect(user.xp ?? 0).toBeLessThanOrEqual(nodeXp(node, questions.length));
        const summary = await call(stack, 'GET', '/api/user/summary', { token });
        expect(summary.body.xp).toBe(user.xp ?? 0);

        const paid = (await listOrderEvents(stack.deps, bought.body.orderId)).filter((e) => e.kind === 'payment_result' && !e.ignored);
        const order = await getOrder(stack.deps, bought.body.orderId);
        const landedPaid = answers.some((r, i) => ops[i]?.kind === 'callback' && (r.headers.get('location') ?? '').includes('status=paid'));
        if (order.status === 'paid') {
          expect(paid).toHaveLength(1);
          expect(user.subscription?.expiresAt).toBe(stack.clock.now() + 30 * DAY_MS);
        } else {
          expect(landedPaid).toBe(false);
          expect(paid).toHaveLength(0);
          expect(user.subscription).toBeUndefined();
        }
      }),
      { seed, numRuns: RUNS },
    );
    addFigures('races', { raceRuns: RUNS, concurrentRequests: requests });
  });
});
