/**
 * The journey's routes through the local runtime (HTTP → API Gateway v2 event → the deployed handler → DynamoDB
 * Local in memory): each learner requests a code, signs in, opens the map, reads the first island's questions,
 * answers them (one wrong), completes the island, reads progress and the weekly leaderboard, then buys the 90-day
 * plan on the fake gateway and reads the subscription status. Calls are sequential, each measured with its
 * DynamoDB side (measure.ts). Each call of home and answer is followed by its replays on the bare servers (bare.ts),
 * the same-run baseline of their ratio.
 */
import { join } from 'node:path';
import { startLocalStack } from '../../../packages/local/src/stack';
import { allNodes, questionsOf, wrongAnswer } from '../../../tests/support/content';
import { assertReplayed, BARE_ROUTES, BARE_VARIANTS, type BareVariant, startBareServers } from './bare';
import { send } from './client';
import { type Interval, instrument, type Sample, summarize } from './measure';

export const BENCH_ENV = { SECRET_KEY: 'bench-secret-key-bench-secret-key-0123', LOG_LEVEL: 'WARN', DATA_DIR: join('.data', 'bench') };

/**
 * One measured call as an observer of the journey sees it: its time (`performance.now()` ms), its DynamoDB requests'
 * intervals and their union, its floor (ms).
 */
export interface ObservedCall {
  route: string;
  startMs: number;
  endMs: number;
  intervals: Interval[];
  floorMs: number;
}

/**
 * Runs the journey for `learners` learners (after one warm-up learner, not recorded) and returns each route's
 * summary; a route of {@link BARE_ROUTES} also has `bare`: the summary of its replays on each bare variant, and how
 * many of each DynamoDB refused by a condition and were left out.
 * `observe` sees every recorded call (the route profile, scripts/bench-profile.ts), not the replays.
 */
export async function benchJourney(learners: number, observe?: (call: ObservedCall) => void) {
  const stack = await startLocalStack({ port: 0, inMemory: true, env: { ...BENCH_ENV, TABLE_NAME: 'bench' } });
  const measure = instrument(stack.deps.db);
  const bare = await startBareServers(stack.deps.db, stack.deps);
  const samples = new Map<string, Sample[]>();
  const bareSamples = new Map<string, Record<BareVariant, Sample[]> & { refused: Record<BareVariant, number> }>();
  let recording = false; // after the warm-up learner
  const call = async (
    label: string,
    method: string,
    path: string,
    body?: unknown,
    token?: string,
    headers: Record<string, string> = {},
  ) => {
    const request = { headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers }, body };
    let status = 0;
    const t0 = performance.now();
    const { result, side, intervals, commands } = await measure(async () => {
      const res = await send(method, path.startsWith('http') ? path : `${stack.baseUrl}${path}`, request);
      status = res.status;
      const json = res.status === 302 ? { location: res.location } : res.json;
      if (res.status >= 400) throw new Error(`${label}: ${res.status} ${JSON.stringify(json)}`);
      return json as any;
    });
    const endMs = performance.now();
    if (recording) observe?.({ route: label, startMs: t0, endMs, intervals, floorMs: side.floorMs });
    const list = samples.get(label) ?? [];
    list.push({ ms: endMs - t0, ...side });
    samples.set(label, list);
    if (recording && BARE_ROUTES.has(label)) {
      const replays = bareSamples.get(label) ?? { requests: [], token: [], refused: { requests: 0, token: 0 } };
      bareSamples.set(label, replays);
      for (const variant of BARE_VARIANTS) {
        bare.expect({ commands, status, body: JSON.stringify(result) });
        const b0 = performance.now();
        const replay = await measure(() => send(method, `${bare.url(variant)}${path}`, request));
        const ms = performance.now() - b0;
        if (assertReplayed(label, variant, replay.result.status, replay.result.json)) replays[variant].push({ ms, ...replay.side });
        else replays.refused[variant] += 1;
      }
    }
    return result;
  };
  const node = allNodes()[0]!;
  const questions = questionsOf(node);
  try {
    // Warm-up: one learner, not recorded (first loads of the content cache, JIT).
    for (let learner = -1; learner < learners; learner++) {
      const phone = `0935${String(10_000_000 + learner + 1).slice(1)}`;
      await call('POST /api/auth/otp/request', 'POST', '/api/auth/otp/request', { phone });
      const otp = stack.smsOutbox.filter((m) => m.phone === phone).at(-1)!.token;
      const token = (await call('POST /api/auth/login', 'POST', '/api/auth/login', { phone, otp })).accessToken as string;
      await call('GET /api/home', 'GET', '/api/home', undefined, token);
      await call('GET /api/nodes/{id}/questions', 'GET', `/api/nodes/${node.id}/questions`);
      for (const [i, q] of questions.entries()) {
        const answer = i === 0 ? wrongAnswer(q) : q.answer;
        await call('POST /api/questions/{id}/answer', 'POST', `/api/questions/${q.id}/answer`, { answer }, token);
      }
      await call('POST /api/nodes/{id}/quiz/complete', 'POST', `/api/nodes/${node.id}/quiz/complete`, undefined, token);
      await call('GET /api/progress/nodes', 'GET', '/api/progress/nodes', undefined, token);
      await call('GET /api/leaderboard', 'GET', '/api/leaderboard?period=weekly', undefined, token);
      // The 90-day plan through the fake gateway (the gateway's own HTTP is not DynamoDB).
      const bought = await call(
        'POST /api/subscription/purchase',
        'POST',
        '/api/subscription/purchase',
        { planId: 2, paymentMethod: 'gateway' },
        token,
        {
          'idempotency-key': `bench-learner-${learner}`,
        },
      );
      const startPay = (await call('GET /api/payment/orders/{id}/pay', 'GET', bought.paymentUrl)).location as string;
      const pressed = await fetch(startPay, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'action=pay',
        redirect: 'manual',
      });
      await call('GET /api/payment/gateway/callback', 'GET', pressed.headers.get('location') as string);
      await call('GET /api/subscription/status', 'GET', '/api/subscription/status', undefined, token);
      if (learner === -1) {
        samples.clear();
        recording = true;
      }
    }
  } finally {
    await bare.close();
    await stack.close();
  }
  return [...samples.entries()].map(([route, list]) => {
    const replays = bareSamples.get(route);
    return {
      route,
      ...summarize(list),
      ...(replays ? { bare: { requests: summarize(replays.requests), token: summarize(replays.token), refused: replays.refused } } : {}),
    };
  });
}
