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
 * 3. Leaderboard reads at 100 and at 100,000 learners on the board (BENCH_BOARD_SIZES): DynamoDB requests and
 *    latency of a read with a cold cache (the clock moved past the 60 s cache before each read) and a warm one.
 *
 * 4. The tutor's pipeline overhead: `POST /api/ai/ask` through the streaming shim with the fake model set to a
 *    known first-token delay; the time from the request to the first streamed byte of the answer minus that
 *    delay is what the pipeline itself costs (auth, throttle, quota transaction, conversation and cache reads,
 *    the question's embedding and retrieval, prompt, the SDK, the plain-text cleaner, the stream).
 *
 * Options (env): BENCH_LEARNERS (default 40): learners walking the journey; BENCH_IMPORT_RUNS (default 7);
 * BENCH_BOARD_SIZES (default 100,100000); BENCH_BOARD_READS (default 20);
 * BENCH_TUTOR_ASKS (default 40): tutor questions measured; BENCH_TUTOR_FIRST_TOKEN_MS (default 200).
 * Absolute latencies are DynamoDB Local on this machine, not AWS: compare runs, not environments.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { logger, ManualClock } from '@mathisland/core';
import { userKey } from '@mathisland/core/auth';
import { type Db, putAll } from '@mathisland/core/db';
import { bulkLoadBoard, OVERALL_BOARD, weeklyBoard } from '@mathisland/core/leaderboard';
import { build } from 'esbuild';
import { endpointGroups } from '../infra/routes';
import { startLocalStack } from '../packages/local/src/stack';
import { allNodes, questionsOf, wrongAnswer } from '../tests/support/content';

const LEARNERS = Number(process.env.BENCH_LEARNERS ?? 40);
const BOARD_SIZES = (process.env.BENCH_BOARD_SIZES ?? '100,100000').split(',').map(Number);
const BOARD_READS = Number(process.env.BENCH_BOARD_READS ?? 20);
const IMPORT_RUNS = Number(process.env.BENCH_IMPORT_RUNS ?? 7);
const TUTOR_ASKS = Number(process.env.BENCH_TUTOR_ASKS ?? 40);
const TUTOR_FIRST_TOKEN_MS = Number(process.env.BENCH_TUTOR_FIRST_TOKEN_MS ?? 200);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};
const median = (values: number[]) => percentile(values, 50);

interface Sample {
  ms: number;
  dynamo: number;
}

/** DynamoDB requests (median and largest) and latency (p50, p99, ms) of a list of calls. */
const summary = (list: Sample[]) => ({
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
});

