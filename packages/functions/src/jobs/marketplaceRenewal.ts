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
 * event to the job's dead-letter queue for operators. Locally: `npm run job:marketplace-renewal`
 * (`scripts/job-marketplace-renewal.ts`) runs {@link runMarketplaceRenewal} on the running stack's table.
 */
import { type Deps, logger } from '@mathisland/core';
import { type MarketplaceJobCounts, renewDueMarketplaceSubscriptions } from '@mathisland/core/subscriptions';
import { productionDeps } from '../lib/deps';
import { jobHandler } from '../lib/job';

/** Runs one pass on `deps`; returns how many purchases came out each way. Errors: when any failed. */
export async function runMarketplaceRenewal(deps: Deps): Promise<MarketplaceJobCounts> {
  const counts = await renewDueMarketplaceSubscriptions(deps);
  logger.info('marketplace renewal job', { ...counts });
  if (counts.failed > 0) throw new Error(`marketplace renewal: ${counts.failed} purchase(s) failed; see the log lines above`);
  return counts;
}

const deps = productionDeps();

export const handler = jobHandler(async (): Promise<MarketplaceJobCounts> => runMarketplaceRenewal(await deps()));
