/**
 * The weekly parent report job (DESIGN §13): sends each confirmed parent the week's SMS
 * (`@mathisland/core/parents` `sendWeeklyParentReports`; what, who and the once-a-week guarantee are documented
 * there). The handler of the SST `Cron` of `stacks/learningJobs.ts`: every 15 minutes on Friday evenings, of which the
 * runs inside the sending window (Friday 18:00 to 22:00 Tehran) send; each run stops taking new parents
 * {@link MARGIN_MS} before the Lambda's timeout and the next run continues from the due index. A run that failed (a
 * refusal that needs an operator, a table outage) throws after trying every parent, so Lambda retries it (nothing is
 * sent twice) and then sends the event to the job's dead-letter queue, which is alarmed. Locally:
 * `npm run job:parent-reports` (scripts/job-parent-reports.ts) or `POST /_local/jobs/parent-reports` on `npm start`.
 */
import { type Deps, logger } from '@mathisland/core';
import { type ParentReportRun, sendWeeklyParentReports } from '@mathisland/core/parents';
import { productionDeps } from '../lib/deps';
import { jobHandler } from '../lib/job';
import { jobDeadline } from '../lib/jobDeadline';

/** Time kept back from the Lambda's timeout: an sms call in flight (≤ 5 s) and the records after it. */
export const MARGIN_MS = 60_000;

/** One run on `deps`; `options.week` forces that week's reports (see `sendWeeklyParentReports`). */
export async function runParentReports(deps: Deps, options: { week?: string; deadlineMs?: number } = {}): Promise<ParentReportRun> {
  const run = await sendWeeklyParentReports(deps, options);
  if (run.off) logger.warn('parent reports are off: set SMS_API_KEY and SMS_PARENT_REPORT_TEMPLATE');
  return run;
}

const deps = productionDeps();

/** The scheduled Lambda's handler (an EventBridge event; its content is not used). */
export const handler = jobHandler(
  async (context): Promise<ParentReportRun> => runParentReports(await deps(), jobDeadline(context, MARGIN_MS)),
);
