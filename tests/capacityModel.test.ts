/**
 * The capacity model's arithmetic (scripts/lib/capacity/model.ts), on recorded requests made up here: how a key shared
 * by many learners scales and one learner's does not, how sharded keys share their class's load, where half of each
 * limit lies (per partition key, per item, transactions in flight), and what the month costs. No database.
 */
import { describe, expect, it } from 'vitest';
import { analyse, ENTRY_BYTES, exitCodeOf, PRICES, TRANSACTION_HOLD_MS, WINDOW_SECONDS } from '../scripts/lib/capacity/model';
import { type Access, type RecordedRequest, Recorder } from '../scripts/lib/capacity/recorder';
import type { Simulation } from '../scripts/lib/capacity/simulate';

const HOUR = 3_600_000;
/** A run of `daySample` day learners (each stands for 0.2 × 3,000,000 / daySample) holding `requests`. */
function run(requests: RecordedRequest[], daySample = 10): Simulation {
  const recorder = new Recorder();
  recorder.requests.push(...requests);
  return {
    recorder,
    options: { daySample, surgeSample: 10, workers: 4, concurrency: 1 },
    phases: { day: { from: 0, to: HOUR }, surge: { from: 0, to: 0 }, after: { from: 0, to: 0 } },
    jobRuns: { day: 1, surge: 0, after: 0 },
    census: [],
    seconds: 1,
  };
}
const write = (access: Partial<Access>, count: number, at = 1000): RecordedRequest[] =>
  Array.from({ length: count }, () => ({
    operation: 'TransactWriteItems',
    origin: 'learner' as const,
    phase: 'day',
    at,
    reported: access.units ?? 1,
    accesses: [{ index: 'table', pk: 'X', kind: 'write' as const, units: 1, tx: true, ...access }],
  }));

