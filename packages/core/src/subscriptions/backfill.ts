/**
 * Migration `0003-admin-indexes`, subscriptions' part (idempotent, no Scan):
 * - `hasOrders` on every plan some order names (plan.entity.ts), from the orders index;
 * - `id` and gsi1 `PAYEVENTS` on every payment event row of every order, and on the unmatched rows still kept
 *   (paymentEvent.entity.ts);
 * - gsi2 `DISCOUNTS` on the advertised codes (the only codes written before the staff API that can be found
 *   without a Scan: migration 0002's WELCOME10 among them).
 */
import * as z from 'zod';
import { addDays, tehranDay } from '../calendar';
import type { Db } from '../db/client';
import { queryAll, updateItem } from '../db/items';
import { lazySchema } from '../lazySchema';
import { advertisedCodes, putDiscountCode } from './discountCode.entity';
import { UNMATCHED_EVENT_KEEP_DAYS } from './events';
import { allOrders } from './order.entity';
import { eventIndex, eventKeysOfOrder, unmatchedPartitionOf } from './paymentEvent.entity';
import { planKey } from './plan.entity';

const UnmatchedKey = lazySchema(() =>
  z.object({ pk: z.string(), sk: z.string(), id: z.string().optional() }).describe('payment event key'),
);
/** The rows written before rows carried an id. */
const unindexed = (rows: Array<{ pk: string; sk: string; id?: string }>) => rows.filter((r) => r.id === undefined);

async function indexRow(db: Db, row: { pk: string; sk: string }, suffix: string): Promise<void> {
  const index = eventIndex(suffix);
  await updateItem(db, row, 'SET id = :id, gsi1pk = :pk, gsi1sk = :sk', {
    condition: 'attribute_exists(pk)',
    values: { ':id': index.id, ':pk': index.gsi1pk, ':sk': index.gsi1sk },
  });
}

/** See the module doc; `now` (epoch ms) picks the unmatched days still kept. */
export async function backfillSubscriptionIndexes(db: Db, now: number): Promise<void> {
  const orders = await allOrders(db);
  for (const planId of new Set(orders.map((o) => o.planId))) {
    await updateItem(db, planKey(planId), 'SET hasOrders = :true', { condition: 'attribute_exists(pk)', values: { ':true': true } }).catch(
      () => undefined, // a plan deleted before (none could be) or never stored: nothing to mark
    );
  }
  for (const order of orders) {
    for (const row of unindexed(await eventKeysOfOrder(db, order.id))) await indexRow(db, row, row.sk.slice('EVENT#'.length));
  }
  const today = tehranDay(now);
  for (let back = 0; back <= UNMATCHED_EVENT_KEEP_DAYS; back++) {
    const rows = await queryAll(db, { partition: unmatchedPartitionOf(addDays(today, -back)) }, UnmatchedKey);
    for (const row of unindexed(rows)) await indexRow(db, row, row.sk);
  }
  for (const code of await advertisedCodes(db)) await putDiscountCode(db, code);
}
