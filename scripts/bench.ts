/**
 * `npm run bench`: measures the service and writes `docs/performance.md` (a benchmark, not a test; the CI tests of
 * the same figures are tests/requests.test.ts and tests/budgets.test.ts). In one run:
 * 1. the journey's routes through the local runtime: DynamoDB requests and capacity units per call, p50/p99, and
 *    the floor of each call's own DynamoDB requests, for the same-run ratio (scripts/lib/bench/journey.ts), with
 *    home's bare baselines: its requests replayed on a plain `node:http` server (bare.ts);
 * 2. leaderboard reads cold and warm at 100 and 100,000 learners (boards.ts);
 * 3. the tutor's pipeline overhead (tutor.ts);
 * 4. autocannon load on the hot routes, 50 connections, bounded, loopback, with the worker's peak RSS (load.ts);
 * 5. each Lambda's bundle (top 10 inputs from esbuild's metafile), its cold import, and what the Secrets Manager
 *    client's load adds to a worker's first request (imports.ts);
 * then memory per Lambda and the cost of 1,000 learner-days (cost.ts), all printed and written (report.ts), led by
 * charts of the ratios, the latencies and the cold imports that it draws itself (charts.ts, SVG next to the report).
 * The machine's load average is sampled every 5 s throughout and reported with the figures.
 * The business metrics stay on (packages/core/src/metrics.ts): their EMF lines are part of a request's work in AWS.
 *
 * Options (env): BENCH_LEARNERS (default 40); BENCH_BOARD_SIZES (default 100,100000); BENCH_BOARD_READS (20);
 * BENCH_IMPORT_RUNS (21); BENCH_TUTOR_ASKS (40); BENCH_TUTOR_FIRST_TOKEN_MS (200); BENCH_LOAD_CONNECTIONS (50);
 * BENCH_LOAD_AMOUNT (3000 requests per route); BENCH_LOAD_SECONDS (15 per route); BENCH_LOAD_LEARNERS (10); BENCH_OUT (docs/performance.md);
 * BENCH_FROM (a results file of an earlier run, `.data/bench-results.json`: write its report and charts again, measure
 * nothing).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { logger } from '@mathisland/core';
import { benchLeaderboard } from './lib/bench/boards';
import { writeCharts } from './lib/bench/charts';
import { benchBundles, benchSecretsClientLoad } from './lib/bench/imports';
import { benchJourney } from './lib/bench/journey';
import { benchLoad } from './lib/bench/load';
import { type BenchResults, renderReport } from './lib/bench/report';
import { benchTutor } from './lib/bench/tutor';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const options: BenchResults['options'] = {
  learners: env('BENCH_LEARNERS', 40),
  boardSizes: (process.env.BENCH_BOARD_SIZES ?? '100,100000').split(',').map(Number),
  boardReads: env('BENCH_BOARD_READS', 20),
  importRuns: env('BENCH_IMPORT_RUNS', 21),
  load: {
    connections: env('BENCH_LOAD_CONNECTIONS', 50),
    amount: env('BENCH_LOAD_AMOUNT', 3000),
    seconds: env('BENCH_LOAD_SECONDS', 15),
    learners: env('BENCH_LOAD_LEARNERS', 10),
  },
};
const tutorFirstTokenMs = env('BENCH_TUTOR_FIRST_TOKEN_MS', 200);
/** Every figure of the last run, for BENCH_FROM. */
const RESULTS_FILE = '.data/bench-results.json';

logger.setLogLevel('WARN');
const machine = { cores: cpus().length, samples: [loadavg()[0] as number] };
const sampling = setInterval(() => machine.samples.push(loadavg()[0] as number), 5_000);
const step = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
  const t0 = performance.now();
  console.error(`bench: ${name}...`);
  const result = await run();
  console.error(`bench: ${name} done in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  return result;
};
const measure = async (): Promise<BenchResults> => ({
  options,
  tutorFirstTokenMs,
  bundles: await step('bundles and cold import', () => benchBundles(options.importRuns)),
  secretsClientMs: benchSecretsClientLoad(options.importRuns),
  journey: await step('journey', () => benchJourney(options.learners)),
  boards: await step('leaderboards', () => benchLeaderboard(options.boardSizes, options.boardReads)),
  tutor: await step('tutor', () => benchTutor(env('BENCH_TUTOR_ASKS', 40), tutorFirstTokenMs)),
  load: await step('load', () => benchLoad(options.load)),
  machine,
});
// BENCH_FROM: the report and charts of a run already measured (its results file), e.g. after a change to their text.
const results: BenchResults = process.env.BENCH_FROM ? JSON.parse(readFileSync(process.env.BENCH_FROM, 'utf8')) : await measure();
clearInterval(sampling);
mkdirSync('.data', { recursive: true });
writeFileSync(RESULTS_FILE, JSON.stringify(results));
const out = process.env.BENCH_OUT ?? 'docs/performance.md';
const md = renderReport(results, await writeCharts(results, out));
writeFileSync(out, md);
console.log(md);
process.exit(0);
