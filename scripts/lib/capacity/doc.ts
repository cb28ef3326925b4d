/**
 * docs/capacity.md as `npm run capacity -- --learners 100000,1000000,3000000 --out docs/capacity.md` writes it: how
 * to read the model, the key patterns it named and how they are sharded, the cost, then the run's tables.
 */

import { defaultPool } from '@mathisland/core/db';
import {
  CROWDED_VALUES_AT_ONCE,
  HISTOGRAM_SHARDS,
  MARKER_EVERY,
  MARKER_MIN_LEARNERS,
  TIE_READ_UNITS_PER_SECOND,
  TIE_SHARDS,
} from '@mathisland/core/leaderboard';
import { DAY_COUNTER_SHARDS } from '@mathisland/core/stats';
import { BOARD_SNAPSHOT_JOB } from '../../../infra/functions';
import {
  ACTIVE_SHARE,
  type Analysis,
  ENTRY_BYTES,
  HEADROOM,
  LIMITS,
  MONTH,
  PRICES,
  phaseFactor,
  SURGE_SHARE,
  TARGET_WORKERS_AT_3M,
  TRANSACTION_HOLD_MS,
  WINDOW_SECONDS,
} from './model';
import { renderRun } from './report';
import type { Simulation } from './simulate';
import { JOB_BASE_SECONDS, JOB_ENTRY_HEAP_BYTES, JOB_PAGE_MS, QUERY_PAGE_BYTES, snapshotJobRun } from './ties';

const n0 = (n: number) => Math.round(n).toLocaleString('en-US');
const usd = (n: number) => `$${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

export function renderDoc(sim: Simulation, analyses: Analysis[], unsharded: Analysis): string {
  const verdicts = analyses
    .map(
      (a) =>
        `| ${n0(a.scale.learners)} | ${a.hot.length ? `**${a.hot.map((r) => r.pattern).join('; ')}**` : 'none'} | ${a.job.over.length ? '**' : ''}${a.job.seconds.toFixed(1)} s${a.job.over.length ? '**' : ''} | ${usd(a.cost.reads)} | ${usd(a.cost.writes)} | **${usd(a.cost.total)}** |`,
    )
    .join('\n');
  // The busiest histogram item's transactions in flight and the busiest tie partition's write units, at the largest
  // scale of this run: a class's load is shared equally by its shards, so other shard counts scale inversely.
  const top = analyses.reduce((a, b) => (b.scale.learners > a.scale.learners ? b : a));
  const histogram = top.rows.find((r) => r.pattern.startsWith('BOARDXP'))?.inFlight ?? Number.NaN;
  const tie = top.rows.find((r) => r.pattern.startsWith('gsi1 BOARD#'))?.partitionWrite.value ?? Number.NaN;
  const watch = top.rows.find((r) => r.pattern.startsWith('gsi1 STREAKWATCH'))?.partitionWrite.value ?? 0;
  const jobOneAtATime = snapshotJobRun(sim.census, (phase) => phaseFactor(top.scale, phase), 1).seconds;
  const fixed = unsharded.hot.map((row) => `- **${row.pattern}**: unsharded, ${row.over.join(', ')} (${describePeak(row)}).`).join('\n');
  return `# Capacity at national scale

