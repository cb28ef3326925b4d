/**
 * What `npm run bench` measures around each call: percentiles, and the DynamoDB side of a call through the
 * worker's own client: how many requests it sent, the wall time they were in flight (the union of their
 * intervals: the floor the route cannot go below, measured in the same run on the same calls), and the capacity
 * units DynamoDB reports for them (`ReturnConsumedCapacity: TOTAL`, added by the bench only).
 */
import type { Db } from '@mathisland/core/db';
import type { SentCommand } from './bare';

export const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
};
export const median = (values: number[]): number => percentile(values, 50);

/** The DynamoDB side of one call. */
export interface DynamoSide {
  /** Requests sent. */
  requests: number;
  /** Wall time with at least one request in flight, ms. */
  floorMs: number;
  /** Read and write capacity units consumed (transactions count double, as DynamoDB bills them). */
  rcu: number;
  wcu: number;
}

/** One measured call: its end-to-end time and its DynamoDB side. */
export interface Sample extends DynamoSide {
  ms: number;
}

const READS = new Set(['GetCommand', 'QueryCommand', 'BatchGetCommand', 'TransactGetCommand', 'ScanCommand']);

interface Consumed {
  CapacityUnits?: number;
}

/** A DynamoDB request's time in flight: [start, end], `performance.now()` ms. */
export type Interval = [number, number];

/**
 * Instruments `db` (the worker's client: the local runtime shares it) and returns `measure(fn)`, which runs `fn`
 * and returns its DynamoDB side, the intervals its requests were in flight and the commands it sent, in order (for
 * the bare baseline's replays, bare.ts). Calls must not overlap (each measure belongs to one call).
 */
export function instrument(
  db: Db,
): <T>(fn: () => Promise<T>) => Promise<{ result: T; side: DynamoSide; intervals: Interval[]; commands: SentCommand[] }> {
  let intervals: Interval[] = [];
  let commands: SentCommand[] = [];
  let rcu = 0;
  let wcu = 0;
  const send = db.doc.send.bind(db.doc) as (command: unknown, ...rest: unknown[]) => Promise<unknown>;
  const timed = async (command: { constructor: { name: string }; input?: Record<string, unknown> }, ...rest: unknown[]) => {
    if (command.input && !command.input.ReturnConsumedCapacity) command.input.ReturnConsumedCapacity = 'TOTAL';
    commands.push(command as unknown as SentCommand);
    const start = performance.now();
    try {
      const output = (await send(command, ...rest)) as { ConsumedCapacity?: Consumed | Consumed[] };
      const consumed = [output?.ConsumedCapacity ?? []].flat().reduce((n, c) => n + (c.CapacityUnits ?? 0), 0);
      if (READS.has(command.constructor.name)) rcu += consumed;
      else wcu += consumed;
      return output;
    } finally {
      intervals.push([start, performance.now()]);
    }
  };
  Object.assign(db.doc, { send: timed });
  return async (fn) => {
    const before = db.requests.total;
    intervals = [];
    commands = [];
    rcu = 0;
    wcu = 0;
    const result = await fn();
    return { result, side: { requests: db.requests.total - before, floorMs: unionMs(intervals), rcu, wcu }, intervals, commands };
  };
}

/** Total length of the union of `intervals`, ms. */
function unionMs(intervals: Interval[]): number {
  let total = 0;
  let end = Number.NEGATIVE_INFINITY;
  for (const [a, b] of [...intervals].sort((x, y) => x[0] - y[0])) {
    if (b <= end) continue;
    total += b - Math.max(a, end);
    end = b;
  }
  return total;
}

/** Requests (median, max), latency and floor (p50, p99, ms), units (median) of a list of samples. */
export function summarize(list: Sample[]) {
  const of = (key: keyof Sample) => list.map((s) => s[key]);
  const p50 = percentile(of('ms'), 50);
  const floorP50 = percentile(of('floorMs'), 50);
  return {
    calls: list.length,
    dynamo: median(of('requests')),
    dynamoMax: Math.max(...of('requests')),
    p50,
    p99: percentile(of('ms'), 99),
    floorP50,
    ratio: floorP50 > 0 ? p50 / floorP50 : Number.NaN,
    rcu: median(of('rcu')),
    wcu: median(of('wcu')),
  };
}
export type Summary = ReturnType<typeof summarize>;
