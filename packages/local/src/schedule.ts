/**
 * The local runtime's stand-in for the schedules of stacks/Jobs.ts that a request's answer depends on (DESIGN §6).
 *
 * In AWS the `board-snapshots` job snapshots the current leaderboards every minute, and a leaderboard read uses the
 * latest snapshot (core leaderboard/snapshot.ts, read.ts). Here nothing runs on a timer (the tests move a manual
 * clock): before a leaderboard request, the boards whose snapshot is a minute old or more are snapshotted first,
 * which is what the schedule guarantees in AWS. The job runs with its own database client, outside the request (its
 * async context is the stack's, not the request's), so its DynamoDB requests are the job's: they are neither
 * counted as the leaderboard group's (tests/requests.test.ts) nor checked against its permissions
 * (tests/support/tableAccess.ts). Within a minute (the stack's clock) of its last run it does not look again, so a
 * request then waits on nothing the schedule would not have done in AWS; `run()` does the schedule's work at once,
 * outside any request (npm run bench takes it before timing a leaderboard read, as the schedule would have).
 */
import { AsyncResource } from 'node:async_hooks';
import type { Deps } from '@mathisland/core';
import { createDb, type Db } from '@mathisland/core/db';
import { LEADERBOARD_CACHE_SECONDS, refreshBoardSnapshots } from '@mathisland/core/leaderboard';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

/** The schedule's stand-in for the stack whose dependencies `getDeps` gives; `close()` releases the job's client. */
export function boardSnapshotSchedule(getDeps: () => Promise<Deps>) {
  let jobDb: Db | undefined;
  let running: Promise<unknown> = Promise.resolve();
  /** The stack clock's time of the last run (epoch ms). */
  let lastRun = Number.NEGATIVE_INFINITY;
  const everyMs = LEADERBOARD_CACHE_SECONDS * 1000;
  // Bound here, at start-up: the job runs in the stack's async context whichever request triggers it.
  const runDue = AsyncResource.bind(async (force: boolean) => {
    const deps = await getDeps();
    const now = deps.clock.now();
    if (!force && now >= lastRun && now - lastRun < everyMs) return;
    jobDb ??= createDb({ tableName: deps.settings.tableName, endpoint: deps.settings.dynamodbEndpoint });
    await refreshBoardSnapshots(jobDb, now, { olderThanMs: everyMs });
    lastRun = now;
  });
  // One run at a time: concurrent reads wait for the same snapshot instead of taking it twice.
  const queue = (force: boolean) => {
    running = running.catch(() => undefined).then(() => runDue(force));
    return running;
  };
  return {
    /** `handler` (the leaderboard group's), run after the due snapshots are taken. */
    before(handler: Handler): Handler {
      return async (event, context) => {
        await queue(false);
        return handler(event, context);
      };
    },
    /** The schedule's work now: the boards whose snapshot is a minute old are snapshotted. */
    async run(): Promise<void> {
      await queue(true);
    },
    close(): void {
      jobDb?.raw.destroy();
    },
  };
}
