/**
 * The capacity model's report (issue 30): markdown tables of each analysis (model.ts), printed by
 * `npm run capacity` and written into docs/capacity.md with `--out`.
 */
import { CROWDED_VALUES_AT_ONCE } from '@mathisland/core/leaderboard';
import {
  type Analysis,
  HEADROOM,
  LIMITS,
  MONTH,
  type Peak,
  PRICES,
  TARGET_WORKERS_AT_3M,
  TRANSACTION_HOLD_MS,
  WINDOW_SECONDS,
} from './model';
import type { Simulation } from './simulate';

const n0 = (n: number) => Math.round(n).toLocaleString('en-US');
const n1 = (n: number) => (n >= 100 ? n0(n) : n.toFixed(n >= 10 ? 1 : 2));
const usd = (n: number) => `$${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const cell = (peak: Peak, limit: number, note = '') =>
  peak.value === 0
    ? '–'
    : `${peak.value > HEADROOM * limit ? '**' : ''}${n1(peak.value)}${peak.value > HEADROOM * limit ? '**' : ''}${note}`;

/** The table of one analysis: per key pattern, its peaks, and which limits it passes half of. */
export function patternTable(analysis: Analysis): string {
  const lines = [
    '| key pattern | keys per class | write units/s per key | read units/s per key | write units/s per item | transactions/s per item (in flight) | busiest, when | over half of |',
    '|---|---:|---:|---:|---:|---:|---|---|',
  ];
  for (const row of analysis.rows) {
    const shards = analysis.unsharded
      ? '1'
      : row.shards === row.itemShards || row.itemShards === 1
        ? String(row.shards)
        : `${row.shards} / items ${row.itemShards}`;
    const busiest = [row.partitionWrite, row.partitionRead, row.itemTransactions].sort((a, b) => b.value - a.value)[0] as Peak;
    const tx =
      row.itemTransactions.value === 0
        ? '–'
        : `${row.inFlight > HEADROOM * LIMITS.itemTransactionsInFlight ? '**' : ''}${n1(row.itemTransactions.value)} (${row.inFlight.toFixed(2)})${row.inFlight > HEADROOM ? '**' : ''}`;
    lines.push(
      `| ${row.pattern} | ${shards} | ${cell(row.partitionWrite, LIMITS.partitionWrite)} | ${cell(row.partitionRead, LIMITS.partitionRead)} | ` +
        `${cell(row.itemWrite, LIMITS.itemWrite)} | ${tx} | ${busiest.key ? `\`${busiest.key}\`, ${busiest.phase}` : ''} | ${row.over.join(', ') || 'none'} |`,
    );
  }
  return lines.join('\n');
}

/** The cost lines of one analysis. */
export function costLines(analysis: Analysis): string {
  const { cost, totals } = analysis;
  return [
    `| | read units | write units |`,
    '|---|---:|---:|',
    `| a school day (learners) | ${n0(totals.day.read)} | ${n0(totals.day.write)} |`,
    `| a day of the board-snapshot job (1,440 runs) | ${n0(totals.job.read)} | ${n0(totals.job.write)} |`,
    `| a surge (ten minutes, and the hour after it) | ${n0(totals.surge.read)} | ${n0(totals.surge.write)} |`,
    `| a month (${MONTH.days} days, ${MONTH.surges} surges) | ${n0(cost.readUnits)} | ${n0(cost.writeUnits)} |`,
    '',
    `Monthly on-demand cost: reads ${usd(cost.reads)} + writes ${usd(cost.writes)} = **${usd(cost.total)}** ` +
      `(${PRICES.region}: $${PRICES.perMillionReadUnits} per million read units, $${PRICES.perMillionWriteUnits} per million write units; ` +
      'storage, backups and streams not included).',
  ].join('\n');
}

/** The board-snapshot job's longest run at the target, against its timeout and memory (model.ts `job`). */
export function jobLine(analysis: Analysis): string {
  const { job } = analysis;
  const bold = (text: string, over: boolean) => (over ? `**${text}**` : text);
  return (
    `The board-snapshot job's longest run (${job.phase}${job.board ? `, \`${job.board}\` the slower board` : ''}) reads ` +
    `${n0(job.entries)} learners at crowded XP values: ` +
    bold(`${job.seconds.toFixed(1)} s of its ${job.timeoutSeconds} s timeout`, job.over.includes('timeout')) +
    `. It holds at most ${n0(job.heldEntries)} learners' places at once (${CROWDED_VALUES_AT_ONCE} crowded values of each board at a time): ` +
    bold(`about ${n0(job.heldMb)} MB of its ${n0(job.memoryMb)} MB`, job.over.includes('memory')) +
    `. ${job.over.length ? `Over half of its ${job.over.join(' and ')}.` : 'Both within half.'}`
  );
}

/** The whole report of one run: a section per analysis. */
export function renderRun(sim: Simulation, analyses: Analysis[]): string {
  const out: string[] = [];
  for (const analysis of analyses) {
    const { scale } = analysis;
    out.push(
      `### ${n0(scale.learners)} learners${analysis.unsharded ? ': as if no key were sharded' : ''}`,
      '',
      `Each simulated day learner stands for ${n0(scale.dayFactor)} active learners (${n0(scale.dayFactor * sim.options.daySample)} a school day), ` +
        `each surge learner for ${n0(scale.surgeFactor)} (${n0(scale.surgeFactor * sim.options.surgeSample)} in ten minutes); ` +
        `${n0(scale.workers)} workers per endpoint group. Verdict: ` +
        (analysis.hot.length
          ? `**${analysis.hot.length} key pattern${analysis.hot.length > 1 ? 's' : ''} over half a limit: ${analysis.hot.map((r) => r.pattern).join('; ')}.**`
          : 'every key at most half of its limits.') +
        (analysis.job.over.length ? ` **The board-snapshot job over half of its ${analysis.job.over.join(' and ')}.**` : ''),
      '',
      patternTable(analysis),
      '',
      jobLine(analysis),
      '',
      costLines(analysis),
      '',
    );
  }
  out.push(
    `Run: ${sim.options.daySample} day learners, ${sim.options.surgeSample} surge learners, ${sim.options.workers} workers, ` +
      `${n0(sim.recorder.requests.filter((r) => r.origin !== 'setup').length)} requests recorded, board-snapshot job run ` +
      `${sim.jobRuns.day + sim.jobRuns.surge} times, ${sim.seconds.toFixed(0)} s. ` +
      `Limits: per partition key ${n0(LIMITS.partitionWrite)} write and ${n0(LIMITS.partitionRead)} read units a second, per item ` +
      `${n0(LIMITS.itemWrite)} write units and one transaction at a time (${TRANSACTION_HOLD_MS} ms each); a key passes at ${HEADROOM * 100} %. ` +
      `Peaks: the busiest ${WINDOW_SECONDS.day / 60} minutes of the day, the busiest ${WINDOW_SECONDS.surge} seconds of the surge, ` +
      `the busiest ${WINDOW_SECONDS.after / 60} minutes of the hour after it; ` +
      `${TARGET_WORKERS_AT_3M} workers at 3,000,000 learners.`,
  );
  return out.join('\n');
}
