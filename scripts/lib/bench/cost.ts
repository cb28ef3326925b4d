/**
 * Memory per Lambda from the measured peak RSS, and the cost of 1,000 learner-days from the measured request
 * units and durations (issue 15 items 4 and 5). Every figure it uses is measured by the same bench run, except
 * the learner-day (how often a learner calls each route in a day: an assumption, stated in the report) and the
 * prices (list prices, stated in the report).
 */
import { functionMemoryMb } from '../../../infra/functions';
import type { EndpointGroup } from '../../../infra/routes';

/** Lambda memory sizes considered, MB (1,769 MB is one full vCPU). */
const MEMORY_STEPS = [512, 768, 1024, 1536, 1769, 2048, 3008];

/**
 * The memory for a measured peak RSS: the smallest step that leaves the peak at most half of it (V8 grows its heap
 * lazily and an instance must never run out), and never under 512 MB (CPU comes with memory: below it the cold
 * start's module evaluation slows several times over).
 */
export const memoryFor = (peakMiB: number): number => MEMORY_STEPS.find((mb) => peakMiB * 2 <= mb) ?? 3008;

/** List prices used (USD): DynamoDB on-demand and Lambda arm64, us-east-1 (eu-central-1 is about 20 % higher). */
export const PRICES = {
  perMillionReadUnits: 0.125,
  perMillionWriteUnits: 0.625,
  perGbSecond: 0.0000133334,
  perMillionInvocations: 0.2,
};

/**
 * A learner-day (an assumption): how often an active learner calls each route in a day. A sign-in every 10 days
 * (the refresh token lives 30 days), the map 3 times, one island's worth of questions (20 answers, 2 completions),
 * progress once, the leaderboard twice (once past the 60 s cache, once within it), a purchase once in 100 days.
 */
export const LEARNER_DAY: { route: string; perDay: number }[] = [
  { route: 'POST /api/auth/otp/request', perDay: 0.1 },
  { route: 'POST /api/auth/login', perDay: 0.1 },
  { route: 'GET /api/home', perDay: 3 },
  { route: 'GET /api/nodes/{id}/questions', perDay: 2 },
  { route: 'POST /api/questions/{id}/answer', perDay: 20 },
  { route: 'POST /api/nodes/{id}/quiz/complete', perDay: 2 },
  { route: 'GET /api/progress/nodes', perDay: 1 },
  { route: 'GET /api/leaderboard (cold)', perDay: 1 },
  { route: 'GET /api/leaderboard (warm)', perDay: 1 },
  { route: 'POST /api/subscription/purchase', perDay: 0.01 },
];

export interface RouteCost {
  route: string;
  group: EndpointGroup;
  perDay: number;
  /** Measured per call (medians): read and write units, billed duration (p50, ms, rounded up). */
  rcu: number;
  wcu: number;
  ms: number;
}

/** Per 1,000 learner-days: calls, units, GB-seconds and dollars, each row's arithmetic and the totals. */
export function costPerThousandLearnerDays(rows: RouteCost[]) {
  const lines = rows.map((r) => {
    const calls = r.perDay * 1000;
    const memoryGb = functionMemoryMb[r.group] / 1024;
    return {
      ...r,
      calls,
      memoryMb: functionMemoryMb[r.group],
      readUnits: calls * r.rcu,
      writeUnits: calls * r.wcu,
      gbSeconds: calls * (Math.ceil(r.ms) / 1000) * memoryGb,
    };
  });
  const sum = (key: 'calls' | 'readUnits' | 'writeUnits' | 'gbSeconds') => lines.reduce((n, l) => n + l[key], 0);
  const totals = { calls: sum('calls'), readUnits: sum('readUnits'), writeUnits: sum('writeUnits'), gbSeconds: sum('gbSeconds') };
  const dollars = {
    reads: (totals.readUnits / 1e6) * PRICES.perMillionReadUnits,
    writes: (totals.writeUnits / 1e6) * PRICES.perMillionWriteUnits,
    compute: totals.gbSeconds * PRICES.perGbSecond,
    invocations: (totals.calls / 1e6) * PRICES.perMillionInvocations,
  };
  return { lines, totals, dollars, total: dollars.reads + dollars.writes + dollars.compute + dollars.invocations };
}
