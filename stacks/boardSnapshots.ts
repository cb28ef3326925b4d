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
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { Cron, type StackContext } from 'sst/constructs';
import { serviceFunction } from './service';

/** How often the boards are snapshotted: the leaderboard's cache (spec Limits: 60 s). */
export const BOARD_SNAPSHOT_SCHEDULE = 'rate(1 minute)';

export function boardSnapshotsCron(context: StackContext) {
  const { stack } = context;
  const deadLetters = new Queue(stack, 'BoardSnapshotsDeadLetters', { retentionPeriod: Duration.days(14), enforceSSL: true });
  const job = serviceFunction(context, 'BoardSnapshotsJob', 'board-snapshots', {
    handler: 'packages/functions/src/jobs/boardSnapshots.handler',
    description: 'mathisland job board-snapshots: merges the leaderboards shards into their snapshots',
    timeout: 50,
    deadLetterQueue: deadLetters,
    retryAttempts: 0,
  });
  const cron = new Cron(stack, 'BoardSnapshots', {
    schedule: BOARD_SNAPSHOT_SCHEDULE,
    job: { function: job, cdk: { target: { deadLetterQueue: deadLetters, retryAttempts: 0, maxEventAge: Duration.minutes(1) } } },
  });
  return { cron, job, deadLetters };
}
