/**
 * Load on the hot routes (issue 15 item 4): autocannon against the local runtime on loopback (127.0.0.1 only),
 * 50 connections, each run bounded in requests and in seconds. Each route gets a fresh worker process
 * (loadWorker.ts), so that the worker's peak RSS belongs to that route's load; it runs with the bench-only
 * BENCH_THROTTLE_LIMIT (production refuses it). Reports requests/s, latency p50/p99, errors (socket errors,
 * timeouts and non-2xx answers) and the worker's peak RSS. Errors: a run with more than 1 % failed calls stops the
 * bench (its figures would be the failure's).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { allNodes, questionsOf } from '../../../tests/support/content';

/** The share of failed calls a load run may have (timeouts under 50 connections on two cores) before the bench stops. */
const MAX_FAILED_SHARE = 0.01;

export interface LoadRun {
  route: string;
  /** The endpoint group (Lambda) serving it. */
  group: string;
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** Peak RSS of the worker process over its whole life (start, sign-in, the run), MiB. */
  peakRssMiB: number;
}

interface Worker {
  child: ChildProcess;
  baseUrl: string;
  ask<T>(message: string): Promise<T>;
}

async function startWorker(): Promise<Worker> {
  const child = fork(new URL('./loadWorker.ts', import.meta.url).pathname, [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const first = await new Promise<{ baseUrl: string }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { baseUrl: string }));
    child.once('exit', (code) => reject(new Error(`load worker exited with ${code}`)));
  });
  const ask = <T>(message: string) =>
    new Promise<T>((resolve) => {
      child.once('message', (m) => resolve(m as T));
      child.send(message);
    });
  return { child, baseUrl: first.baseUrl, ask };
}

async function signIn(worker: Worker, phone: string): Promise<string> {
  await fetch(`${worker.baseUrl}/api/auth/otp/request`, { method: 'POST', body: JSON.stringify({ phone }) });
  const { outbox } = await worker.ask<{ outbox: { phone: string; token: string }[] }>('outbox');
  const otp = outbox.filter((m) => m.phone === phone).at(-1)?.token;
  const res = await fetch(`${worker.baseUrl}/api/auth/login`, { method: 'POST', body: JSON.stringify({ phone, otp }) });
  return ((await res.json()) as { accessToken: string }).accessToken;
}

interface Target {
  route: string;
  group: string;
  /** Prepares a learner and returns the request autocannon repeats (the same for every learner). */
  prepare(worker: Worker, token: string): Promise<autocannon.Request>;
  /** Each request carries a new Idempotency-Key. */
  newKeyEachTime?: boolean;
}

const node = allNodes()[0]!;
const questions = questionsOf(node);
const json = { 'content-type': 'application/json' };

async function answerAll(worker: Worker, token: string) {
  for (const q of questions) {
    await fetch(`${worker.baseUrl}/api/questions/${q.id}/answer`, {
      method: 'POST',
      headers: { ...json, authorization: `Bearer ${token}` },
      body: JSON.stringify({ answer: q.answer }),
    });
  }
}

export const loadTargets: Target[] = [
  { route: 'GET /api/home', group: 'learning', prepare: async () => ({ method: 'GET', path: '/api/home' }) },
  {
    route: 'POST /api/questions/{id}/answer',
    group: 'learning',
    prepare: async () => ({
      method: 'POST',
      path: `/api/questions/${questions[1]!.id}/answer`,
      headers: json,
      body: JSON.stringify({ answer: questions[1]!.answer }),
    }),
  },
  {
    // Completed once, then every call is a repeat: it re-reads and grants nothing (no XP twice).
    route: 'POST /api/nodes/{id}/quiz/complete',
    group: 'learning',
    prepare: async (worker, token) => {
      await answerAll(worker, token);
      return { method: 'POST', path: `/api/nodes/${node.id}/quiz/complete`, headers: json, body: '{}' };
    },
  },
  {
    route: 'GET /api/leaderboard',
    group: 'leaderboard',
    prepare: async (worker, token) => {
      await answerAll(worker, token);
      await fetch(`${worker.baseUrl}/api/nodes/${node.id}/quiz/complete`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
      return { method: 'GET', path: '/api/leaderboard?period=weekly' };
    },
  },
  {
    // A new Idempotency-Key on every request: each one creates an order.
    route: 'POST /api/subscription/purchase',
    group: 'billing',
    prepare: async () => ({
      method: 'POST',
      path: '/api/subscription/purchase',
      headers: json,
      body: JSON.stringify({ planId: 2, paymentMethod: 'gateway' }),
    }),
    newKeyEachTime: true,
  },
];

/**
 * Runs each target in its own worker: `connections` connections, at most `amount` requests and `seconds` seconds,
 * the requests signed by `learners` learners in turn.
 */
export async function benchLoad(options: { connections: number; amount: number; seconds: number; learners: number }): Promise<LoadRun[]> {
  const runs: LoadRun[] = [];
  for (const [i, target] of loadTargets.entries()) {
    const worker = await startWorker();
    try {
      // Several learners, taken in turn: one learner's calls to a route that writes are serialized by design (each
      // XP grant is conditional on the XP it read), which is not what 50 connections of a school look like.
      const tokens: string[] = [];
      let request: autocannon.Request | undefined;
      for (let l = 0; l < options.learners; l++) {
        const token = await signIn(worker, `0936${String(i * 1000 + l).padStart(7, '0')}`);
        request = await target.prepare(worker, token);
        tokens.push(token);
      }
      let turn = 0;
      const setupRequest = (req: autocannon.Request) => ({
        ...req,
        headers: {
          ...req.headers,
          authorization: `Bearer ${tokens[turn++ % tokens.length]}`,
          ...(target.newKeyEachTime ? { 'idempotency-key': randomUUID() } : {}),
        },
      });
      const started = performance.now();
      const result = await new Promise<autocannon.Result>((resolve, reject) => {
        const instance = autocannon(
          {
            url: worker.baseUrl,
            connections: options.connections,
            amount: options.amount,
            timeout: 30,
            requests: [{ ...request, setupRequest }],
          },
          (error, done) => {
            clearTimeout(stop);
            if (error) reject(error);
            else resolve(done);
          },
        );
        // Bounded in time too: autocannon's `amount` overrides its `duration`.
        const stop = setTimeout(() => instance.stop(), options.seconds * 1000);
      });
      const seconds = (performance.now() - started) / 1000;
      // A run whose answers failed measured the failure, not the route: stop the bench rather than print it.
      const failed = result.errors + result.timeouts + result.non2xx;
      if (failed > result.requests.total * MAX_FAILED_SHARE) {
        throw new Error(`load on ${target.route}: ${failed} of ${result.requests.total} calls failed (non-2xx, socket errors, timeouts)`);
      }
      const { maxRssKiB } = await worker.ask<{ maxRssKiB: number }>('rss');
      runs.push({
        route: target.route,
        group: target.group,
        requests: result.requests.total,
        seconds,
        rps: result.requests.total / seconds,
        p50: result.latency.p50,
        p99: result.latency.p99,
        errors: result.errors + result.timeouts + result.non2xx,
        peakRssMiB: maxRssKiB / 1024,
      });
    } finally {
      worker.child.send('stop');
      await new Promise((resolve) => worker.child.once('exit', resolve));
    }
  }
  return runs;
}
