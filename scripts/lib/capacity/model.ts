/**
 * The capacity model's analysis (issue 30; DESIGN §14; docs/capacity.md): the recorded requests of the simulation
 * (simulate.ts) scaled to a number of learners, grouped by key pattern, and their peaks set against half of
 * DynamoDB's limits; plus the monthly on-demand cost.
 *
 * Scaling. The simulated learners stand for the learners of the target: a day's active learner for
 * `0.2 × learners / daySample` of them (§14: 600,000 of 3,000,000 active on a school day), a surge learner for
 * `0.1 × learners / surgeSample` (300,000 of 3,000,000). A key that many learners share (a board's shard, a histogram
 * bucket, a day counter) takes the requests of all of them: its rate is multiplied by that factor. A key of one
 * learner (their partition, session, phone) takes only theirs: not multiplied. Per-worker reads (a board snapshot, the
 * curriculum, once a minute per worker) scale with the workers, {@link TARGET_WORKERS_AT_3M} at 3,000,000 learners.
 * The board-snapshot job runs on its schedule whatever the learners: not multiplied, except the reads whose size grows
 * with them (every learner at a crowded XP value). A Query that reads a whole range of a shared partition (a learner
 * counting their ties) reads as many more items as the range holds: at most `MARKER_EVERY` (core leaderboard) past the marker the
 * snapshot gives (read.ts), over all tie shards; it is priced as DynamoDB prices a Query, by the bytes read rounded up
 * to 4 KB once (ties.ts `tieRangeUnits`).
 *
 * Sharded keys are analysed per class: the shards of one board's histogram bucket, say, take equal shares (learners are
 * spread over them by user id), so the load of one shard is the class's load divided by the shards; so a sample of a
 * few hundred learners gives the per-key load of a few million without its noise. `unsharded: true` analyses the
 * same run as if every class were one key: what the sharding buys.
 *
 * Peaks are the highest 10-second window of each phase (the surge's bursts last 30 s). Limits (DESIGN §14): a
 * partition key (of the table or of an index) 1,000 write and 3,000 read units a second; an item 1,000 write units a
 * second and one transaction at a time ({@link TRANSACTION_HOLD_MS} each). A key passes when it takes at most half.
 * So does the board-snapshot job, of its Lambda's timeout and memory: its longest run at the target (ties.ts
 * `snapshotJobRun`), which reads every learner at a crowded XP value each minute.
 */
import { MARKER_MIN_LEARNERS, TIE_READ_UNITS_PER_SECOND, TIE_SHARDS } from '@mathisland/core/leaderboard';
import { classify, PATTERNS, type Pattern } from './patterns';
import type { RecordedRequest } from './recorder';
import type { Phase, Simulation } from './simulate';
import { ENTRY_BYTES, type SnapshotJobRun, snapshotJobRun, tieRangeUnits } from './ties';

export { ENTRY_BYTES } from './ties';

/** DynamoDB's limits per second (DESIGN §14). */
export const LIMITS = { partitionWrite: 1000, partitionRead: 3000, itemWrite: 1000, itemTransactionsInFlight: 1 };
/** The share of a limit a key may take. */
export const HEADROOM = 0.5;
/** How long a transaction holds its items in AWS, ms (a TransactWriteItems' commit; an assumption, docs/capacity.md). */
export const TRANSACTION_HOLD_MS = 25;
/**
 * Length of the windows peaks are taken over, seconds: the span a simulated learner stands for. A day learner stands
 * for the learners of their part of the day (the busiest hour holds a tenth of the sample), a surge learner for those
 * of a few seconds of the surge, whose bursts last 30 s, and their return to the board for those of half an hour.
 */
export const WINDOW_SECONDS: Record<Phase, number> = { day: 3600, surge: 30, after: 1800 };
/** Lambda workers per endpoint group at 3,000,000 learners (an assumption, docs/capacity.md); scales with learners. */
export const TARGET_WORKERS_AT_3M = 50;
/** §14's shares of the learners: active on a school day, in the surge. */
export const ACTIVE_SHARE = 0.2;
export const SURGE_SHARE = 0.1;

/** On-demand prices used, USD (Europe (Frankfurt), eu-central-1, after AWS's 2024-11 reduction). */
export const PRICES = { region: 'eu-central-1', perMillionWriteUnits: 0.7625, perMillionReadUnits: 0.1525 };
/** The month priced: school days at the simulated day's load (weekends and holidays as school days: an upper bound), and surges. */
export const MONTH = { days: 30, surges: 4 };

/** How the simulated learners stand for the target's. */
export interface Scale {
  learners: number;
  /** Learners of the target each simulated day learner stands for. */
  dayFactor: number;
  surgeFactor: number;
  /** Workers of the target per simulated worker. */
  workerFactor: number;
  workers: number;
}

/** Learners of the target each simulated learner stands for in `phase`. */
export const phaseFactor = (scale: Scale, phase: Phase): number => (phase === 'day' ? scale.dayFactor : scale.surgeFactor);

