/**
 * The nightly streak freeze job (DESIGN §13): after Tehran midnight, uses a freeze for each learner who missed
 * yesterday and holds one, with its `streak_frozen` notification (`@mathisland/core/progress` `useMissedFreezes`;
 * who and why it never uses a freeze twice are documented there). The handler of the SST `Cron` of
 * `stacks/learningJobs.ts`: hourly from 00:05 to 05:05 Tehran; a run stops taking new learners {@link MARGIN_MS}
 * before the Lambda's timeout and the next run continues from the index. A run that failed throws after trying
 * every learner, so Lambda retries it and then sends the event to the job's dead-letter queue, which is alarmed.
 * Locally: `npm run job:streak-freezes` (scripts/job-streak-freezes.ts) or `POST /_local/jobs/streak-freezes`.
 */
import type { Deps } from '@mathisland/core';
import { type FreezeJobResult, useMissedFreezes } from '@mathisland/core/progress';
import { productionDeps } from '../lib/deps';
import { jobHandler } from '../lib/job';
import { jobDeadline } from '../lib/jobDeadline';

/** Time kept back from the Lambda's timeout for the learners in flight. */
export const MARGIN_MS = 30_000;

/** One run on `deps`. */
export const runStreakFreezes = (deps: Deps, options: { deadlineMs?: number } = {}): Promise<FreezeJobResult> =>
  useMissedFreezes(deps, options);

const deps = productionDeps();

/** The scheduled Lambda's handler (an EventBridge event; its content is not used). */
export const handler = jobHandler(
  async (context): Promise<FreezeJobResult> => runStreakFreezes(await deps(), jobDeadline(context, MARGIN_MS)),
);