Made by \`npm run capacity -- --learners 100000,1000000,3000000 --out docs/capacity.md\` (scripts/capacity.ts) from one
run of the current code; re-run it after any change to what a request reads or writes, and replace this file.
\`npm run capacity -- --learners 3000000\` prints the same tables and exits 1 when a key passes half of one of
DynamoDB's limits, or the board-snapshot job half of its timeout or memory; \`tests/capacity.test.ts\` runs it in CI
with smaller samples.

## What it does

The launch target (3,000,000 learners, 600,000 of them active on a school day, about 8 grants each, 60 % of a day's
grants between 16:00 and 20:00 Tehran) and its surge (300,000 learners of one grade completing the same quiz within
ten minutes: 500 grants a second, bursts to 1,000) are simulated with samples of learners that go through the real
domain code (sign-in, the session check with its throttle count, the map, answers, lesson and island completions,
leaderboard reads, the board-snapshot job) against DynamoDB Local. Every request goes through a recording client
(scripts/lib/capacity/recorder.ts, an SDK middleware on the worker's own client) that asks DynamoDB for its consumed
capacity (\`ReturnConsumedCapacity: INDEXES\`) and notes each item and partition key it touched, in the table and in
each GSI; a request that touches several items is split over them by DynamoDB's sizing rules so that its parts add up
to what DynamoDB reported (the check at the end of each run). The requests are then scaled to the target
(scripts/lib/capacity/model.ts):

- each simulated day learner stands for \`${ACTIVE_SHARE} × learners / day sample\` active learners, each surge learner
  for \`${SURGE_SHARE} × learners / surge sample\`; a key many learners share (a board's shard, a histogram bucket, a day
  counter) takes the requests of all of them, a learner's own key (their partition, session, phone, throttle windows)
  only theirs;
- per-worker reads (a board's snapshot, the curriculum: once a minute per worker) scale with the workers:
  ${TARGET_WORKERS_AT_3M} per endpoint group at 3,000,000 learners, in proportion below;
- the board-snapshot job runs every minute whatever the learners; what it reads of a crowded XP value (every learner
  there, for the markers) grows with them and is counted at the target's size (${ENTRY_BYTES} bytes an entry), read at
  ${n0(TIE_READ_UNITS_PER_SECOND)} units a second per partition at most (the job paces itself);
- a learner counting their ties reads at most the ${n0(MARKER_EVERY)} after the last marker of a crowded value, or
  ${n0(MARKER_MIN_LEARNERS)} anywhere else, spread over the ${TIE_SHARDS} tie shards: the run's count in each shard is
  scaled up to that, and priced as DynamoDB prices a Query, by the entries' bytes (${ENTRY_BYTES} each) rounded up to
  4 KB once per Query, half a unit per 4 KB (an index read is eventually consistent). Until 2026-11-26 the model
  scaled the run's reported units instead, and so the rounding of a handful of entries to half a unit: a learner's
  count came out up to 16 times what DynamoDB charges, and the tie index's busiest partition anywhere from 600
  to 2,600 read units a second between runs of the same code (over half the limit in two runs of five).

Two runs of the same code give the same figures (only which learner's key is named the busiest may differ, as user
ids are handed out in setup's order): which of a learner's answers are wrong depends on that learner alone, not on
the order in which concurrent learners happened to run.

The keys of a sharded class (the ${HISTOGRAM_SHARDS} shards of one histogram bucket, say) take equal shares of its load:
learners are spread over them by user id. So a sample of a few hundred learners gives the per-key load of millions.

## The result

| learners | key patterns over half a limit | board-snapshot job, longest run (of ${BOARD_SNAPSHOT_JOB.timeoutSeconds} s) | reads, a month | writes, a month | DynamoDB on-demand, a month |
|---:|---|---:|---:|---:|---:|
${verdicts}

Prices used: ${PRICES.region} (Europe, Frankfurt) on-demand, $${PRICES.perMillionReadUnits} per million read units and
$${PRICES.perMillionWriteUnits} per million write units (after AWS's price cut of 2024-11-01; check them before a budget).
A month is ${MONTH.days} school days at the simulated day's load (weekends priced as school days: an upper bound) plus
${MONTH.surges} surges; storage, backups and the Lambda, API Gateway and CloudWatch bills are not in it.

## The hot key patterns it named, and what was done

Before this model, every grant wrote a few keys every learner shares. The same run analysed as if nothing were sharded
(the last table below) shows what each would take at 3,000,000 learners:

${fixed}

And two the model named in the code as it was, fixed outside the leaderboard:

- **gsi2 \`USERS\`** (the staff's list of learners): the user item was in this one index partition, projection ALL, so
  every answer, grant and session check (each writes the user item) rewrote its copy there (this model measured about 7,400 write units a
  second at 3,000,000 learners on the code before the change). The list now reads a small directory entry per learner, written only at sign-up,
  sign-in, sign-out and rename (packages/core/src/auth/directory.entity.ts; migration \`0007-user-directory\`). A month's
  writes fell by half in that run.
- **\`COUNTER\` / \`notification\`**: every island completion took its notification's id from one counter item, 1,000
  updates a second in the surge's bursts on one item. Notification ids are now the time in ms (one more than the
  worker's last when that is later; notifications/notification.entity.ts), and a completion sends one request less.

One it watches that needs nothing yet: **gsi1 \`STREAKWATCH#<day>#<shard>\`**, the nightly freeze job's index of the
learners holding a streak freeze (progress/streakWatch.entity.ts, 10 shards a day), which a learner's first grant of
the day moves to the new day. A third of the simulated learners hold a freeze, and its busiest partition takes
${n0(watch)} write units a second at ${n0(top.scale.learners)} learners; if every learner held one it would take about
${n0(3 * watch)}${3 * watch > HEADROOM * LIMITS.partitionWrite ? ': over half, so its shards would have to grow first' : ', still under half'}.

The shard counts, each the smallest that keeps its key under half with room to spare:

| key | shards | why |
|---|---:|---|
| XP histogram bucket (\`BOARDXP#<board>#<shard>\` / \`<xp>\`) | ${HISTOGRAM_SHARDS} (by user id) | a grant's transaction holds the buckets of its old and new XP; in the surge most learners land on a few values (a quiz gives 5, 15, 25, 40, 50 or 65 XP). In this run at ${n0(top.scale.learners)} learners the busiest bucket has ${histogram.toFixed(2)} transactions in flight at ${HISTOGRAM_SHARDS} shards; with half as many it would have ${(2 * histogram).toFixed(2)}${2 * histogram > HEADROOM ? ' (over half of one)' : ''} |
| tie index partition (gsi1 \`BOARD#<board>#<xp>#<shard>\`) | ${TIE_SHARDS} (by user id) | every grant enters its new XP value's partition (2 units in a transaction, as DynamoDB Local reports them); in this run the surge's busiest value takes ${n0(tie)} units a second a partition at ${TIE_SHARDS} shards (${[2, 3].map((n) => `${n0((tie * TIE_SHARDS) / n)} at ${n}`).join(', ')}). It costs the leaderboard read one COUNT Query per shard: 6 requests cold (tests/requests.test.ts) |
| day counters (\`STATS#<day>\` / \`SHARD#<nn>\`) | ${DAY_COUNTER_SHARDS} (at random) | unchanged: sign-ins and orders are far from any limit |
| board snapshot (\`BOARDSNAP#<board>\`) | 1 | written once a minute by the job, read once a minute per worker |

A crowded XP value (over ${n0(MARKER_MIN_LEARNERS)} learners) gets a marker every ${n0(MARKER_EVERY)} learners in the
snapshot (packages/core/src/leaderboard/snapshot.entity.ts), so that a learner who reads the board an hour after a
nationwide quiz counts at most ${n0(MARKER_EVERY)} ties instead of tens of thousands; that costs the job a read of every
learner at such values each minute (the job's line in the cost table).

## The board-snapshot job's run

Every minute the job reads, for each board, its histogram, its top, and every learner at each crowded value, each
value's ${TIE_SHARDS} tie shards at once and each shard paced at ${n0(TIE_READ_UNITS_PER_SECOND)} read units a second
(core leaderboard/snapshot.ts, boardEntry.entity.ts), through the worker's database pool of ${defaultPool.max} requests
in flight. Its run must end well before the next one, within its Lambda's ${BOARD_SNAPSHOT_JOB.timeoutSeconds} s
timeout, and hold what it reads in its ${n0(BOARD_SNAPSHOT_JOB.memoryMb)} MB. The model times every run of the job in
the simulation at the target's size (scripts/lib/capacity/ties.ts \`snapshotJobRun\`):

- a crowded value is read in pages of 1 MB (about ${n0(QUERY_PAGE_BYTES / ENTRY_BYTES)} entries), each taking
  ${JOB_PAGE_MS} ms to fetch and parse (an assumption), a shard's next page no sooner than its pacing allows;
- the two boards at once, ${JOB_BASE_SECONDS} s for a board's histogram and top;
- a run takes the longer of its slowest board's values as scheduled and all its pages through the pool;
- it holds ${JOB_ENTRY_HEAP_BYTES} bytes a learner's place (user id and time, in the read and the sorted arrays;
  measured on Node 22) for the values it is reading.

Like a key, the job fails the run past half of its timeout or its memory. The crowded values are read
${CROWDED_VALUES_AT_ONCE} at a time (\`CROWDED_VALUES_AT_ONCE\`): each is its own tie partitions, paced on their own,
so this takes no more of any partition, and the pool stays busy while a value's shards wait out their pacing. Read one
after the other, as the job did until 2026-11-27, every value cost at least a round trip, and a day's boards have a few
hundred crowded values: in this run the longest would take ${jobOneAtATime.toFixed(1)} s at ${n0(top.scale.learners)}
learners${jobOneAtATime > HEADROOM * BOARD_SNAPSHOT_JOB.timeoutSeconds ? ', over half the timeout' : ''}, against
${top.job.seconds.toFixed(1)} s.

## How to read the tables

One row per key pattern (a family of keys: \`<board>\`, \`<xp>\`, \`<id>\` vary). For each, its peak:

- **keys per class**: the keys one logical key is split over (1: not sharded; for the histogram, partitions / items);
- **write (read) units/s per key**: capacity units a second on the busiest partition key of the pattern, in the table
  or in a GSI; DynamoDB allows ${n0(LIMITS.partitionWrite)} write and ${n0(LIMITS.partitionRead)} read units a second
  per partition, so a key passes at ${n0(HEADROOM * LIMITS.partitionWrite)} and ${n0(HEADROOM * LIMITS.partitionRead)};
- **write units/s per item**: on the busiest item (the same ${n0(LIMITS.itemWrite)} limit);
- **transactions/s per item (in flight)**: transactions a second that touch the busiest item, and how many are in
  flight on it at once if each holds it ${TRANSACTION_HOLD_MS} ms (an assumption: a TransactWriteItems' commit in AWS).
  DynamoDB cancels a transaction that finds an item held by another (TransactionConflict; the grant retries with
  back-off, tests/grantConcurrency.test.ts), so an item passes at ${HEADROOM} in flight;
- **busiest, when**: the key (or class) and the phase of that peak: \`day\` (the busiest ${WINDOW_SECONDS.day / 60}
  minutes of the school day), \`surge\` (the busiest ${WINDOW_SECONDS.surge} seconds of the quiz: a burst), \`after\`
  (the busiest ${WINDOW_SECONDS.after / 60} minutes of the hour after, when its learners come back to the board);
- **over half of**: the limits the pattern passes half of; bold figures are those. The run fails (exit 1) when any row
  at the learners asked for has one.

Below the tables: the units of a school day, of a day of the job, of a surge, of a month, and the month's cost.

## The run

${renderRun(sim, [...analyses, unsharded])}
`;
}

/** The peaks of a row that pass half a limit, in words. */
function describePeak(row: Analysis['rows'][number]): string {
  const parts: string[] = [];
  if (row.partitionWrite.value > HEADROOM * LIMITS.partitionWrite) parts.push(`${n0(row.partitionWrite.value)} write units a second`);
  if (row.partitionRead.value > HEADROOM * LIMITS.partitionRead) parts.push(`${n0(row.partitionRead.value)} read units a second`);
  if (row.itemWrite.value > HEADROOM * LIMITS.itemWrite) parts.push(`${n0(row.itemWrite.value)} write units a second on one item`);
  if (row.inFlight > HEADROOM * LIMITS.itemTransactionsInFlight)
    parts.push(`${row.inFlight.toFixed(1)} transactions in flight on one item`);
  const where = [row.partitionWrite, row.partitionRead, row.itemTransactions].sort((a, b) => b.value - a.value)[0];
  return `${parts.join(', ')}${where?.key ? `, on \`${where.key}\` in the ${where.phase}` : ''}`;
}
