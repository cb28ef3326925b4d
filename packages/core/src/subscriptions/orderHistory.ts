/**
 * The history entry of a staff action on an order (DESIGN §9): cancel and refund, recorded in the action's own
 * transaction. The fields staff actions change, before and after (times ISO), and what else the action changed
 * (a refund's subscription end and commission).
 */
import type { TxItem } from '../db/transact';
import type { Deps } from '../deps';
import { type Changes, fieldChanges, historyItems } from '../history';
import type { Order } from './order.entity';

const iso = (ms: number | undefined): string | null => (ms === undefined ? null : new Date(ms).toISOString());

/** The fields of `order` a staff action changes. */
const actionFields = (order: Order) => ({
  status: order.status,
  cancelledAt: iso(order.cancelledAt),
  cancelledBy: order.cancelledBy ?? null,
  refundedAt: iso(order.refundedAt),
  refundedBy: order.refundedBy ?? null,
  discountReleased: order.discountReleased ?? null,
});

/** The history entry items of `action` by `actor` at `at`, `before` → `after`, with `more` changes. */
export function orderHistory(
  deps: Pick<Deps, 'db'>,
  entry: { actor: string; action: 'cancel' | 'refund'; at: number },
  before: Order,
  after: Order,
  more: Changes = {},
): TxItem[] {
  return historyItems(deps.db, {
    at: entry.at,
    staff: entry.actor,
    action: entry.action,
    model: 'order',
    objectId: before.id,
    objectRepr: `#${before.id} ${before.planTitle} (${before.amount} toman)`,
    changes: { ...fieldChanges(actionFields(before), actionFields(after)), ...more },
  });
}
