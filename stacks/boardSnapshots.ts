/**
 * The board-snapshot job's schedule (packages/functions/src/jobs/boardSnapshots.ts; issue 30, docs/capacity.md), for
 * the Jobs stack: an SST `Cron` every minute running a service function (least privilege `board-snapshots` of
 * infra/permissions.ts: Query of the table and the tie index, PutItem of the snapshots; no secret). A failed run is
 * not retried (the next minute's run supersedes it) and goes to a dead-letter queue kept 14 days, which the
 * Monitoring stack alarms on (it finds every dead-letter queue of the app).
 *
 * In `stacks/Jobs.ts`: `const boardSnapshots = boardSnapshotsCron(context);`
 */
import { Duration } from 'aws-cdk-lib';
import type { StackContext } from 'sst/constructs';
import { BOARD_SNAPSHOT_JOB } from '../infra/functions';
import { scheduledJob } from './scheduledJob';

/** How often the boards are snapshotted: the leaderboard's cache (spec Limits: 60 s). */
export const BOARD_SNAPSHOT_SCHEDULE = 'rate(1 minute)';

export function boardSnapshotsCron(context: StackContext) {
  const { cron, fn, deadLetters } = scheduledJob(context, 'BoardSnapshots', 'board-snapshots', {
    handler: 'packages/functions/src/jobs/boardSnapshots.handler',
    description: 'mathisland job board-snapshots: merges the leaderboards shards into their snapshots',
    schedule: BOARD_SNAPSHOT_SCHEDULE,
    // Held to half of each at 3,000,000 learners by the capacity model (docs/capacity.md).
    timeout: BOARD_SNAPSHOT_JOB.timeoutSeconds,
    memorySize: BOARD_SNAPSHOT_JOB.memoryMb,
    // Not retried: the next minute's run supersedes a failed one.
    retries: 0,
    maxEventAge: Duration.minutes(1),
  });
  return { cron, job: fn, deadLetters };
}
