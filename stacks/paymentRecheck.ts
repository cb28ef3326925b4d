/**
 * The payment re-check job's schedule (packages/functions/src/jobs/paymentRecheck.ts; docs/deploy.md "Scheduled
 * jobs"), for the Jobs stack: an SST `Cron` every 15 minutes running a service function (least privilege
 * `payment-recheck` of infra/permissions.ts, the stage secret, its own log group): a run that fails is retried
 * twice by Lambda and then sent to a dead-letter queue kept 14 days, where EventBridge also sends an event it could
 * not deliver. The Monitoring stack alarms on that queue (it
 * finds every dead-letter queue of the app).
 *
 * In `stacks/Jobs.ts`: `const paymentRecheck = paymentRecheckCron(context);`
 */
import { Duration } from 'aws-cdk-lib';
import type { StackContext } from 'sst/constructs';
import { scheduledJob } from './scheduledJob';

/** How often the re-check runs (an abandoned checkout is failed 60 to 75 minutes after its gateway step began). */
export const PAYMENT_RECHECK_SCHEDULE = 'rate(15 minutes)';

export function paymentRecheckCron(context: StackContext) {
  const { cron, fn, deadLetters } = scheduledJob(context, 'PaymentRecheck', 'payment-recheck', {
    handler: 'packages/functions/src/jobs/paymentRecheck.handler',
    description: 'mathisland job payment-recheck: grants lost redirects, fails abandoned checkouts',
    schedule: PAYMENT_RECHECK_SCHEDULE,
    timeout: 300,
    retries: 2,
    maxEventAge: Duration.hours(1),
  });
  return { cron, job: fn, deadLetters };
}
