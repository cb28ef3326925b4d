/**
 * The figures of one bench run that the report's tables, its charts (charts.ts) and its targets (targets.ts) share:
 * the hot routes with their same-run ratios, and the targets they are held to (issue 15, issue 30 §5).
 */
import { BARE_ROUTES, BARE_VARIANTS, type BareVariant } from './bare';
import type { benchLeaderboard } from './boards';
import type { benchBundles } from './imports';
import type { benchJourney } from './journey';
import type { LoadRun } from './load';
import type { Summary } from './measure';
import type { benchTutor } from './tutor';

/** The machine's load while the bench ran: the 1-minute load average, sampled every few seconds (os.loadavg). */
export interface MachineLoad {
  cores: number;
  samples: number[];
}

export interface BenchResults {
  options: {
    learners: number;
    boardSizes: number[];
    boardReads: number;
    importRuns: number;
    load: { connections: number; amount: number; seconds: number; learners: number };
  };
  journey: Awaited<ReturnType<typeof benchJourney>>;
  boards: Awaited<ReturnType<typeof benchLeaderboard>>;
  tutor: Awaited<ReturnType<typeof benchTutor>>;
  tutorFirstTokenMs: number;
  bundles: Awaited<ReturnType<typeof benchBundles>>;
  /** Median load of the Secrets Manager client at a worker's first request in AWS, ms (imports.ts). */
  secretsClientMs: number;
  load: LoadRun[];
  machine: MachineLoad;
}

/** Same-run ratio (route p50 over its DynamoDB floor's p50) that home and answer may take (issue 30 §5). */
export const HOT_RATIO_TARGET = 1.15;
/** The routes held to {@link HOT_RATIO_TARGET}. */
const RATIO_HELD = new Set(['home', 'answer']);

/** A hot route of the same-run ratio table: its name, its summary, the ratio it is held to (if any). */
export interface HotRoute {
  name: string;
  summary: Summary;
  target?: number;
}

/** The hot routes: home, answer, a quiz completion, a cold leaderboard read on the largest board, a purchase. */
export function hotRoutes(r: BenchResults): HotRoute[] {
  const byRoute = new Map(r.journey.map((j) => [j.route, j as Summary]));
  const route = (key: string) => byRoute.get(key) as Summary;
  const bigBoard = r.boards.filter((b) => b.size === Math.max(...r.options.boardSizes));
  const coldBoard = bigBoard.find((b) => b.period === 'weekly') ?? (bigBoard[0] as (typeof bigBoard)[number]);
  const rows: Array<[string, Summary]> = [
    ['home', route('GET /api/home')],
    ['answer', route('POST /api/questions/{id}/answer')],
    ['completion (island quiz)', route('POST /api/nodes/{id}/quiz/complete')],
    [`leaderboard (cold, ${coldBoard.size.toLocaleString('en-US')} learners)`, coldBoard.cold],
    ['purchase', route('POST /api/subscription/purchase')],
  ];
  return rows.map(([name, summary]) => ({ name, summary, ...(RATIO_HELD.has(name) ? { target: HOT_RATIO_TARGET } : {}) }));
}

/** One bare baseline: a replayed route (bare.ts) on one bare variant. */
export interface BareBaseline {
  /** The journey's route key, e.g. `GET /api/home`. */
  route: string;
  variant: BareVariant;
  /** For the table, e.g. `home on a bare server: the same requests`. */
  name: string;
  /** For the chart, shorter. */
  label: string;
  summary: Summary;
  /** Replays DynamoDB refused by a condition, left out of `summary` (bare.ts `BARE_ROUTES`). */
  refused: number;
}

/**
 * The bare baselines of the same-run ratio (bare.ts): each replayed route's replays on each bare variant. Empty for a
 * results file from before the baselines (BENCH_FROM).
 */
export function bareBaselines(r: BenchResults): BareBaseline[] {
  const names: Record<BareVariant, [string, string]> = {
    requests: ['bare server: the same requests', 'bare: requests only'],
    token: ['bare server: the token’s check and the same requests', 'bare: token check, requests'],
  };
  return r.journey.flatMap((j) => {
    const route = BARE_ROUTES.get(j.route)?.name ?? j.route;
    const bare = j.bare as (Record<BareVariant, Summary> & { refused?: Record<BareVariant, number> }) | undefined;
    return bare
      ? BARE_VARIANTS.map((variant) => ({
          route: j.route,
          variant,
          name: `${route} on a ${names[variant][0]}`,
          label: `${route}, ${names[variant][1]}`,
          summary: bare[variant],
          refused: bare.refused?.[variant] ?? 0,
        }))
      : [];
  });
}

/** The 1-minute load average while the bench ran: lowest, median, highest. */
export function loadRange(machine: MachineLoad): { min: number; median: number; max: number } {
  const sorted = [...machine.samples].sort((a, b) => a - b);
  return { min: sorted[0] ?? 0, median: sorted[Math.floor(sorted.length / 2)] ?? 0, max: sorted.at(-1) ?? 0 };
}
