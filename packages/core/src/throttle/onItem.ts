/**
 * A throttle window counted on an item the request reads anyway (issue 15: reading the signed-in learner and
 * counting their hit in one DynamoDB request instead of two).
 *
 * A read route scoped per learner (`by: 'user'` in `infra/routes.ts` throttleScopes) loads the user item for the
 * session check. Instead of a GetItem and an UpdateItem on the scope's window item (hit.ts), {@link hitOnItem}
 * sends one UpdateItem on the user item that counts the hit and returns the whole item (`ALL_NEW`).
 *
 * DynamoDB's update expressions cannot branch ("same window: add one, else start at one"), so the count of a
 * scope lives in one of {@link SLOTS} attributes `thr#<scope>#<slot>`, slot = window index mod {@link SLOTS},
 * whose value is `<window start, epoch seconds> * 1,000,000 + <count>`:
 *
 *     SET slot = if_not_exists(slot, start * 1e6) + 1  REMOVE <the other slots of the scope>
 *     condition: <the caller's guard> AND (attribute_not_exists(slot) OR start * 1e6 <= slot < start * 1e6 + limit)
 *
 * Every hit removes the scope's other slots, so the item holds at most one attribute per scope. A slot still
 * holding a count is therefore the slot of the window of the learner's last hit: the current window (counted
 * on), or a window a multiple of {@link SLOTS} windows ago (stale: the condition fails, and one more conditional
 * write starts the window at 1; only then does a call cost two requests). The condition also refuses a full
 * window (429 `throttled`, nothing written) and the caller's guard (its session check) in the same request; on a
 * refusal DynamoDB hands back the item as it stood, which tells the three apart without another read.
 *
 * A hit counted here and one counted on the window item (hit.ts, ticket.ts) never meet: a scope is counted one
 * way or the other, decided by the route (packages/functions `group.ts`). With clocks a few milliseconds apart
 * across Lambda instances, a hit at a window's edge may restart the count of the window next to it: a fixed
 * window is only this exact anyway.
 */

import { epochSeconds } from '../clock';
import { tooManyConflicts } from '../db/conditions';
import { updateOrOld } from '../db/items';
import type { Key } from '../db/keys';
import type { Values } from '../db/transact';
import type { Deps } from '../deps';
import { countEvent } from '../metrics';
import { throttleErrors } from './errors';
import type { ThrottleRule } from './rule';
import { windowOf } from './window.entity';

/** Slots per scope. Prime and coprime with 24 and 168, so a learner back at the same hour of a day or a week
 * finds no stale count (windows of an hour). */
export const SLOTS = 11;
/** A count is stored below this factor: limits of a million or more hits per window count as 999,999. */
const COUNT_RANGE = 1_000_000;
/** Conditional writes tried before giving up (each lost only to a concurrent request of the same learner). */
const MAX_TRIES = 4;

const slotName = (scope: string, slot: number): string => `thr#${scope}#${slot}`;

/** What the request must hold of the item, besides the throttle (the session check). */
export interface ItemGuard {
  /** Condition expression on the item, e.g. `attribute_exists(pk) AND sessionId = :sid`. */
  condition: string;
  values: Values;
  /** The same condition, judged on the item as it stood (undefined: no item). */
  holds(item: Record<string, unknown> | undefined): boolean;
}

/**
 * Counts one request in `scope` under `rule` on the item at `key` and returns the whole item after it; undefined
 * when `guard` does not hold (nothing counted, nothing written). Errors: `throttled` (429, `retryAfter` = seconds
 * to the window's end, at least 1) when the window already holds `rule.limit` hits. A write lost to the learner's
 * own concurrent hit, or refused while one of their transactions writes the item (TransactionConflictException),
 * is tried again, up to {@link MAX_TRIES} writes; past that `database_busy` (503, retry after 1 s).
 */
export async function hitOnItem(
  deps: Deps,
  key: Key,
  scope: string,
  rule: ThrottleRule,
  guard: ItemGuard,
): Promise<Record<string, unknown> | undefined> {
  // A count is kept below COUNT_RANGE: a larger limit (the bench's BENCH_THROTTLE_LIMIT) is as good as unlimited.
  const limit = Math.min(rule.limit, COUNT_RANGE - 1);
  const nowSeconds = epochSeconds(deps.clock.now());
  const window = windowOf(nowSeconds, rule.windowSeconds);
  const base = window.start * COUNT_RANGE;
  const slot = Math.floor(window.start / rule.windowSeconds) % SLOTS;
  const slotAttribute = slotName(scope, slot);
  const names: Record<string, string> = { '#slot': slotAttribute };
  const others: string[] = [];
  for (let i = 0; i < SLOTS; i++) {
    if (i === slot) continue;
    names[`#o${i}`] = slotName(scope, i);
    others.push(`#o${i}`);
  }
  const remove = `REMOVE ${others.join(', ')}`;
  let stale: number | undefined;
  for (let tries = 0; tries < MAX_TRIES; tries++) {
    const outcome = await (stale === undefined
      ? updateOrOld(deps.db, key, `SET #slot = if_not_exists(#slot, :base) + :one ${remove}`, {
          condition: `(${guard.condition}) AND (attribute_not_exists(#slot) OR (#slot >= :base AND #slot < :full))`,
          names,
          values: { ...guard.values, ':base': base, ':one': 1, ':full': base + limit },
        })
      : // The slot holds a count of a window SLOTS windows ago: start this window at 1, unless a hit just did.
        updateOrOld(deps.db, key, `SET #slot = :first ${remove}`, {
          condition: `(${guard.condition}) AND #slot = :stale`,
          names,
          values: { ...guard.values, ':first': base + 1, ':stale': stale },
        })
    ).catch((error: unknown) => {
      // A transaction of the same learner (an answer, a completion) is writing the user item: try again.
      if ((error as { name?: string }).name === 'TransactionConflictException') {
        countEvent('TransactionConflictRetries', {});
        return undefined;
      }
      throw error;
    });
    if (outcome === undefined) continue;
    if ('updated' in outcome) return outcome.updated;
    if (!guard.holds(outcome.refused)) return undefined;
    const stored = outcome.refused?.[slotAttribute];
    if (typeof stored === 'number' && stored >= base + limit) {
      throw throttleErrors.windowFull(scope, window.end, nowSeconds);
    }
    // Otherwise a stale count to restart, or a concurrent hit of the same learner changed the slot: try again.
    stale = typeof stored === 'number' && stored < base ? stored : undefined;
  }
  throw tooManyConflicts();
}
