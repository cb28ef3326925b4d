/**
 * Jobs: scheduled functions (DESIGN §1 "Renewal sync", §2 `stacks/ Jobs (cron)`).
 *
 * `MarketplaceRenewal`: an SST `Cron` (EventBridge rule, every hour) running
 * `packages/functions/src/jobs/marketplaceRenewal.handler`, which asks the marketplace again about the marketplace
 * subscriptions due by now (renewals, daily re-checks), pays each new period and ends what the marketplace refunded
 * or cancelled (DESIGN §8). It finds them through the due-hour index, so its
 * table access is least privilege: read items and query the table and its indexes, write items (put, update,
 * condition checks of its transactions), never Scan, Delete, batch writes or table administration; and read the
 * stage's secret (SECRET_KEY opens the sealed purchase tokens, the marketplace credential). A failed run is retried
 * by Lambda ({@link RENEWAL_RETRY_ATTEMPTS} times) and then goes, with any event EventBridge could not deliver, to
 * its dead-letter queue `MarketplaceRenewalDeadLetters` (kept 14 days; its URL is the stack output
 * `MarketplaceRenewalDlq`) for operators. Built like every job (stacks/scheduledJob.ts).
 *
 * Its environment and IAM are a service function's (stacks/service.ts): TABLE_NAME, STAGE, SECRETS_ID and the
 * plain settings set at deploy time; the table actions of `marketplace-renewal` in infra/permissions.ts.
 *
 * `PaymentRecheck` (stacks/paymentRecheck.ts): every 15 minutes, the gateway re-check of recent unpaid orders.
 * `BoardSnapshots` (stacks/boardSnapshots.ts): every minute, the leaderboards' snapshots (issue 30).
 *
 * `StreakFreezes` and `ParentReports` (stacks/learningJobs.ts): the nightly streak freeze job and the parents' weekly
 * SMS (DESIGN §13).
 */
import { Duration } from 'aws-cdk-lib';
import type { StackContext } from 'sst/constructs';
import { boardSnapshotsCron } from './boardSnapshots';
import { learningJobs } from './learningJobs';
import { paymentRecheckCron } from './paymentRecheck';
import { scheduledJob } from './scheduledJob';

/** How often the renewal job runs. */
export const RENEWAL_SCHEDULE = 'rate(1 hour)';
/** Lambda's retries of a failed asynchronous invocation before the event goes to the dead-letter queue. */
export const RENEWAL_RETRY_ATTEMPTS = 2;
/** Seconds one run may take: a due subscription costs a marketplace call (≤ 8 s, twice with a token refresh). */
export const RENEWAL_TIMEOUT_SECONDS = 300;

export function Jobs(context: StackContext) {
  const { stack } = context;
  const renewal = scheduledJob(context, 'MarketplaceRenewal', 'marketplace-renewal', {
    handler: 'packages/functions/src/jobs/marketplaceRenewal.handler',
    description: 'mathisland: marketplace subscription renewals due by now (hourly)',
    schedule: RENEWAL_SCHEDULE,
    timeout: RENEWAL_TIMEOUT_SECONDS,
    retries: RENEWAL_RETRY_ATTEMPTS,
    // An hourly run an hour late is the next run: EventBridge stops trying then.
    maxEventAge: Duration.hours(1),
  });

  const paymentRecheck = paymentRecheckCron(context);
  const boardSnapshots = boardSnapshotsCron(context);
  const learning = learningJobs(context);
  stack.addOutputs({ MarketplaceRenewalDlq: renewal.deadLetters.queueUrl });
  return { renewal: renewal.cron, deadLetterQueue: renewal.deadLetters, paymentRecheck, boardSnapshots, learning };
}