async function benchJourney() {
  const stack = await startLocalStack({
    port: 0,
    inMemory: true,
    env: { TABLE_NAME: 'bench', DATA_DIR: join('.data', 'bench'), SECRET_KEY: 'bench-secret-key-bench-secret-key-0123', LOG_LEVEL: 'WARN' },
  });
  const samples = new Map<string, Sample[]>();
  const counter = stack.deps.db.requests;
  const call = async (
    label: string,
    method: string,
    path: string,
    body?: unknown,
    token?: string,
    headers: Record<string, string> = {},
  ) => {
    const before = counter.total;
    const t0 = performance.now();
    const res = await fetch(path.startsWith('http') ? path : `${stack.baseUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'manual',
    });
    const json = res.status === 204 ? undefined : res.status === 302 ? { location: res.headers.get('location') } : await res.json();
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
      // Buying the 90-day plan through the fake gateway (its own requests are not counted: it is not DynamoDB).
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
      if (learner === -1) samples.clear();
    }
  } finally {
    await stack.close();
  }
  return [...samples.entries()].map(([route, list]) => ({ route, calls: list.length, ...summary(list) }));
}

/**
 * Puts `count` learners on the overall board and the current week's board as the XP grants would leave them
 * (entries in gsi1 and the XP histogram), with BatchWriteItem for speed. XP is skewed towards small values
 * (5 × ⌊2000·r²⌋), as on a real board: about 2,000 distinct values, many ties at the bottom. Users exist only
 * for the top of the board (the read fetches names for the top 100 only).
 */
async function seedBoards(db: Db, count: number, nowMs: number) {
  const learners = Array.from({ length: count }, (_, i) => ({
    userId: 1_000_000 + i,
    xp: 5 * Math.floor(2000 * Math.random() ** 2) + 5,
    reachedAt: nowMs - i * 1000,
  }));
  const top = [...learners].sort((a, b) => b.xp - a.xp).slice(0, 200);
  await putAll(
    db,
    top.map((u) => ({
      ...userKey(u.userId),
      id: u.userId,
      publicId: `User${String(u.userId).slice(-6)}`,
      phone: `0900${u.userId}`,
      createdAt: new Date(nowMs).toISOString(),
      xp: u.xp,
      stars: 0,
      hearts: 5,
      heartsUpdatedAt: 0,
    })),
  );
  for (const board of [OVERALL_BOARD, weeklyBoard(nowMs)]) await bulkLoadBoard(db, board, learners);
}

async function benchLeaderboard() {
  const rows = [];
  for (const size of BOARD_SIZES) {
    const clock = new ManualClock(Date.UTC(2026, 10, 18, 8, 30));
    const stack = await startLocalStack({
      port: 0,
      inMemory: true,
      clock,
      env: {
        TABLE_NAME: `bench-board-${size}`,
        DATA_DIR: join('.data', 'bench'),
        SECRET_KEY: 'bench-secret-key-bench-secret-key-0123',
        LOG_LEVEL: 'WARN',
      },
    });
    try {
      const seedStart = performance.now();
      await seedBoards(stack.deps.db, size, clock.now() - 3600_000);
      const seedSeconds = (performance.now() - seedStart) / 1000;
      // The reader: a real learner who completes the first island (XP 65: far down a large board, among ties).
      const phone = '09350000001';
      await fetch(`${stack.baseUrl}/api/auth/otp/request`, { method: 'POST', body: JSON.stringify({ phone }) });
      const otp = stack.smsOutbox.at(-1)!.token;
      const login = (await (
        await fetch(`${stack.baseUrl}/api/auth/login`, { method: 'POST', body: JSON.stringify({ phone, otp }) })
      ).json()) as {
        accessToken: string;
      };
      const auth = { authorization: `Bearer ${login.accessToken}` };
      const [node] = allNodes();
      for (const q of questionsOf(node!)) {
        await fetch(`${stack.baseUrl}/api/questions/${q.id}/answer`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({ answer: q.answer }),
        });
      }
      await fetch(`${stack.baseUrl}/api/nodes/${node!.id}/quiz/complete`, { method: 'POST', headers: auth });
      for (const period of ['weekly', 'overall'] as const) {
        const cold: Sample[] = [];
        const warm: Sample[] = [];
        let rank = 0;
        for (let i = 0; i < BOARD_READS + 1; i++) {
          clock.advance(61); // past the 60 s cache: a cold read
          for (const list of [cold, warm]) {
            const before = stack.deps.db.requests.total;
            const t0 = performance.now();
            const res = await fetch(`${stack.baseUrl}/api/leaderboard?period=${period}`, { headers: auth });
            const body = (await res.json()) as { me: { rank: number } };
            if (res.status !== 200) throw new Error(`leaderboard: ${res.status} ${JSON.stringify(body)}`);
            rank = body.me.rank;
            if (i > 0) list.push({ ms: performance.now() - t0, dynamo: stack.deps.db.requests.total - before });
          }
        }
        rows.push({ size, period, rank, seedSeconds, cold: summary(cold), warm: summary(warm) });
      }
    } finally {
      await stack.close();
    }
  }
  return rows;
}

async function benchTutor() {
  const stack = await startLocalStack({
    port: 0,
    inMemory: true,
    env: {
      TABLE_NAME: 'bench-tutor',
      DATA_DIR: join('.data', 'bench'),
      SECRET_KEY: 'bench-secret-key-bench-secret-key-0123',
      LOG_LEVEL: 'WARN',
      // One learner asks every question: a quota that never runs out. The fake model of the stack answers.
      AI_DAILY_QUOTA_FREE: '100000',
      OPENAI_API_KEY: undefined,
      OPENAI_BASE_URL: undefined,
    },
  });
  stack.llm.config.firstTokenDelayMs = TUTOR_FIRST_TOKEN_MS;
  stack.llm.config.chunkDelayMs = 2;
  const counter = stack.deps.db.requests;
  const samples: { firstByte: number; total: number; dynamo: number }[] = [];
  try {
    const phone = '09350000999';
    await fetch(`${stack.baseUrl}/api/auth/otp/request`, { method: 'POST', body: JSON.stringify({ phone }) });
    const otp = stack.smsOutbox.filter((m) => m.phone === phone).at(-1)?.token;
    const login = (await (
      await fetch(`${stack.baseUrl}/api/auth/login`, { method: 'POST', body: JSON.stringify({ phone, otp }) })
    ).json()) as {
      accessToken: string;
    };
    for (let i = -3; i < TUTOR_ASKS; i++) {
      const before = counter.total;
      const t0 = performance.now();
      const res = await fetch(`${stack.baseUrl}/api/ai/ask`, {
        method: 'POST',
        headers: { authorization: `Bearer ${login.accessToken}` },
        // A new question each time: no cache hits.
        body: JSON.stringify({ userQuestion: `how do I add ${i + 4}/7 and 1/14?` }),
      });
      if (res.status !== 200) throw new Error(`POST /api/ai/ask: ${res.status} ${await res.text()}`);
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      let firstByte = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (!firstByte && value.length) firstByte = performance.now() - t0;
      }
      const total = performance.now() - t0;
      // Warm-up asks (JIT, first loads of the content and textbook caches) are not recorded.
      if (i >= 0) samples.push({ firstByte, total, dynamo: counter.total - before });
    }
  } finally {
    await stack.close();
  }
  const overhead = samples.map((s) => s.firstByte - TUTOR_FIRST_TOKEN_MS);
  return {
    asks: samples.length,
    overheadP50: percentile(overhead, 50),
    overheadP99: percentile(overhead, 99),
    firstByteP50: percentile(
      samples.map((s) => s.firstByte),
      50,
    ),
    totalP50: percentile(
      samples.map((s) => s.total),
      50,
    ),
    dynamo: median(samples.map((s) => s.dynamo)),
    dynamoMax: Math.max(...samples.map((s) => s.dynamo)),
  };
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
          // The Lambda runtime defines `awslambda` (the streamed groups call awslambda.streamifyResponse at import).
          `globalThis.awslambda ??= { streamifyResponse: (h) => h, HttpResponseStream: { from: (s) => s } }; const t=performance.now(); await import(${JSON.stringify(`./${outfile}`)}); console.log(performance.now()-t);`,
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
const boards = await benchLeaderboard();
const tutor = await benchTutor();
const bundles = await benchBundles();
const fmt = (n: number) => n.toFixed(1);
const now = new Date().toISOString().slice(0, 10);
const md = `# Performance

Made by \`npm run bench\` (scripts/bench.ts) on ${now}: ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB,
Node ${process.version}, DynamoDB Local in memory. Re-run it after any change to a route, a query or a dependency,
and replace this file with what it writes.

## The journey's routes through the local runtime

${LEARNERS} learners each: request a code, sign in, open the map, read the first island's questions, answer them
(one wrong), complete the island, read progress, then buy the 90-day plan (purchase, pay link, Pay on the fake
gateway, callback) and read the subscription status. Calls are sequential; "DynamoDB requests" is the number of
requests the worker's client sent for one call (median, and the largest seen). Latency is end to end over HTTP on
loopback, with DynamoDB Local, so it is higher than DynamoDB in AWS; compare runs, not environments.

| route | calls | DynamoDB requests (median / max) | p50 ms | p99 ms |
|---|---:|---:|---:|---:|
${journey.map((r) => `| \`${r.route}\` | ${r.calls} | ${r.dynamo} / ${r.dynamoMax} | ${fmt(r.p50)} | ${fmt(r.p99)} |`).join('\n')}

What the counts are:
- \`POST /api/auth/otp/request\`: throttle counter, read of the previous code (resend cooldown), write of the new hashed code.
- \`POST /api/auth/login\`: throttle, read + consume the code, phone lookup (+ user create transaction and the \`user\` counter for a new user), session transaction.
- authenticated routes: one GetItem for the session check (it also loads the user), plus the throttle counter where the route has a scope.
- \`POST /api/questions/{id}/answer\`: session, throttle, the previous node's progress (lock rule; no read for the first node of a grade, as here), one TransactWriteItems (answer + hearts + daily activity).
- \`POST /api/nodes/{id}/quiz/complete\`: session, throttle, the lock rule (as for answers) and the node's own progress, read together, the node's answers (one Query), lesson completions (one BatchGetItem), the notification id counter (one UpdateItem), one TransactWriteItems (progress, XP, daily activity, both leaderboards' entries and histogram buckets, the \`island_completed\` notification), and the streak's conditional write.
- question bank routes: only the throttle counter; the curriculum itself is served from the worker's content cache (no DynamoDB request once loaded).
- \`POST /api/subscription/purchase\`: session, throttle, the Idempotency-Key read, the plan, the order id counter, one TransactWriteItems (order + key + \`order_created\` row).
- \`GET /api/payment/orders/{id}/pay\` (first visit): throttle, the order, one TransactWriteItems (authority on the order + its unique item + \`gateway_redirect\` row); plus one HTTP request to the gateway.
- \`GET /api/payment/gateway/callback\`: throttle, the authority item, the order, the \`callback_received\` row, then the grant: the user and one TransactWriteItems (order paid + subscription + \`payment_result\`); plus the gateway's verify.
- \`GET /api/subscription/status\`: session, throttle, the user's orders (one gsi1 Query); with no unpaid order at the gateway, no gateway request.

## Leaderboard reads: 100 and 100,000 learners

\`GET /api/leaderboard\` by a learner with 65 XP (far down a large board, among ties), with the board seeded as XP
grants leave it (XP skewed to small values: about 2,000 distinct values). A cold read follows a clock move past
the 60 s cache: the top 100 (one gsi1 Query, one BatchGetItem of names) and the caller's rank (one Query of the
XP histogram, one COUNT Query of the ties that reached 65 XP earlier) are read again. A warm read is the next
one, within the 60 s. Both include the session check and the throttle counter (2 requests). ${BOARD_READS} reads each.

| learners | period | caller's rank | cold: DynamoDB requests (median / max) | cold p50 ms | cold p99 ms | warm: requests | warm p50 ms |
|---:|---|---:|---:|---:|---:|---:|---:|
${boards
  .map(
    (b) =>
      `| ${b.size.toLocaleString('en-US')} | ${b.period} | ${b.rank.toLocaleString('en-US')} | ${b.cold.dynamo} / ${b.cold.dynamoMax} | ${fmt(b.cold.p50)} | ${fmt(b.cold.p99)} | ${b.warm.dynamo} | ${fmt(b.warm.p50)} |`,
  )
  .join('\n')}

The request count does not grow with the number of learners: with 100 the caller is inside the top 100 and
their rank comes from the top list (4 requests); with 100,000 the two rank Queries are added (6 requests), and
stay 6 at any size. The latency of a cold read grows with what those Queries read: the histogram (one item per
distinct XP value, here about 2,000: one page) and the entries tied at the caller's XP (counted, not returned;
an entry is about 150 bytes, so several thousand fit in one page of 1 MB). Seeding ${BOARD_SIZES.map((n) => n.toLocaleString('en-US')).join(' and ')} learners took ${boards
  .filter((b) => b.period === 'weekly')
  .map((b) => `${b.seedSeconds.toFixed(0)} s`)
  .join(' and ')}.

## The tutor's pipeline overhead

${tutor.asks} questions by one learner to \`POST /api/ai/ask\` through the local streaming shim (the same handler
the function URL runs), the fake model set to a first-token delay of ${TUTOR_FIRST_TOKEN_MS} ms. Overhead = time from
sending the request to the first byte of the streamed answer, minus that delay: what the pipeline costs before the
learner sees anything (auth, throttle, quota transaction, conversation and cache reads, the question's embedding
call and retrieval, prompt, the openai SDK's request, the plain-text cleaner, the stream). Each question is new (no
cache hit); after the third the conversation sends its last 6 messages.

| measure | value |
|---|---:|
| pipeline overhead to first byte, p50 | ${fmt(tutor.overheadP50)} ms |
| pipeline overhead to first byte, p99 | ${fmt(tutor.overheadP99)} ms |
| first byte (overhead + model delay), p50 | ${fmt(tutor.firstByteP50)} ms |
| whole answer, p50 | ${fmt(tutor.totalP50)} ms |
| DynamoDB requests per question (median / max) | ${tutor.dynamo} / ${tutor.dynamoMax} |

The DynamoDB requests of a question: session GetItem, throttle counter, quota TransactWriteItems (quota + DAY#
activity), conversation Query (gsi1), cache GetItem, the grade's textbook chunks (one Query, then from the worker's
cache for 5 minutes), and at the end one TransactWriteItems (question, answer, cache entry, usage aggregate, the
learner's token counters).

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
