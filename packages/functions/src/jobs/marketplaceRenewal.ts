/**
 * The hourly marketplace renewal job (spec "Subscription" auto-renewal; DESIGN §1 "Renewal sync", §8): asks the
 * marketplace again about every marketplace subscription due by now, a renewal or its daily re-check (found through
 * the due-hour index, never a Scan), turns each new period into one new paid order, and ends those the marketplace
 * refunded or cancelled; and about every in-app purchase whose refund check is due, refunding those the marketplace
 * refunded (`@mathisland/core/subscriptions` `renewDueMarketplaceSubscriptions`, the same code the
 * status reads and the tutor's paywall run).
 *
 * This is the handler of the SST `Cron` in `stacks/Jobs.ts` (EventBridge, asynchronous invocation). When a
 * subscription failed for another reason than the marketplace being unavailable (those are simply asked again next
 * hour), the invocation fails, so Lambda retries it (renewals are idempotent) and, after its retries, sends the
 * event to the job's dead-letter queue for operators. A run stops taking purchases {@link MARGIN_MS} before its
 * Lambda's timeout (a backlog, or a marketplace answering slowly, would otherwise end every run in a timeout, a retry
 * and the dead-letter queue); what it left stays due for the next hour's run. Locally: `npm run job:marketplace-renewal`
 * (`scripts/job-marketplace-renewal.ts`) runs {@link runMarketplaceRenewal} on the running stack's table.
 */
import { type Deps, logger } from '@mathisland/core';
import { type MarketplaceJobCounts, renewDueMarketplaceSubscriptions } from '@mathisland/core/subscriptions';
import { productionDeps } from '../lib/deps';
import { jobHandler } from '../lib/job';
import { jobDeadline } from '../lib/jobDeadline';

/** Time kept back from the Lambda's timeout for the purchase in flight (a marketplace call may take 8 s). */
export const MARGIN_MS = 30_000;

/**
 * Runs one pass on `deps`, taking no new purchase after `deadlineMs` (the rest stay due: `deferred`); returns how
 * many purchases came out each way. Errors: when any failed.
 */
export async function runMarketplaceRenewal(deps: Deps, options: { deadlineMs?: number } = {}): Promise<MarketplaceJobCounts> {
  const counts = await renewDueMarketplaceSubscriptions(deps, options);
  logger.info('marketplace renewal job', { ...counts });
  if (counts.failed > 0) throw new Error(`marketplace renewal: ${counts.failed} purchase(s) failed; see the log lines above`);
  return counts;
}

const deps = productionDeps();

export const handler = jobHandler(
  async (context): Promise<MarketplaceJobCounts> => runMarketplaceRenewal(await deps(), jobDeadline(context, MARGIN_MS)),
);
