/**
 * The local runtime's stand-in for the schedules of stacks/Jobs.ts that a request's answer depends on (DESIGN §6).
 *
 * In AWS the `board-snapshots` job snapshots the current leaderboards every minute, and a leaderboard read uses the
 * latest snapshot (core leaderboard/snapshot.ts, read.ts). Here nothing runs on a timer (the tests move a manual
 * clock): before a leaderboard request, the boards whose snapshot is a minute old or more are snapshotted first,
 * which is what the schedule guarantees in AWS. The job runs with its own database client, outside the request (its
 * async context is the stack's, not the request's), so its DynamoDB requests are the job's: they are neither
 * counted as the leaderboard group's (tests/requests.test.ts) nor checked against its permissions
 * (tests/support/tableAccess.ts).
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
  // Bound here, at start-up: the job runs in the stack's async context whichever request triggers it.
  const runDue = AsyncResource.bind(async () => {
    const deps = await getDeps();
    jobDb ??= createDb({ tableName: deps.settings.tableName, endpoint: deps.settings.dynamodbEndpoint });
    await refreshBoardSnapshots(jobDb, deps.clock.now(), { olderThanMs: LEADERBOARD_CACHE_SECONDS * 1000 });
  });
  return {
    /** `handler` (the leaderboard group's), run after the due snapshots are taken. */
    before(handler: Handler): Handler {
      return async (event, context) => {
        // One run at a time: concurrent reads wait for the same snapshot instead of taking it twice.
        running = running.catch(() => undefined).then(runDue);
        await running;
        return handler(event, context);
      };
    },
    close(): void {
      jobDb?.raw.destroy();
    },
  };
}