export function scaleFor(sim: Simulation, learners: number): Scale {
  const workers = Math.max(sim.options.workers, Math.ceil((TARGET_WORKERS_AT_3M * learners) / 3_000_000));
  return {
    learners,
    dayFactor: (ACTIVE_SHARE * learners) / sim.options.daySample,
    surgeFactor: (SURGE_SHARE * learners) / sim.options.surgeSample,
    workerFactor: workers / sim.options.workers,
    workers,
  };
}

/** A peak: the value, in which phase, on which class of keys. */
export interface Peak {
  value: number;
  phase: string;
  key: string;
}
const none = (): Peak => ({ value: 0, phase: '', key: '' });

/** What a key pattern took at its peak, per key and per item, and whether that is over half a limit. */
export interface PatternRow {
  pattern: string;
  /** Keys a class is split over (1: not sharded). */
  shards: number;
  itemShards: number;
  partitionWrite: Peak;
  partitionRead: Peak;
  itemWrite: Peak;
  itemTransactions: Peak;
  /** Expected transactions in flight on the busiest item (transactions a second × hold time). */
  inFlight: number;
  /** The limits it passes half of; empty when it fits. */
  over: string[];
}

export interface Analysis {
  scale: Scale;
  unsharded: boolean;
  rows: PatternRow[];
  /** Patterns over half a limit. */
  hot: PatternRow[];
  totals: Record<'day' | 'surge' | 'job', { read: number; write: number }>;
  cost: { readUnits: number; writeUnits: number; reads: number; writes: number; total: number };
  /** Units DynamoDB reported for the simulated requests, and what the model attributed to their keys (equal but rounding). */
  check: { reported: number; attributed: number };
  /** The board-snapshot job's longest run at the target (ties.ts), and what it passes half of: `timeout`, `memory`. */
  job: SnapshotJobRun & { over: string[] };
}

/** Scales and groups the run's requests (see the module doc). */
export function analyse(sim: Simulation, learners: number, options: { unsharded?: boolean } = {}): Analysis {
  const scale = scaleFor(sim, learners);
  const unsharded = options.unsharded === true;
  /** `<kind>|<pattern>|<class>` → window → sum. */
  const sums = new Map<string, Map<number, number>>();
  const patterns = new Map<string, Pattern>();
  const add = (key: string, window: number, value: number) => {
    const byWindow = sums.get(key) ?? new Map<number, number>();
    byWindow.set(window, (byWindow.get(window) ?? 0) + value);
    sums.set(key, byWindow);
  };
  /** The day's units, the surge's (its hour after included) and the job's. */
  const totals = { day: { read: 0, write: 0 }, surge: { read: 0, write: 0 }, job: { read: 0, write: 0 } };
  let reported = 0;
  let attributed = 0;
  /** Learners at the XP value of tie partition `pk` at the target, when `request` ran (the last census before it). */
  const groupAt = (request: RecordedRequest, pk: string): number => {
    const m = /^BOARD#(.+)#(\d{10})#\d$/.exec(pk);
    if (!m) return 0;
    const census = sim.census.filter((c) => c.board === m[1] && c.at <= request.at).at(-1);
    const learnersThere = census?.histogram.find(([xp]) => xp === Number(m[2]))?.[1] ?? 0;
    return learnersThere * phaseFactor(scale, request.phase as Phase);
  };
  const requests = sim.recorder.requests.filter((r) => r.origin !== 'setup');
  for (const request of requests) {
    const phase = request.phase as Phase;
    const factor = phaseFactor(scale, phase);
    const window = windowOf(phase, request.at);
    reported += request.reported;
    for (const access of request.accesses) {
      attributed += access.units;
      const { pattern, partition, item } = classify(access);
      patterns.set(pattern.name, pattern);
      const rate = request.origin === 'schedule' ? 1 : pattern.workerReads && access.kind === 'read' ? scale.workerFactor : factor;
      const units = tieRangeUnits(request, pattern, factor, groupAt) ?? access.units;
      const total = request.origin === 'schedule' ? totals.job : totals[phase === 'day' ? 'day' : 'surge'];
      total[access.kind] += units * rate;
      const perKey = pattern.perLearner ? 1 : rate;
      const w = window;
      add(`${access.kind}|${pattern.name}|${partition}`, w, units * perKey);
      if (item !== undefined && access.kind === 'write') {
        add(`itemWrite|${pattern.name}|${item}`, w, units * perKey);
        if (access.tx) add(`itemTx|${pattern.name}|${item}`, w, perKey);
      }
    }
  }
  // The job's reads of crowded XP values at the target (none is crowded in the run): every learner there, paced.
  const tie = PATTERNS.find((p) => p.tieRanges) as Pattern;
  for (const census of sim.census) {
    for (const [xp, learnersThere] of census.histogram) {
      const atTarget = learnersThere * phaseFactor(scale, census.phase);
      if (atTarget <= MARKER_MIN_LEARNERS) continue;
      const units = (atTarget * ENTRY_BYTES) / 4096 / 2; // eventually consistent
      totals.job.read += units;
      const seconds = WINDOW_SECONDS[census.phase];
      const perShardRate = Math.min(TIE_READ_UNITS_PER_SECOND, units / TIE_SHARDS / seconds);
      const w = windowOf(census.phase, census.at);
      add(`read|${tie.name}|BOARD#${census.board}#${String(xp).padStart(10, '0')}`, w, perShardRate * TIE_SHARDS * seconds);
    }
  }
  const rows = [...patterns.values(), tie]
    .filter((p, i, all) => all.findIndex((q) => q.name === p.name) === i)
    .map((pattern) => rowOf(pattern, sums, unsharded));
  rows.sort((a, b) => b.over.length - a.over.length || b.partitionWrite.value - a.partitionWrite.value);
  const jobRunsPerDay = 24 * 60;
  const runs = Math.max(1, sim.jobRuns.day + sim.jobRuns.surge + sim.jobRuns.after);
  const job = { read: (totals.job.read / runs) * jobRunsPerDay, write: (totals.job.write / runs) * jobRunsPerDay };
  const readUnits = MONTH.days * (totals.day.read + job.read) + MONTH.surges * totals.surge.read;
  const writeUnits = MONTH.days * (totals.day.write + job.write) + MONTH.surges * totals.surge.write;
  const reads = (readUnits / 1e6) * PRICES.perMillionReadUnits;
  const writes = (writeUnits / 1e6) * PRICES.perMillionWriteUnits;
  return {
    scale,
    unsharded,
    rows,
    hot: rows.filter((r) => r.over.length > 0),
    totals: { day: totals.day, surge: totals.surge, job },
    cost: { readUnits, writeUnits, reads, writes, total: reads + writes },
    check: { reported, attributed },
    job: jobAt(sim, scale),
  };
}

