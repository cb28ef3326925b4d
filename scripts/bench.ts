/**
 * `npm run bench`: measures the service and writes `docs/performance.md` (a benchmark, not a test).
 *
 * 1. The journey's routes through the local runtime (HTTP → API Gateway v2 event → the deployed handler →
 *    DynamoDB Local, in memory): for each route, DynamoDB requests per call (counted by the client's pool
 *    middleware; calls are sequential so each count belongs to one call) and p50/p99 latency in ms.
 * 2. Per Lambda (endpoint group): bundle size as esbuild builds it for Lambda (ESM, node22, minified,
 *    AWS SDK v3 external as the runtime provides it), and cold-start import time (median of fresh Node
 *    processes importing the bundle).
 *
 * Options (env): BENCH_LEARNERS (default 40): learners walking the journey; BENCH_IMPORT_RUNS (default 7).
 * Absolute latencies are DynamoDB Local on this machine, not AWS: compare runs, not environments.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { logger } from '@mathisland/core';
import { build } from 'esbuild';
import { endpointGroups } from '../infra/routes';
import { startLocalStack } from '../packages/local/src/stack';
import { allNodes, questionsOf, wrongAnswer } from '../tests/support/content';

const LEARNERS = Number(process.env.BENCH_LEARNERS ?? 40);
const IMPORT_RUNS = Number(process.env.BENCH_IMPORT_RUNS ?? 7);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};
const median = (values: number[]) => percentile(values, 50);

interface Sample {
  ms: number;
  dynamo: number;
}

async function benchJourney() {
  const stack = await startLocalStack({
    port: 0,
    inMemory: true,
    env: { TABLE_NAME: 'bench', DATA_DIR: join('.data', 'bench'), SECRET_KEY: 'bench-secret-key-bench-secret-key-0123', LOG_LEVEL: 'WARN' },
  });
  const samples = new Map<string, Sample[]>();
  const counter = stack.deps.db.requests;
  const call = async (label: string, method: string, path: string, body?: unknown, token?: string) => {
    const before = counter.total;
    const t0 = performance.now();
    const res = await fetch(`${stack.baseUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = res.status === 204 ? undefined : await res.json();
    const ms = performance.now() - t0;
    if (res.status >= 400) throw new Error(`${label}: ${res.status} ${JSON.stringify(json)}`);
    const list = samples.get(label) ?? [];
    list.push({ ms, dynamo: counter.total - before });
    samples.set(label, list);
    return json as any;
  };
  const [node] = allNodes();
  const questions = questionsOf(node!);
  try {
    // Warm-up: one learner, not recorded (first loads of the content cache, JIT).
    for (let learner = -1; learner < LEARNERS; learner++) {
      const phone = `0935${String(10_000_000 + learner + 1).slice(1)}`;
      await call('POST /api/auth/otp/request', 'POST', '/api/auth/otp/request', { phone });
      const outbox = stack.smsOutbox.filter((m) => m.phone === phone);
      const login = await call('POST /api/auth/login', 'POST', '/api/auth/login', { phone, otp: outbox.at(-1)!.token });
      const token = login.accessToken as string;
      await call('GET /api/home', 'GET', '/api/home', undefined, token);
      await call('GET /api/nodes/{id}/questions', 'GET', `/api/nodes/${node!.id}/questions`);
      for (const [i, q] of questions.entries()) {
        await call(
          'POST /api/questions/{id}/answer',
          'POST',
          `/api/questions/${q.id}/answer`,
          { answer: i === 0 ? wrongAnswer(q) : q.answer },
          token,
        );
      }
      await call('POST /api/nodes/{id}/quiz/complete', 'POST', `/api/nodes/${node!.id}/quiz/complete`, undefined, token);
      await call('GET /api/progress/nodes', 'GET', '/api/progress/nodes', undefined, token);
      if (learner === -1) samples.clear();
    }
  } finally {
    await stack.close();
  }
  return [...samples.entries()].map(([route, list]) => ({
    route,
    calls: list.length,
    dynamo: median(list.map((s) => s.dynamo)),
    dynamoMax: Math.max(...list.map((s) => s.dynamo)),
    p50: percentile(
      list.map((s) => s.ms),
      50,
    ),
    p99: percentile(
      list.map((s) => s.ms),
      99,
    ),
  }));
}

async function benchBundles() {
  const outDir = join('.data', 'bench-bundles');
  mkdirSync(outDir, { recursive: true });
  const rows = [];
  for (const group of endpointGroups) {
    const outfile = join(outDir, `${group}.mjs`);
    await build({
      entryPoints: [join('packages/functions/src/groups', `${group}.ts`)],
      bundle: true,
      minify: true,
      platform: 'node',
      target: 'node22',
      format: 'esm',
      outfile,
      external: ['@aws-sdk/*', '@smithy/*'],
      banner: { js: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);" },
      logLevel: 'silent',
    });
    const times: number[] = [];
    for (let i = 0; i < IMPORT_RUNS; i++) {
      const out = execFileSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const t=performance.now(); await import(${JSON.stringify(`./${outfile}`)}); console.log(performance.now()-t);`,
        ],
        { encoding: 'utf8', env: { ...process.env, LOG_LEVEL: 'WARN' } },
      );
      times.push(Number(out.trim().split('\n').at(-1)));
    }
    rows.push({ group, bytes: statSync(outfile).size, importMs: median(times) });
  }
  return rows;
}

logger.setLogLevel('WARN');
const journey = await benchJourney();
const bundles = await benchBundles();
const fmt = (n: number) => n.toFixed(1);
const now = new Date().toISOString().slice(0, 10);
const md = `# Performance

Made by \`npm run bench\` (scripts/bench.ts) on ${now}: ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB,
Node ${process.version}, DynamoDB Local in memory. Re-run it after any change to a route, a query or a dependency,
and replace this file with what it writes.

## The journey's routes through the local runtime

${LEARNERS} learners each: request a code, sign in, open the map, read the first island's questions, answer them
(one wrong), complete the island, read progress. Calls are sequential; "DynamoDB requests" is the number of
requests the worker's client sent for one call (median, and the largest seen). Latency is end to end over HTTP on
loopback, with DynamoDB Local, so it is higher than DynamoDB in AWS; compare runs, not environments.

| route | calls | DynamoDB requests (median / max) | p50 ms | p99 ms |
|---|---:|---:|---:|---:|
${journey.map((r) => `| \`${r.route}\` | ${r.calls} | ${r.dynamo} / ${r.dynamoMax} | ${fmt(r.p50)} | ${fmt(r.p99)} |`).join('\n')}

What the counts are:
- \`POST /api/auth/otp/request\`: throttle counter, read of the previous code (resend cooldown), write of the new hashed code.
- \`POST /api/auth/login\`: throttle, read + consume the code, phone lookup (+ user create transaction and the \`user\` counter for a new user), session transaction.
- authenticated routes: one GetItem for the session check (it also loads the user), plus the throttle counter where the route has a scope.
- \`POST /api/questions/{id}/answer\`: session, throttle, previous node's progress and the node's own (lock rule), one TransactWriteItems (answer + hearts).
- \`POST /api/nodes/{id}/quiz/complete\`: session, throttle, the lock rule (as for answers), the node's answers (one Query), lesson completions (one BatchGetItem), one TransactWriteItems (progress + XP + daily activity), and the streak's conditional UpdateItem.
- question bank routes: only the throttle counter; the curriculum itself is served from the worker's content cache (no DynamoDB request once loaded).

## Lambda bundles and cold-start import time

esbuild, ESM, node22, minified, AWS SDK v3 external (provided by the Lambda runtime). Import time is the median of
${IMPORT_RUNS} fresh \`node\` processes importing the bundle (module evaluation only; Lambda's own init is not included).

| endpoint group (Lambda) | bundle KiB | import ms (median) |
|---|---:|---:|
${bundles.map((b) => `| ${b.group} | ${fmt(b.bytes / 1024)} | ${fmt(b.importMs)} |`).join('\n')}
`;
writeFileSync('docs/performance.md', md);
console.log(md);
process.exit(0);
