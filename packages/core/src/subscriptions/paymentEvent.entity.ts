/**
 * Payment events: the audit rows of the purchase path (spec "Payment event", Events), one row per step, never
 * changed once written, read-only in admin.
 *
 * | item            | pk                              | sk                                     | notes                         |
 * |-----------------|---------------------------------|----------------------------------------|-------------------------------|
 * | payment event   | ORDER#<orderId>                 | EVENT#<at ms 15>#<seq 2>#<rand hex 8>  | in the order's partition      |
 * | unmatched event | PAYEVENT#UNMATCHED#<YYYY-MM-DD> | <at ms 15>#<seq 2>#<rand hex 8>        | no order (unknown authority); Tehran day; TTL `expiresAt` |
 *
 * Every row also carries `id` (`<at ms 15>-<seq 2>-<rand hex 8>`) and gsi1 `PAYEVENTS` / `<at ms 15>#<seq 2>#<rand
 * hex 8>`: the staff's list of every event newest first across orders (rows written before it get both from
 * migration `0003-admin-indexes`).
 *
 * A row holds only the fields of {@link PaymentEventDetails} (so nothing secret can slip in: never a merchant id,
 * a token, a purchase token (not even its digest), a card hash or a body); strings are cut at 300 characters. `seq` orders the rows
 * one transaction writes; `rand` keeps two rows of one millisecond apart.
 */
import { randomBytes } from 'node:crypto';
import * as z from 'zod';
import type { Db } from '../db/client';
import { type Page, putItem, queryAll, queryPage, timeRange } from '../db/items';
import { type Key, pad } from '../db/keys';
import { put, type TxItem } from '../db/transact';
import { lazySchema } from '../lazySchema';
import { orderKey } from './order.entity';

const EVENT_PREFIX = 'EVENT#';
const unmatchedPartition = (day: string): string => `PAYEVENT#UNMATCHED#${day}`;
/** The partition of the unmatched rows of Tehran day `day` (migrations). */
export const unmatchedPartitionOf = unmatchedPartition;
const rowSuffix = (atMs: number, seq: number): string => `${pad(atMs, 15)}#${pad(seq, 2)}#${randomBytes(4).toString('hex')}`;
const ALL_EVENTS_PARTITION = 'PAYEVENTS';
/** The id and gsi1 attributes of the row whose sort key ends with `suffix`. */
export const eventIndex = (suffix: string) => ({ id: suffix.replaceAll('#', '-'), gsi1pk: ALL_EVENTS_PARTITION, gsi1sk: suffix });

const eventKey = (orderId: number, atMs: number, seq: number): Key => ({
  pk: orderKey(orderId).pk,
  sk: `${EVENT_PREFIX}${rowSuffix(atMs, seq)}`,
});
const unmatchedEventKey = (day: string, atMs: number, seq: number): Key => ({ pk: unmatchedPartition(day), sk: rowSuffix(atMs, seq) });

export const PaymentEventKind = z.enum([
  'order_created',
  'discount_applied',
  'gateway_redirect',
  'gateway_request_failed',
  'callback_received',
  'callback_unknown_authority',
  'payment_result',
  'marketplace_start',
  'admin_cancel',
  'admin_refund',
]);
export type PaymentEventKind = z.infer<typeof PaymentEventKind>;

/** Which path produced a `payment_result` (spec Events: callback, re-check, 100% code, marketplace, marketplace renewal). */
export const PaymentPath = z.enum(['callback', 'recheck', 'discount', 'marketplace', 'marketplace_renewal']);
export type PaymentPath = z.infer<typeof PaymentPath>;

/** The fields a row may carry; nothing else is ever written. */
const PaymentEventDetails = lazySchema(() =>
  z.object({
    userId: z.number().int().optional(),
    via: PaymentPath.optional(),
    /** Outcome of a `payment_result`: what the order is after it (`refunded`, `cancelled`: ended at the marketplace). */
    result: z.enum(['paid', 'failed', 'unchanged', 'refunded', 'cancelled']).optional(),
    /** True for a duplicate or forged attempt that changed nothing (spec Events). */
    ignored: z.boolean().optional(),
    /** Why it was ignored or failed, e.g. `duplicate`, `unknown_authority`, `not_paid`, `order_refunded`. */
    reason: z.string().optional(),
    /** The `Status` query value of a callback (OK/NOK) as received. */
    callbackStatus: z.string().optional(),
    authority: z.string().optional(),
    /** The gateway's result code (100, 101, -51, …). */
    gatewayCode: z.number().int().optional(),
    /** The gateway's payment reference (ref_id) of a verified payment. */
    refId: z.string().optional(),
    planId: z.number().int().optional(),
    /** Toman. */
    amount: z.number().optional(),
    discountCode: z.string().optional(),
    /** Toman. */
    discount: z.number().optional(),
    percent: z.number().optional(),
    /** Staff username of an admin action. */
    actor: z.string().optional(),
    /** Days taken back by a refund. */
    days: z.number().optional(),
    /** Toman of referral commission earned or reversed. */
    commission: z.number().optional(),
    /** Marketplace product id (SKU) of a marketplace step. */
    sku: z.string().optional(),
    /** End of the marketplace subscription period (epoch ms), as the marketplace reported it. */
    validUntil: z.number().optional(),
    /** The marketplace's answer: its HTTP status (200, 404, ...) and whether the subscription renews itself. */
    marketplaceStatus: z.number().int().optional(),
    autoRenewing: z.boolean().optional(),
    /** Human-readable note (e.g. the gateway's error message). */
    note: z.string().optional(),
  }),
);
export type PaymentEventDetails = z.infer<typeof PaymentEventDetails>;

