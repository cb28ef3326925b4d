/**
 * `npm run capacity -- --learners 3000000`: the capacity model (issue 30; DESIGN §14; docs/capacity.md). Drives
 * samples of simulated learners through the real domain code against DynamoDB Local with a recording client (a
 * normal school day and the surge), scales the recorded requests to the number of learners given, and prints per key
 * pattern the peak write and read units a second per partition key (table and GSI) and per item, the transactions a
 * second on one item, and the monthly on-demand cost. Exits 1 when a key passes half of one of DynamoDB's limits.
 *
 * Options: `--learners N[,N...]` (default 3000000: each analysed from the same run); `--day-sample` (60),
 * `--surge-sample` (200), `--workers` (4), `--concurrency` (12): the simulation's size; `--unsharded` also analyses
 * the run as if no key were sharded (what the sharding buys; not part of the exit code); `--out <file>` writes the
 * report as docs/capacity.md is made (scripts/lib/capacity/doc.ts).
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { logger } from '@mathisland/core';
import { startDynamoLocal } from '../packages/local/src/dynamo';
import { renderDoc } from './lib/capacity/doc';
import { analyse, exitCodeOf } from './lib/capacity/model';
import { renderRun } from './lib/capacity/report';
import { simulate } from './lib/capacity/simulate';

const { values } = parseArgs({
  options: {
    learners: { type: 'string', default: '3000000' },
    'day-sample': { type: 'string', default: '60' },
    'surge-sample': { type: 'string', default: '200' },
    workers: { type: 'string', default: '4' },
    concurrency: { type: 'string', default: '12' },
    unsharded: { type: 'boolean', default: false },
    out: { type: 'string' },
  },
});
const number = (name: string, raw: string | undefined) => {
  const n = Number(String(raw).trim().replaceAll('_', ''));
  if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} must be a positive whole number, not ${raw}`);
  return n;
};
// A list is comma-separated; `_` may group digits (3_000_000).
const learners = String(values.learners)
  .split(',')
  .map((raw) => number('learners', raw));

logger.setLogLevel('WARN');
// The simulated learners' business metrics (packages/core/src/metrics.ts) would print a line per answer.
process.env.POWERTOOLS_METRICS_DISABLED = 'true';
const dynamo = await startDynamoLocal();
try {
  const sim = await simulate(dynamo.endpoint, {
    daySample: number('day-sample', values['day-sample']),
    surgeSample: number('surge-sample', values['surge-sample']),
    workers: number('workers', values.workers),
    concurrency: number('concurrency', values.concurrency),
    log: (line) => console.error(`capacity: ${line}`),
  });
  const analyses = learners.map((n) => analyse(sim, n));
  const what = values.unsharded ? [analyse(sim, Math.max(...learners), { unsharded: true })] : [];
  console.log(renderRun(sim, [...analyses, ...what]));
  if (values.out) writeFileSync(values.out, renderDoc(sim, analyses, analyse(sim, Math.max(...learners), { unsharded: true })));
  process.exitCode = exitCodeOf(analyses);
} finally {
  await dynamo.stop();
}
process.exit(process.exitCode ?? 0);
