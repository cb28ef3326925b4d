/**
 * Running the capacity model's simulated steps (simulate.ts): in time order (whole ms), 10 simulated seconds at a
 * time, a learner's steps in order and the learners of a window at once, each on its worker's dependencies with a
 * clock at the step's time; the board-snapshot job on its schedule's terms, before a window's first leaderboard read
 * when the boards' snapshot is a minute old. Every request is recorded through `as` (recorder.ts).
 */
import { type Deps, ManualClock } from '@mathisland/core';
import type { Db } from '@mathisland/core/db';
import { currentBoards, refreshBoardSnapshot } from '@mathisland/core/leaderboard';
import type { Origin } from './recorder';
import type { Phase } from './timeline';

export interface Learner {
  userId: number;
  accessToken: string;
  refreshToken: string;
  /** When the access token was issued, simulated epoch ms (the app refreshes it once it is near its hour). */
  tokenAt: number;
  worker: number;
  /** Share of answers given wrong (at most three a session). */
  wrongShare: number;
  /**
   * Where the learner's right-or-wrong sequence starts, and the answers they gave so far: which answers are wrong
   * depends on the learner alone, never on the order concurrent learners ran in, so two runs land on the same XP.
   */
  answerSeed: number;
  answers: number;
}

export interface Step {
  at: number;
  learner: Learner;
  phase: Phase;
  /** A leaderboard read (the schedule's snapshot must be a minute old at most). */
  reads?: boolean;
  run: (deps: Deps) => Promise<unknown>;
}

/** What the run saw: when each phase ran (simulated epoch ms), the job's runs, and the boards at each run. */
export interface RunResult {
  phases: Record<Phase, { from: number; to: number }>;
  jobRuns: Record<Phase, number>;
  census: Array<{ phase: Phase; at: number; board: string; histogram: Array<[number, number]> }>;
}

/** Runs `steps` (see the module doc) on `context.workers`, the job on `context.jobDb`. */
export async function runInTimeOrder(
  steps: Step[],
  context: {
    workers: Deps[];
    jobDb: Db;
    as: <T>(origin: Origin, phase: string, now: () => number, work: () => Promise<T>, learner?: number) => Promise<T>;
    concurrency: number;
  },
): Promise<RunResult> {
  const { workers, jobDb, as } = context;
  const options = { concurrency: context.concurrency };
  // Run them in time order (whole ms), 10 simulated seconds at a time; a learner's steps in order, learners at once.
  for (const step of steps) step.at = Math.round(step.at);
  steps.sort((a, b) => a.at - b.at);
  const jobRuns = { day: 0, surge: 0, after: 0 };
  let lastSnapshot = Number.NEGATIVE_INFINITY;
  const census: RunResult['census'] = [];
  const phases = {
    day: { from: Number.POSITIVE_INFINITY, to: 0 },
    surge: { from: Number.POSITIVE_INFINITY, to: 0 },
    after: { from: Number.POSITIVE_INFINITY, to: 0 },
  };
  let next = 0;
  while (next < steps.length) {
    const windowEnd = Math.floor((steps[next] as Step).at / 10_000) * 10_000 + 10_000;
    const batch: Step[] = [];
    while (next < steps.length && (steps[next] as Step).at < windowEnd) batch.push(steps[next++] as Step);
    // The schedule: a snapshot a minute old is retaken before the window's reads.
    // The schedule runs at every minute; simulated when a read needs it: at the minute before the window's first read.
    const firstRead = batch.find((step) => step.reads);
    const minute = firstRead ? Math.floor(firstRead.at / 60_000) * 60_000 : 0;
    if (firstRead && minute > lastSnapshot) {
      const at = minute;
      // Both boards at once, to shorten the run: the job takes them in turn, but its requests, their units and their
      // simulated time (the run's minute) are the same either way.
      const snapshots = await Promise.all(
        currentBoards(at).map((board) =>
          as(
            'schedule',
            firstRead.phase,
            () => at,
            () => refreshBoardSnapshot(jobDb, board, at),
          ),
        ),
      );
      for (const snapshot of snapshots)
        census.push({ phase: firstRead.phase, at, board: snapshot.board, histogram: snapshot.data.histogram });
      lastSnapshot = at;
      jobRuns[firstRead.phase]++;
    }
    const byLearner = new Map<Learner, Step[]>();
    for (const step of batch) byLearner.set(step.learner, [...(byLearner.get(step.learner) ?? []), step]);
    const chains = [...byLearner.values()];
    for (let i = 0; i < chains.length; i += options.concurrency) {
      await Promise.all(
        chains.slice(i, i + options.concurrency).map(async (chain) => {
          for (const step of chain) {
            const clock = new ManualClock(step.at);
            const deps = { ...(workers[step.learner.worker] as Deps), clock };
            phases[step.phase].from = Math.min(phases[step.phase].from, step.at);
            phases[step.phase].to = Math.max(phases[step.phase].to, step.at);
            await as(
              'learner',
              step.phase,
              () => clock.now(),
              () => step.run(deps),
              step.learner.userId,
            );
          }
        }),
      );
    }
  }
  return { phases, jobRuns, census };
}
