/**
 * One scheduled job of the Jobs stack: an SST `Cron` (an EventBridge rule) running a service function (least
 * privilege of infra/permissions.ts, its own log group, tracing: stacks/service.ts), with its own dead-letter queue
 * kept 14 days, where Lambda sends a run that failed after its retries and EventBridge an event it could not deliver
 * in time; the Monitoring stack alarms on every dead-letter queue of the app (stacks/deadLetters.ts). Construct ids:
 * `<id>` (the rule), `<id>Job` (the function), `<id>DeadLetters` (the queue). Used by Jobs.ts (the marketplace
 * renewal), paymentRecheck.ts, boardSnapshots.ts and learningJobs.ts.
 */
import { Duration } from 'aws-cdk-lib';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { Cron, type CronProps, type StackContext } from 'sst/constructs';
import type { JobName } from '../infra/permissions';
import { serviceFunction } from './service';

/** How long a job's dead-letter queue keeps what lands in it, days. */
export const DLQ_RETENTION_DAYS = 14;

export interface ScheduledJobOptions {
  /** `packages/functions/src/jobs/<file>.handler`. */
  handler: string;
  /** EventBridge schedule expression (`rate(...)`, `cron(...)`). */
  schedule: NonNullable<CronProps['schedule']>;
  description: string;
  /** Seconds a run may take. */
  timeout: number;
  /** MB of memory; the app's default (sst.config.ts) when left out. */
  memorySize?: number;
  /** Lambda's retries of a failed run (and EventBridge's of an undelivered event) before the dead-letter queue. */
  retries: number;
  /** How long EventBridge keeps trying to deliver an event. */
  maxEventAge: Duration;
}

export function scheduledJob(context: StackContext, id: string, job: JobName, options: ScheduledJobOptions) {
  const { stack } = context;
  const deadLetters = new Queue(stack, `${id}DeadLetters`, { retentionPeriod: Duration.days(DLQ_RETENTION_DAYS), enforceSSL: true });
  const fn = serviceFunction(context, `${id}Job`, job, {
    handler: options.handler,
    description: options.description,
    timeout: options.timeout,
    ...(options.memorySize ? { memorySize: options.memorySize } : {}),
    // A run that fails after Lambda's retries lands here too, not only an event EventBridge could not deliver.
    deadLetterQueue: deadLetters,
    retryAttempts: options.retries,
  });
  const cron = new Cron(stack, id, {
    schedule: options.schedule,
    job: {
      function: fn,
      cdk: { target: { deadLetterQueue: deadLetters, retryAttempts: options.retries, maxEventAge: options.maxEventAge } },
    },
  });
  return { cron, fn, deadLetters };
}
