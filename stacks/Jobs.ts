/**
 * Jobs: scheduled functions (DESIGN §1 "Renewal sync", §2 `stacks/ Jobs (cron)`).
 *
 * `MarketplaceRenewal`: an SST `Cron` (EventBridge rule, every hour) running
 * `packages/functions/src/jobs/marketplaceRenewal.handler`, which asks the marketplace again about the marketplace
 * subscriptions due by now and pays each new period (DESIGN §8). It finds them through the due-hour index, so its
 * table access is least privilege: read items and query the table and its indexes, write items (put, update,
 * condition checks of its transactions), never Scan, Delete, batch writes or table administration; and read the
 * stage's secret (SECRET_KEY opens the sealed purchase tokens, the marketplace credential). A failed run is retried
 * by Lambda ({@link RENEWAL_RETRY_ATTEMPTS} times) and then goes, with any event EventBridge could not deliver, to
 * the dead-letter queue `MarketplaceRenewalDlq` (kept {@link DLQ_RETENTION_DAYS} days) for operators.
 *
 * Its environment is the Api stack's (TABLE_NAME, STAGE, SECRETS_ID and the plain settings set at deploy time).
 */
import { Duration } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Cron, Queue, type StackContext, use } from 'sst/constructs';
import { deployedSettings } from './Api';
import { Secrets } from './Secrets';
import { Storage } from './Storage';

/** How often the renewal job runs. */
export const RENEWAL_SCHEDULE = 'rate(1 hour)';
/** Lambda's retries of a failed asynchronous invocation before the event goes to the dead-letter queue. */
export const RENEWAL_RETRY_ATTEMPTS = 2;
export const DLQ_RETENTION_DAYS = 14;
/** Seconds one run may take: a due subscription costs a marketplace call (≤ 8 s, twice with a token refresh). */
export const RENEWAL_TIMEOUT_SECONDS = 300;

/** What the job does to the table: nothing else (no Scan, no Delete, no batch writes). */
export const renewalTableActions = [
  'dynamodb:GetItem',
  'dynamodb:Query',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:ConditionCheckItem',
] as const;

export function Jobs({ stack, app }: StackContext) {
  const { table } = use(Storage);
  const { secret } = use(Secrets);
  const deadLetterQueue = new Queue(stack, 'MarketplaceRenewalDlq', {
    cdk: { queue: { retentionPeriod: Duration.days(DLQ_RETENTION_DAYS) } },
  });

  const renewal = new Cron(stack, 'MarketplaceRenewal', {
    schedule: RENEWAL_SCHEDULE,
    job: {
      function: {
        handler: 'packages/functions/src/jobs/marketplaceRenewal.handler',
        description: 'mathisland: marketplace subscription renewals due by now (hourly)',
        timeout: RENEWAL_TIMEOUT_SECONDS,
        environment: { ...deployedSettings(), TABLE_NAME: table.tableName, STAGE: app.stage, SECRETS_ID: secret.secretArn },
        deadLetterQueue: deadLetterQueue.cdk.queue,
        retryAttempts: RENEWAL_RETRY_ATTEMPTS,
        permissions: [
          new PolicyStatement({
            actions: [...renewalTableActions],
            resources: [table.tableArn, `${table.tableArn}/index/*`],
          }),
          [secret, 'grantRead'],
        ],
      },
      cdk: { target: { deadLetterQueue: deadLetterQueue.cdk.queue, retryAttempts: RENEWAL_RETRY_ATTEMPTS } },
    },
  });

  stack.addOutputs({ MarketplaceRenewalDlq: deadLetterQueue.queueUrl });
  return { renewal, deadLetterQueue };
}
