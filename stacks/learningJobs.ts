/**
 * The scheduled jobs of "learning that brings children back" (DESIGN §13), for the Jobs stack. Each is an SST `Cron`
 * (an EventBridge rule) running a service function (least privilege of infra/permissions.ts, the stage secret, its own
 * log group); a run that fails is retried twice by Lambda and then sent to the job's own dead-letter queue (kept 14
 * days), where EventBridge also sends an event it could not deliver; the Monitoring stack alarms on every
 * dead-letter queue of the app (stacks/deadLetters.ts). Both jobs may run twice or overlap: their writes are
 * conditional (a freeze is used once, a report sent once), and each run stops before its timeout and leaves the rest
 * to the next.
 *
 * | job | schedule (UTC; Tehran is UTC+03:30 all year) | does |
 * |---|---|---|
 * | `StreakFreezes` | 20:35, 21:35 ... 01:35 (00:05 to 05:05 Tehran) | uses a freeze for each learner who missed yesterday and holds one (packages/functions/src/jobs/streakFreezes.ts) |
 * | `ParentReports` | Fridays every 15 minutes, 14:00 to 18:45 (17:30 to 22:15 Tehran; it sends from 18:00 to 22:00) | the parents' weekly SMS (packages/functions/src/jobs/parentReports.ts) |
 *
 * In `stacks/Jobs.ts`: `const learning = learningJobs(context);`
 */
import { Duration } from 'aws-cdk-lib';
import type { StackContext } from 'sst/constructs';
import type { JobName } from '../infra/permissions';
import { type ScheduledJobOptions, scheduledJob } from './scheduledJob';

/** The nightly freeze job: hourly from 00:05 to 05:05 Tehran (each run continues what the one before left). */
export const STREAK_FREEZES_SCHEDULE = 'cron(35 0-1,20-23 * * ? *)';
/** The parent reports: every 15 minutes on Friday evenings around the sending window (Friday 18:00-22:00 Tehran). */
export const PARENT_REPORTS_SCHEDULE = 'cron(0/15 14-18 ? * FRI *)';
/** Lambda's retries of a failed run before the event goes to the dead-letter queue. */
export const LEARNING_JOB_RETRIES = 2;
/** Seconds a run may take (Lambda's maximum); the jobs stop taking new work a margin before it. */
export const LEARNING_JOB_TIMEOUT_SECONDS = 900;

/** One of the two jobs (stacks/scheduledJob.ts), with their retries and timeout. */
const scheduled = (
  context: StackContext,
  id: string,
  job: JobName,
  options: { handler: string; schedule: ScheduledJobOptions['schedule']; does: string },
) =>
  scheduledJob(context, id, job, {
    handler: options.handler,
    schedule: options.schedule,
    description: `mathisland job ${job}: ${options.does}`,
    timeout: LEARNING_JOB_TIMEOUT_SECONDS,
    retries: LEARNING_JOB_RETRIES,
    maxEventAge: Duration.hours(1),
  });

export function learningJobs(context: StackContext) {
  return {
    streakFreezes: scheduled(context, 'StreakFreezes', 'streak-freezes', {
      handler: 'packages/functions/src/jobs/streakFreezes.handler',
      schedule: STREAK_FREEZES_SCHEDULE,
      does: 'uses a streak freeze for each learner who missed yesterday (nightly)',
    }),
    parentReports: scheduled(context, 'ParentReports', 'parent-reports', {
      handler: 'packages/functions/src/jobs/parentReports.handler',
      schedule: PARENT_REPORTS_SCHEDULE,
      does: "sends each confirmed parent the week's SMS (Friday evenings)",
    }),
  };
}
