/**
 * A throttle hit counted inside the route's own transaction (issue 15: one DynamoDB request less per call).
 *
 * The edge hands a route that writes a ticket instead of counting the request first (`hit.ts`). The route's
 * domain writes with {@link transactCounting}, which adds the ticket's counter item to its TransactWriteItems:
 * `ADD count 1` under the condition `count < limit`, so the hit is counted exactly when the change is made, and
 * a full window cancels the whole transaction (nothing is written) and answers 429 `throttled`: the
 * cancellation reason of the ticket's item tells it apart from the route's own conditions. A request whose
 * transaction never committed (an error, a replay, a lost race given up) is counted afterwards by the edge
 * with an ordinary hit, so every request still counts once. The counter item is the one `hit.ts` writes
 * (window.entity.ts): both ways share one count.
 */

import { epochSeconds } from '../clock';
import { cancellationReasons } from '../db/conditions';
import { type TxItem, transact, update } from '../db/transact';
import type { Deps } from '../deps';
import { throttleErrors } from './errors';
import type { ThrottleRule } from './rule';
import type { ThrottleTicket } from './ticketShape';
import { throttleWindowKey, windowOf } from './window.entity';

export type { ThrottleTicket } from './ticketShape';

/**
 * The dependencies of a use case that counts the request's throttle hit in its own transaction: `throttle` must be
 * stated, the ticket of a route whose definition says `throttleInTransaction` (the edge gives it on a copy of the
 * worker's dependencies), or undefined where nothing is to be counted here (a job, a test: {@link uncounted}). A route
 * not so flagged has no way to call such a use case (its input's `deps` is plain `Deps`), so a route's flag and its
 * domain call cannot disagree that way (packages/functions/src/lib/route.ts).
 */
export type CountingDeps = Deps & { throttle: ThrottleTicket | undefined };

/** `deps` for a counting use case called outside a throttled request: its transactions count nothing. */
export const uncounted = (deps: Deps): CountingDeps => ({ ...deps, throttle: undefined });

/** A ticket for one request of `subject` in `scope` under `rule` (values of `infra/routes.ts` throttleScopes). */
export const throttleTicket = (scope: string, subject: string, rule: ThrottleRule): ThrottleTicket => ({
  scope,
  subject,
  rule,
  counted: false,
});

/** The transaction item that counts `ticket` at `nowMs`: fails its condition when the window is full. */
function ticketItem(deps: Deps, ticket: ThrottleTicket, nowMs: number): TxItem {
  const window = windowOf(epochSeconds(nowMs), ticket.rule.windowSeconds);
  return update(deps.db, throttleWindowKey(ticket.scope, ticket.subject, window.start), 'ADD #count :one SET expiresAt = :exp', {
    condition: 'attribute_not_exists(#count) OR #count < :limit',
    names: { '#count': 'count' },
    values: { ':one': 1, ':exp': window.expiresAt, ':limit': ticket.rule.limit },
  });
}

/**
 * `transact(deps.db, items)`, counting the request's throttle ticket (`deps.throttle`) in the same transaction
 * while it is not counted yet; without a ticket, a plain transaction. Errors: `throttled` (429, Retry-After =
 * seconds to the window's end) when the ticket's window is full, and then nothing is written; otherwise what
 * `transact` raises (TransactionCanceledException for the route's own conditions).
 */
export async function transactCounting(deps: CountingDeps, items: TxItem[]): Promise<void> {
  const ticket = deps.throttle;
  if (!ticket || ticket.counted) return transact(deps.db, items);
  const now = deps.clock.now();
  try {
    await transact(deps.db, [...items, ticketItem(deps, ticket, now)]);
  } catch (error) {
    if (cancellationReasons(error)[items.length] === 'ConditionalCheckFailed') {
      const seconds = epochSeconds(now);
      throw throttleErrors.windowFull(ticket.scope, windowOf(seconds, ticket.rule.windowSeconds).end, seconds);
    }
    throw error;
  }
  ticket.counted = true;
}