describe('capacity model', () => {
  it('scales a shared key with the learners, a learner’s own key not, and divides a class over its shards', () => {
    // 60,000 learners per simulated one; one write in the busiest hour.
    const factor = (0.2 * 3_000_000) / 10;
    const sim = run([
      ...write({ pk: 'SOMETHING#shared', sk: 'A', units: 2 }, 1),
      ...write({ pk: 'USER#7', sk: 'PROFILE', units: 2 }, 1),
      ...write({ pk: 'BOARDXP#overall#03', sk: '0000000065', units: 2 }, 1),
    ]);
    const rows = Object.fromEntries(analyse(sim, 3_000_000).rows.map((r) => [r.pattern, r]));
    expect(rows['SOMETHING#shared']?.partitionWrite.value).toBeCloseTo((2 * factor) / WINDOW_SECONDS.day, 6);
    expect(rows['USER#<id> (a learner’s items)']?.partitionWrite.value).toBeCloseTo(2 / WINDOW_SECONDS.day, 6);
    expect(rows['BOARDXP#<board>#<shard> (XP histogram)']?.partitionWrite.value).toBeCloseTo((2 * factor) / WINDOW_SECONDS.day / 64, 6);
    const unsharded = Object.fromEntries(analyse(sim, 3_000_000, { unsharded: true }).rows.map((r) => [r.pattern, r]));
    expect(unsharded['BOARDXP#<board>#<shard> (XP histogram)']?.partitionWrite.value).toBeCloseTo((2 * factor) / WINDOW_SECONDS.day, 6);
  });

  it('passes a key at half a limit and fails it just above: per partition key, per item, transactions in flight', () => {
    // One simulated day learner stands for 600,000: one request in the busiest hour is 166.7 a second.
    const at = (requests: number, units: number, daySample = 1, tx = false) =>
      analyse(run(write({ pk: 'HOT', sk: 'ITEM', units, tx }, requests), daySample), 3_000_000);
    const half = at(1, 3); // 500 write units a second on one key and one item: exactly half
    expect(half.rows[0]?.partitionWrite.value).toBeCloseTo(500, 6);
    expect(half.rows[0]?.over).toEqual([]);
    expect(exitCodeOf([half])).toBe(0);
    const over = at(1, 3.1);
    expect(over.rows[0]?.over).toEqual(['write units per partition key', 'write units per item']);
    expect(exitCodeOf([over])).toBe(1);
    // Transactions: one in flight at a time, each TRANSACTION_HOLD_MS, so half is 1000 / (2 × hold) a second. With 100
    // day learners each stands for 6,000: 12 transactions in the hour are 20 a second.
    expect(1000 / (2 * TRANSACTION_HOLD_MS)).toBe(20);
    const busy = at(12, 0.01, 100, true);
    expect(busy.rows[0]?.itemTransactions.value).toBeCloseTo(20, 6);
    expect(busy.rows[0]?.over).toEqual([]);
    expect(at(13, 0.01, 100, true).rows[0]?.over).toEqual(['transactions in flight on one item']);
  });

  it('prices a month of school days and surges at the stated on-demand prices', () => {
    const sim = run(
      [
        {
          operation: 'GetItem',
          origin: 'learner',
          phase: 'day',
          at: 0,
          reported: 1,
          accesses: [{ index: 'table', pk: 'USER#1', kind: 'read', units: 1, tx: false }],
        },
      ],
      10,
    );
    const a = analyse(sim, 3_000_000);
    const readUnits = 30 * 60_000; // 30 days × 1 unit × 60,000 learners per simulated one
    expect(a.cost.readUnits).toBeCloseTo(readUnits, 0);
    expect(a.cost.reads).toBeCloseTo((readUnits / 1e6) * PRICES.perMillionReadUnits, 6);
    expect(a.cost.total).toBeCloseTo(a.cost.reads, 6);
  });

  it('prices a learner’s count of ties by the bytes it reads at the target, up to the marker, over the tie shards', () => {
    // One day learner stands for 60,000. Their count of ties is one COUNT Query per tie shard, each of which read 4
    // entries (half a unit, DynamoDB's least), at an XP value the last census shows crowded (3 sampled learners:
    // 180,000 at the target) or not (nobody there yet).
    const factor = (0.2 * 3_000_000) / 10;
    const board = 'week#2026-11-21';
    const count = (scanned = 4): RecordedRequest[] =>
      [0, 1, 2, 3].map((shard) => ({
        operation: 'Query',
        origin: 'learner',
        phase: 'day',
        at: HOUR / 2,
        reported: 0.5,
        scanned,
        accesses: [{ index: 'gsi1', pk: `BOARD#${board}#0000000040#${shard}`, kind: 'read', units: 0.5, tx: false }],
      }));
    /** A tie partition's read units a second when each of the 60,000 learners' Query of it takes `units`. */
    const perPartition = (units: number, learners = factor) => (units * learners) / WINDOW_SECONDS.day;
    const tieRead = (sim: Simulation) => analyse(sim, 3_000_000).rows.find((r) => r.pattern.includes('tie index'))?.partitionRead.value;

    // Crowded: 500 ties past the marker over 4 shards, 125 entries of 260 bytes in each, 32.5 KB: 8 × 4 KB, 4 units
    // (scaling the run's half unit would make it 0.5 × 500 / 4 = 62.5). Plus the job's paced read of the 180,000
    // entries there for the markers, spread over the hour.
    const crowded = run(count());
    crowded.census.push({ phase: 'day', at: 0, board, histogram: [[40, 3]] });
    const jobRead = (3 * factor * ENTRY_BYTES) / 4096 / 2 / WINDOW_SECONDS.day / 4;
    expect(tieRead(crowded)).toBeCloseTo(perPartition(4) + jobRead, 6);

    // Not crowded: up to 2,000 ties, 500 entries in each shard, 127 KB: 32 × 4 KB, 16 units.
    expect(tieRead(run(count()))).toBeCloseTo(perPartition(16), 6);

    // A range smaller at the target than the cap is priced at its size: with 100 learners a sampled one, an empty
    // range (counted as 1 entry) stands for 100 entries, 26 KB: 7 × 4 KB, 3.5 units.
    expect(tieRead(run(count(0), 6_000))).toBeCloseTo(perPartition(3.5, 100), 6);
  });

  it('times the board-snapshot job at the target by its reads of crowded values, 8 at once, the boards at once, through the pool, and fails it at half its timeout or memory', () => {
    // One day learner stands for 60,000. A crowded value of 60,000 learners is 15,000 a tie shard, 3.9 MB: 4 pages of
    // 1 MB, each 100 ms, the next no sooner than 128 ms after the last (1,000 units a second a partition): 0.484 s.
    // 120,000 learners: 8 pages, 0.996 s, read at the same time. Both after the board's histogram and top (1 s). The
    // run's 64 pages through the database pool, 8 at a time, take less: 0.8 s.
    const sim = run([]);
    sim.census.push(
      {
        phase: 'day',
        at: 60_000,
        board: 'overall',
        histogram: [
          [40, 1],
          [30, 2],
        ],
      },
      { phase: 'day', at: 60_000, board: 'week#2026-11-21', histogram: [[40, 1]] }, // taken at the same time
      { phase: 'day', at: 120_000, board: 'overall', histogram: [[40, 1]] },
    );
    const { job } = analyse(sim, 3_000_000);
    expect(job.seconds).toBeCloseTo(1 + 7 * 0.128 + 0.1, 6);
    expect(job).toMatchObject({ at: 60_000, board: 'overall', entries: 240_000, heldEntries: 240_000, over: [] });
    expect(job.heldMb).toBeCloseTo((240_000 * 80) / 1e6, 6);
    expect(exitCodeOf([analyse(sim, 3_000_000)])).toBe(0);

    // Nine values of one page a shard each (10,000 learners): eight at once, then the ninth, 0.1 s each, but their 36
    // requests go through the worker's database pool, 8 at a time: 0.45 s.
    const many = run([]);
    many.census.push({
      phase: 'day',
      at: 60_000,
      board: 'overall',
      histogram: Array.from({ length: 9 }, (_, i) => [i + 1, 1] as [number, number]),
    });
    expect(analyse(many, 500_000).job.seconds).toBeCloseTo(1 + (36 * 0.1) / 8, 6);

    // A value of 2,000 learners or fewer is not crowded: no markers, not read.
    const quiet = run([]);
    quiet.census.push({ phase: 'day', at: 60_000, board: 'overall', histogram: [[40, 1]] });
    expect(analyse(quiet, 1_000).job).toMatchObject({ seconds: 1, entries: 0 });

    // Past half the job's 50 s timeout: one value of 3,600,000 learners, 224 pages a shard.
    const late = run([]);
    late.census.push({ phase: 'day', at: 60_000, board: 'overall', histogram: [[40, 60]] });
    const lateJob = analyse(late, 3_000_000).job;
    expect(lateJob.seconds).toBeCloseTo(1 + 223 * 0.128 + 0.1, 6);
    expect(lateJob.over).toEqual(['timeout']);
    expect(exitCodeOf([analyse(late, 3_000_000)])).toBe(1);

    // Past half its 1,024 MB: one value of 6,600,000 learners, 528 MB held.
    const crowd = run([]);
    crowd.census.push({ phase: 'day', at: 60_000, board: 'overall', histogram: [[40, 110]] });
    expect(analyse(crowd, 3_000_000).job.over).toEqual(['timeout', 'memory']);
  });
});
