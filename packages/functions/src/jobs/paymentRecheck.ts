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
 * The gateway's list is read once per run, and a buyer is re-checked only when that list, an abandoned or an expired
 * checkout gives one of their orders work; a run stops taking buyers {@link MARGIN_MS} before its Lambda's timeout.
 *
 * Result: `{ windowHours, buyers, settled: [{ orderId, status }], deferred }`. A buyer whose re-check throws anything else is
 * logged and the run then fails (after the others), so the scheduler retries and, after its retries, the event
 * lands in the job's dead-letter queue (alarmed).
 *
 * Schedule: the Jobs stack's SST Cron `rate(15 minutes)`; locally `npm run job:payment-recheck` against a running
 * `npm start` (scripts/payment-recheck.ts).
 */
import { type Deps, logger } from '@mathisland/core';
import {
  hasRecheckWork,
  listOrders,
  type Order,
  RECHECK_WINDOW_HOURS,
  recheckOrders,
  unpaidAtGateway,
  unverifiedAuthorities,
} from '@mathisland/core/subscriptions';
import { productionDeps } from '../lib/deps';
import { jobHandler } from '../lib/job';
import { jobDeadline } from '../lib/jobDeadline';

/** Orders created this many hours ago or less are looked at (core's window: Shaparak returns unverified payments within ~72 h). */
export { RECHECK_WINDOW_HOURS };

/** Orders read per page of the all-orders index. */
const PAGE_SIZE = 100;

export interface RecheckResult {
  windowHours: number;
  buyers: number;
  settled: Array<{ orderId: number; status: Order['status'] }>;
  /** Buyers left for the next run: this one reached its deadline first. */
  deferred: number;
}

/** Time kept back from the Lambda's timeout for the buyer in flight. */
export const MARGIN_MS = 30_000;

/**
 * The orders created within the window ending at `nowMs` that the re-check may have work on (`hasRecheckWork`
 * without the gateway's list), newest first.
 */
async function candidateOrders(deps: Deps, nowMs: number): Promise<Order[]> {
  const since = nowMs - RECHECK_WINDOW_HOURS * 3_600_000;
  const orders: Order[] = [];
  let cursor: string | undefined;
  do {
    const page = await listOrders(deps, { limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) });
    for (const order of page.items) {
      if (order.createdAt < since) return orders;
      if (hasRecheckWork(order, nowMs)) orders.push(order);
    }
    cursor = page.nextCursor;
  } while (cursor);
  return orders;
}

/**
 * One run of the job on `deps`. The gateway's paid-but-unverified list is the same for every buyer: it is read once
 * for the run, and only when some order may need it; a buyer is re-checked only when one of their orders has work
 * against that list (listed, an abandoned checkout, or an expired one), so a failed order the gateway does not list
 * costs nothing. The run stops taking new buyers at `deadlineMs` (epoch ms; `MARGIN_MS` before the Lambda's timeout)
 * and the next run, 15 minutes on, continues. Errors: the first error a buyer's re-check threw other than gateway
 * trouble (which the re-check absorbs), after every buyer was tried.
 */
export async function recheckPayments(deps: Deps, options: { deadlineMs?: number } = {}): Promise<RecheckResult> {
  const now = deps.clock.now();
  const candidates = await candidateOrders(deps, now);
  const listed = deps.gateway.configured && candidates.some((o) => unpaidAtGateway(o, now)) ? await unverifiedAuthorities(deps) : undefined;
  // Without the list (the gateway did not answer), only expired and abandoned checkouts have work.
  const buyers = [...new Set(candidates.filter((o) => hasRecheckWork(o, now, listed ?? new Set())).map((o) => o.userId))];
  const settled: RecheckResult['settled'] = [];
  const failures: unknown[] = [];
  let done = 0;
  for (const userId of buyers) {
    if (options.deadlineMs !== undefined && Date.now() >= options.deadlineMs) break;
    done++;
    try {
      settled.push(...(await recheckOrders(deps, userId, { unverified: async () => listed })));
    } catch (error) {
      failures.push(error);
      logger.error('payment re-check failed for a buyer', { userId, reason: (error as Error).message });
    }
  }
  const deferred = buyers.length - done;
  logger.info('payment re-check', {
    windowHours: RECHECK_WINDOW_HOURS,
    buyers: buyers.length,
    settled: settled.length,
    failed: failures.length,
    deferred,
  });
  if (failures.length) throw failures[0];
  return { windowHours: RECHECK_WINDOW_HOURS, buyers: buyers.length, settled, deferred };
}

const getDeps = productionDeps();

/** The scheduled Lambda's handler (an EventBridge event; its content is not used). */
export const handler = jobHandler(
  async (context): Promise<RecheckResult> => recheckPayments(await getDeps(), jobDeadline(context, MARGIN_MS)),
);
