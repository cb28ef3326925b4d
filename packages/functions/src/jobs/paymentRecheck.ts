/**
 * The payment re-check job (docs/deploy.md "Scheduled jobs"; docs/decisions.md "Payments"): every 15 minutes, the
 * status re-check of `GET /api/subscription/status` run for every buyer with an unpaid gateway order, whether or not
 * the buyer comes back to the app.
 *
 * Why: the gateway's redirect back to the callback can be lost (the buyer closes the tab, the network drops), and a
 * buyer who then never opens the app again would have paid for nothing: reconcile with the gateway's list of paid,
 * unverified payments (providers.md §1 "unVerified"; §8 "use unVerified/inquiry to catch users who paid but never
 * returned"). And an abandoned checkout (its gateway step began 60 minutes ago or more), one that never started (no
 * pay link opened, no in-app purchase started, 60 minutes after the purchase), or a marketplace one started and never
 * verified (24 hours after its last start) keeps its discount use until it is failed, which only the re-check does.
 *
 * What: the orders created in the last {@link RECHECK_WINDOW_HOURS} hours, newest first through the all-orders index
 * (gsi2, read until the window ends: never a Scan), give the buyers with an order that reached the gateway and is not
 * paid (pending, or failed or cancelled by staff: its buyer may have paid on the page still open) or a checkout that
 * has expired; for each buyer, `recheckOrders` of the
 * subscriptions domain fails the expired checkouts (core checkoutExpiry.ts), verifies the orders the gateway
 * lists as paid (they become paid, exactly once, even racing a callback) and abandoned checkouts (an unpaid verdict
 * fails them). Either failure gives the discount use back. Gateway trouble skips a buyer until the next run.
 *
 * Result: `{ windowHours, buyers, settled: [{ orderId, status }] }`. A buyer whose re-check throws anything else is
 * logged and the run then fails (after the others), so the scheduler retries and, after its retries, the event
 * lands in the job's dead-letter queue (alarmed).
 *
 * Schedule: the Jobs stack's SST Cron `rate(15 minutes)`; locally `npm run job:payment-recheck` against a running
 * `npm start` (scripts/payment-recheck.ts).
 */
import { type Deps, logger } from '@mathisland/core';
import { hasRecheckWork, listOrders, type Order, RECHECK_WINDOW_HOURS, recheckOrders } from '@mathisland/core/subscriptions';
import { productionDeps } from '../lib/deps';
import { jobHandler } from '../lib/job';

/** Orders created this many hours ago or less are looked at (core's window: Shaparak returns unverified payments within ~72 h). */
export { RECHECK_WINDOW_HOURS };

/** Orders read per page of the all-orders index. */
const PAGE_SIZE = 100;

export interface RecheckResult {
  windowHours: number;
  buyers: number;
  settled: Array<{ orderId: number; status: Order['status'] }>;
}

/** The buyers (user ids) with an order the re-check has work on (`hasRecheckWork`) created within the window ending at `nowMs`. */
async function buyersToRecheck(deps: Deps, nowMs: number): Promise<number[]> {
  const since = nowMs - RECHECK_WINDOW_HOURS * 3_600_000;
  const buyers = new Set<number>();
  let cursor: string | undefined;
  do {
    const page = await listOrders(deps, { limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) });
    for (const order of page.items) {
      if (order.createdAt < since) return [...buyers];
      if (hasRecheckWork(order, nowMs)) buyers.add(order.userId);
    }
    cursor = page.nextCursor;
  } while (cursor);
  return [...buyers];
}

/**
 * One run of the job on `deps`. Errors: the first error a buyer's re-check threw other than gateway trouble (which
 * the re-check absorbs), after every buyer was tried.
 */
export async function recheckPayments(deps: Deps): Promise<RecheckResult> {
  const buyers = await buyersToRecheck(deps, deps.clock.now());
  const settled: RecheckResult['settled'] = [];
  const failures: unknown[] = [];
  for (const userId of buyers) {
    try {
      settled.push(...(await recheckOrders(deps, userId)));
    } catch (error) {
      failures.push(error);
      logger.error('payment re-check failed for a buyer', { userId, reason: (error as Error).message });
    }
  }
  logger.info('payment re-check', {
    windowHours: RECHECK_WINDOW_HOURS,
    buyers: buyers.length,
    settled: settled.length,
    failed: failures.length,
  });
  if (failures.length) throw failures[0];
  return { windowHours: RECHECK_WINDOW_HOURS, buyers: buyers.length, settled };
}

const getDeps = productionDeps();

/** The scheduled Lambda's handler (an EventBridge event; its content is not used). */
export const handler = jobHandler(async (): Promise<RecheckResult> => recheckPayments(await getDeps()));