/** The board-snapshot job's longest run at `scale`, set against half its timeout and memory. */
function jobAt(sim: Simulation, scale: Scale): Analysis['job'] {
  const run = snapshotJobRun(sim.census, (phase) => phaseFactor(scale, phase));
  const over = [
    ...(run.seconds > HEADROOM * run.timeoutSeconds ? ['timeout'] : []),
    ...(run.heldMb > HEADROOM * run.memoryMb ? ['memory'] : []),
  ];
  return { ...run, over };
}

const PHASES: Phase[] = ['day', 'surge', 'after'];
/** A window as one number: its phase in the lowest digit, its index above. */
const windowOf = (phase: Phase, at: number): number => Math.floor(at / (WINDOW_SECONDS[phase] * 1000)) * 10 + PHASES.indexOf(phase);
const phaseOfWindow = (w: number): Phase => PHASES[w % 10] as Phase;

function rowOf(pattern: Pattern, sums: Map<string, Map<number, number>>, unsharded: boolean): PatternRow {
  const shards = unsharded ? 1 : (pattern.shards ?? 1);
  const itemShards = unsharded ? 1 : (pattern.itemShards ?? 1);
  const peak = (kind: string, divide: number): Peak => {
    let best = none();
    for (const [key, byWindow] of sums) {
      const [k, name, cls] = key.split('|');
      if (k !== kind || name !== pattern.name) continue;
      for (const [w, sum] of byWindow) {
        const value = sum / WINDOW_SECONDS[phaseOfWindow(w)] / divide;
        if (value > best.value) best = { value, phase: phaseOfWindow(w), key: cls as string };
      }
    }
    return best;
  };
  const partitionWrite = peak('write', shards);
  const partitionRead = peak('read', shards);
  const itemWrite = peak('itemWrite', itemShards);
  const itemTransactions = peak('itemTx', itemShards);
  const inFlight = (itemTransactions.value * TRANSACTION_HOLD_MS) / 1000;
  const over: string[] = [];
  if (partitionWrite.value > HEADROOM * LIMITS.partitionWrite) over.push('write units per partition key');
  if (partitionRead.value > HEADROOM * LIMITS.partitionRead) over.push('read units per partition key');
  if (itemWrite.value > HEADROOM * LIMITS.itemWrite) over.push('write units per item');
  if (inFlight > HEADROOM * LIMITS.itemTransactionsInFlight) over.push('transactions in flight on one item');
  return {
    pattern: pattern.name,
    shards: pattern.shards ?? 1,
    itemShards: pattern.itemShards ?? 1,
    partitionWrite,
    partitionRead,
    itemWrite,
    itemTransactions,
    inFlight,
    over,
  };
}

/** The process's exit code for analyses: 1 when any shows a key over half a limit, or the snapshot job over half its own. */
export const exitCodeOf = (analyses: Analysis[]): number => (analyses.some((a) => a.hot.length > 0 || a.job.over.length > 0) ? 1 : 0);
