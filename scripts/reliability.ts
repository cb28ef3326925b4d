/**
 * `npm run reliability`: the reliability run of issue 13, and docs/reliability.md written from it.
 *
 * Runs, against local stacks on DynamoDB Local: the route fuzz with 10,000 requests (tests/fuzz.test.ts), the race
 * property with 50 runs (tests/raceFuzz.test.ts), the database faults (stopped and restarted, stalled, throttled,
 * failing, garbage: tests/dbFaults.test.ts), the provider faults (sms, gateway, model: tests/providerFaults.test.ts,
 * tests/modelFaults.test.ts), malformed HTTP (tests/rawHttp.test.ts) and bad input on every route
 * (tests/robustness.test.ts). The tests write their counts into RELIABILITY_DIR (tests/support/figures.ts); this
 * script adds vitest's results and writes the figures file. A failed test fails the run and writes nothing.
 *
 * Options (environment): FUZZ_REQUESTS (10000), FC_RUNS (50, the race property), FC_SEED (fixed by default).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = join('.data', 'reliability');
const files = [
  'tests/fuzz.test.ts',
  'tests/raceFuzz.test.ts',
  'tests/dbFaults.test.ts',
  'tests/providerFaults.test.ts',
  'tests/modelFaults.test.ts',
  'tests/rawHttp.test.ts',
  'tests/robustness.test.ts',
];
const env = {
  ...process.env,
  RELIABILITY_DIR: dir,
  FUZZ_REQUESTS: process.env.FUZZ_REQUESTS ?? '10000',
  FC_RUNS: process.env.FC_RUNS ?? '50',
};

// `--report-only` writes the page again from the last run's figures (in RELIABILITY_DIR) without running it.
const reportOnly = process.argv.includes('--report-only');
let minutes = Number.NaN;
if (!reportOnly) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const started = Date.now();
  const run = spawnSync(
    'npx',
    [
      'vitest',
      'run',
      '--project',
      'api',
      ...files,
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${join(dir, 'vitest.json')}`,
    ],
    { env, stdio: 'inherit' },
  );
  minutes = (Date.now() - started) / 60_000;
  if (run.status !== 0) {
    console.error('the reliability run failed: docs/reliability.md is left as it was');
    process.exit(run.status ?? 1);
  }
  writeFileSync(join(dir, 'run.json'), `${JSON.stringify({ minutes, date: new Date().toISOString().slice(0, 10) })}\n`);
}

const read = (name: string): Record<string, any> => (existsSync(join(dir, name)) ? JSON.parse(readFileSync(join(dir, name), 'utf8')) : {});
const fuzz = read('fuzz.json');
const faults = read('faults.json');
const races = read('races.json');
const vitest = read('vitest.json');
const runInfo = read('run.json');
if (reportOnly) minutes = runInfo.minutes ?? Number.NaN;
const statuses = Object.entries<number>(fuzz.byStatus ?? {})
  .sort(([a], [b]) => Number(a) - Number(b))
  .map(([status, n]) => `${status}: ${n}`)
  .join(', ');
const fiveXX = Object.entries<number>(fuzz.byStatus ?? {})
  .filter(([s]) => Number(s) >= 500)
  .reduce((n, [, c]) => n + c, 0);
const providerFaults = (faults.smsFaults ?? 0) + (faults.gatewayFaults ?? 0) + (faults.modelFaults ?? 0);
const n = (x: number | undefined) => (x ?? 0).toLocaleString('en-US');

const doc = `# Reliability: figures from a real run

Written by \`npm run reliability\` (scripts/reliability.ts) on ${runInfo.date ?? new Date().toISOString().slice(0, 10)}, in ${minutes.toFixed(1)} minutes on
the development machine (2 shared cores), every test passing (${vitest.numPassedTests ?? '?'} tests in ${files.length} files). Run it
again to refresh this page; \`FUZZ_REQUESTS\`, \`FC_RUNS\` and \`FC_SEED\` change the run (the defaults are fixed, so a run repeats).

| what | figure |
|---|---|
| requests fuzzed over every route of \`infra/routes.ts\` (${fuzz.routes ?? '?'} routes, seed ${fuzz.seed ?? '?'}) | ${n(fuzz.requests)} random + ${n(fuzz.crossUserRequests)} cross-user sweep |
| their answers by status | ${statuses} |
| answers with a 5xx | ${n(fiveXX)} |
| answers with a body outside \`{ code, detail, fields? }\`, no \`Cache-Control: private, no-store\`, or a stack trace | 0 (each is a failed assertion, which stops the run) |
| answers holding another learner's data (phone, ticket text, tutor question, tokens, pay-link signature) | 0 (same) |
| clock hours the fuzz ran through (throttle windows reopened, tokens refreshed) | ${n(fuzz.hours)} |
| provider faults injected through the fakes (sms ${n(faults.smsFaults)}, gateway ${n(faults.gatewayFaults)}, model ${n(faults.modelFaults)}) | ${n(providerFaults)} |
| database faults (stopped and restarted, stalled, throttled, failing, refusing, garbage, slow) | ${n(faults.databaseFaults)}, with ${n(faults.requestsDuringDatabaseFaults)} requests answered 503 \`database_busy\` + Retry-After |
| malformed HTTP requests (bad request line, header, size, chunking) | ${n(faults.malformedHttpRequests)}, each a JSON 400/431 |
| races run: random mixes of one learner's requests at once (answers, completions, callbacks, re-checks) | ${n(races.raceRuns)} runs, ${n(races.concurrentRequests)} concurrent requests |
| lost: a grant doubled or missing, hearts not matching the answers, an order paid twice, a half-written transaction | nothing |

What each figure checks:
- **Fuzz** (tests/fuzz.test.ts): bodies shaped by each route's zod schema, the same bodies made wrong, hostile bodies
  (malformed JSON, deep nesting, 70 KB, prototype keys), any path id, query, method, header, cookie, and the identity
  of learner A, learner B, no one, a forged token, a staff session or the internal key. ${fiveXX === 0 ? 'No answer was a 5xx.' : `${fiveXX} answers were 5xx.`}
- **Faults** (tests/dbFaults.test.ts, tests/providerFaults.test.ts, tests/modelFaults.test.ts): every answer within
  API Gateway's 30 s (asserted per request), 503 with Retry-After while a dependency is away, the documented 4xx when
  the input is the problem (sms 411), and after DynamoDB's restart hearts equal to 5 − wrong answers and the order
  paid with its subscription and audit row exactly once.
- **Races** (tests/raceFuzz.test.ts): after each run hearts = 5 − wrong answers recorded, XP bounded and the same on
  the user and the summary, one \`payment_result\`, a subscription of exactly 30 days.

Command: \`npm run reliability\` (needs Java 17+ for DynamoDB Local, no network).
`;
writeFileSync('docs/reliability.md', doc);
console.log('docs/reliability.md written');