export const PaymentEventItem = lazySchema(() =>
  PaymentEventDetails.unwrap()
    .extend({
      /** `<at ms 15>-<seq 2>-<rand hex 8>` (absent only on rows not yet migrated). */
      id: z.string().optional(),
      kind: PaymentEventKind,
      /** Null on an unmatched row. */
      orderId: z.number().int().nullable(),
      /** Epoch ms. */
      at: z.number().int(),
    })
    .describe('payment event'),
);
export type PaymentEvent = z.infer<typeof PaymentEventItem>;

/** The declared detail fields (read at the first event written, not at import: lazySchema). */
const detailFields = () => PaymentEventDetails.unwrap().keyof().options;

/** Copies only the declared fields, cutting strings: a caller passing a whole object cannot leak it. */
function clean(details: PaymentEventDetails): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of detailFields()) {
    const value = details[name];
    if (value === undefined) continue;
    out[name] = typeof value === 'string' ? value.slice(0, 300) : value;
  }
  return out;
}

/** The row of order `orderId` at `atMs` (not yet written). */
const orderEventRow = (orderId: number, atMs: number, kind: PaymentEventKind, details: PaymentEventDetails, seq: number) => {
  const key = eventKey(orderId, atMs, seq);
  return { ...key, ...eventIndex(key.sk.slice(EVENT_PREFIX.length)), ...eventFields(orderId, atMs, kind, details) };
};

const eventFields = (orderId: number | null, atMs: number, kind: PaymentEventKind, details: PaymentEventDetails) => ({
  kind,
  orderId,
  at: atMs,
  ...clean(details),
});

/** The transaction item of one event row of order `orderId` at `atMs` (condition: a new row). */
export const eventItem = (db: Db, orderId: number, atMs: number, kind: PaymentEventKind, details: PaymentEventDetails, seq = 0): TxItem =>
  put(db, orderEventRow(orderId, atMs, kind, details, seq), { condition: 'attribute_not_exists(pk)' });

/** Writes one event row of an order on its own (steps that change nothing else). */
export const putEvent = (db: Db, orderId: number, atMs: number, kind: PaymentEventKind, details: PaymentEventDetails): Promise<void> =>
  putItem(db, orderEventRow(orderId, atMs, kind, details, 0), { condition: 'attribute_not_exists(pk)' });

/** The transaction item of one unmatched row of Tehran day `day`, kept until `expiresAt` (epoch seconds, TTL). */
export const unmatchedEventItem = (
  db: Db,
  day: string,
  atMs: number,
  seq: number,
  expiresAt: number,
  kind: PaymentEventKind,
  details: PaymentEventDetails,
): TxItem => {
  const key = unmatchedEventKey(day, atMs, seq);
  return put(db, { ...key, ...eventIndex(key.sk), ...eventFields(null, atMs, kind, details), expiresAt });
};

/** The events of an order, oldest first. */
export const eventsOfOrder = (db: Db, orderId: number): Promise<PaymentEvent[]> =>
  queryAll(db, { partition: orderKey(orderId).pk, sortKey: { beginsWith: EVENT_PREFIX } }, PaymentEventItem);

/** The unmatched events of Tehran day `day` (`YYYY-MM-DD`), oldest first. */
export const unmatchedEventsOfDay = (db: Db, day: string): Promise<PaymentEvent[]> =>
  queryAll(db, { partition: unmatchedPartition(day) }, PaymentEventItem);

/** A list of payment events for the staff: every event (gsi1), or `orderId`'s, newest first, optionally of one kind. */
/** Which payment events: of one order, of one kind, at `from`..`to` (epoch ms, inclusive), newest first unless `asc`. */
export interface EventFilter {
  orderId?: number;
  kind?: PaymentEventKind;
  from?: number;
  to?: number;
  order?: 'asc' | 'desc';
}

export const eventsPage = (db: Db, options: EventFilter & { limit: number; cursor?: string }): Promise<Page<PaymentEvent>> =>
  queryPage(
    db,
    {
      ...(options.orderId === undefined
        ? { index: 'gsi1', partition: ALL_EVENTS_PARTITION, sortKey: timeRange('', 15, options) }
        : { partition: orderKey(options.orderId).pk, sortKey: timeRange(EVENT_PREFIX, 15, options) ?? { beginsWith: EVENT_PREFIX } }),
      descending: options.order !== 'asc',
      limit: options.limit,
      ...(options.kind ? { filter: { condition: 'kind = :kind', values: { ':kind': options.kind } } } : {}),
    },
    PaymentEventItem,
    options.cursor,
  );

/** Every row of order `orderId` with its sort key (migrations). */
export const eventKeysOfOrder = (db: Db, orderId: number): Promise<Array<{ pk: string; sk: string; id?: string }>> =>
  queryAll(db, { partition: orderKey(orderId).pk, sortKey: { beginsWith: EVENT_PREFIX } }, EventKey);
const EventKey = lazySchema(() => z.object({ pk: z.string(), sk: z.string(), id: z.string().optional() }).describe('payment event key'));
