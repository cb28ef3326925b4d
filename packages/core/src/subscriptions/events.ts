/**
 * The audit trail of the purchase path (spec "Payment event", Events): writing a step that changes nothing else,
 * recording a callback no order owns, and reading the rows back (admin, tests). Rows and their keys:
 * paymentEvent.entity.ts. Steps that change an order write their row inside that change's transaction
 * (`eventItem`).
 */
import { tehranDay } from '../calendar';
import { epochSeconds } from '../clock';
import { transact } from '../db/transact';
import type { Deps } from '../deps';
import {
  eventsOfOrder,
  type PaymentEvent,
  type PaymentEventDetails,
  type PaymentEventKind,
  putEvent,
  unmatchedEventItem,
  unmatchedEventsOfDay,
} from './paymentEvent.entity';

/** Days an unmatched row is kept (TTL). */
export const UNMATCHED_EVENT_KEEP_DAYS = 90;

/** Writes one event row of order `orderId`, now, on its own. */
export const recordEvent = (deps: Deps, orderId: number, kind: PaymentEventKind, details: PaymentEventDetails): Promise<void> =>
  putEvent(deps.db, orderId, deps.clock.now(), kind, details);

/**
 * Records a callback whose authority belongs to no order: `callback_unknown_authority` and an ignored
 * `payment_result`, in the unmatched partition of today (Tehran), kept {@link UNMATCHED_EVENT_KEEP_DAYS} days.
 */
export async function recordUnmatchedCallback(deps: Deps, details: PaymentEventDetails): Promise<void> {
  const at = deps.clock.now();
  const day = tehranDay(at);
  const expiresAt = epochSeconds(at) + UNMATCHED_EVENT_KEEP_DAYS * 86_400;
  await transact(deps.db, [
    unmatchedEventItem(deps.db, day, at, 0, expiresAt, 'callback_unknown_authority', details),
    unmatchedEventItem(deps.db, day, at, 1, expiresAt, 'payment_result', {
      ...details,
      via: 'callback',
      result: 'unchanged',
      ignored: true,
      reason: 'unknown_authority',
    }),
  ]);
}

/** The events of order `orderId`, oldest first (epoch ms `at`). */
export const listOrderEvents = (deps: Pick<Deps, 'db'>, orderId: number): Promise<PaymentEvent[]> => eventsOfOrder(deps.db, orderId);

/** The unmatched events of Tehran day `day` (`YYYY-MM-DD`), oldest first. */
export const listUnmatchedEvents = (deps: Pick<Deps, 'db'>, day: string): Promise<PaymentEvent[]> => unmatchedEventsOfDay(deps.db, day);
