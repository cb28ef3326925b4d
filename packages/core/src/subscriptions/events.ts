/**
 * Payment events: the audit rows of the purchase path (spec "Payment event", Events), one row per step, read-only
 * in admin. Kinds are the spec's list. A row holds only what an auditor needs (order, kind, time, outcome, the
 * gateway's public codes and reference); never a merchant id, a token, a purchase token, a card hash or a body.
 *
 * Rows live in the order's partition (`ORDER#<id>`, sk `EVENT#…`); rows without an order (a callback with an
 * unknown authority) go to a partition per Tehran day, kept {@link UNMATCHED_EVENT_KEEP_DAYS} days (TTL).
 */
import { randomBytes } from 'node:crypto';
import { PutCommand, paginateQuery, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { tehranDay } from '../calendar/tehran';
import { epochSeconds } from '../clock';
import type { Db } from '../db/client';
import { keys } from '../db/keys';
import { put, type TxItem, transact } from '../db/transact';
import type { Deps } from '../deps';

export type PaymentEventKind =
  | 'order_created'
  | 'discount_applied'
  | 'gateway_redirect'
  | 'gateway_request_failed'
  | 'callback_received'
  | 'callback_unknown_authority'
  | 'payment_result'
  | 'marketplace_start'
  | 'admin_cancel'
  | 'admin_refund';

/** Which path produced a `payment_result` (spec Events: callback, re-check, 100% code; marketplace later). */
export type PaymentPath = 'callback' | 'recheck' | 'discount';

/** The fields a row may carry; nothing else is ever written (so nothing secret can slip in). */
export interface PaymentEventDetails {
  userId?: number;
  via?: PaymentPath;
  /** Outcome of a `payment_result`: what the order is after it. */
  result?: 'paid' | 'failed' | 'unchanged';
  /** True for a duplicate or forged attempt that changed nothing (spec Events). */
  ignored?: boolean;
  /** Why it was ignored or failed, e.g. `duplicate`, `unknown_authority`, `not_pending`. */
  reason?: string;
  /** The `Status` query value of a callback (OK/NOK) as received. */
  callbackStatus?: string;
  authority?: string;
  /** The gateway's result code (100, 101, -51, …). */
  gatewayCode?: number;
  /** The gateway's payment reference (ref_id) of a verified payment. */
  refId?: string;
  planId?: number;
  /** Toman. */
  amount?: number;
  discountCode?: string;
  /** Toman. */
  discount?: number;
  percent?: number;
  /** Staff username of an admin action. */
  actor?: string;
  /** Days taken back by a refund. */
  days?: number;
  /** Toman of referral commission earned or reversed. */
  commission?: number;
  /** Human-readable note (e.g. the gateway's error message). */
  note?: string;
}

export interface PaymentEvent extends PaymentEventDetails {
  kind: PaymentEventKind;
  orderId: number | null;
  /** Epoch ms. */
  at: number;
}

export const UNMATCHED_EVENT_KEEP_DAYS = 90;

const allowed: ReadonlyArray<keyof PaymentEventDetails> = [
  'userId',
  'via',
  'result',
  'ignored',
  'reason',
  'callbackStatus',
  'authority',
  'gatewayCode',
  'refId',
  'planId',
  'amount',
  'discountCode',
  'discount',
  'percent',
  'actor',
  'days',
  'commission',
  'note',
];

/** Copies only the declared fields, truncating strings: a caller passing a whole object cannot leak it. */
function clean(details: PaymentEventDetails): PaymentEventDetails {
  const out: Record<string, unknown> = {};
  for (const name of allowed) {
    const value = details[name];
    if (value === undefined) continue;
    out[name] = typeof value === 'string' ? value.slice(0, 300) : value;
  }
  return out as PaymentEventDetails;
}

const rand = () => randomBytes(4).toString('hex');

/**
 * The transaction item of one event row of order `orderId` at `atMs`; `seq` orders rows written in one
 * transaction.
 */
export function eventItem(db: Db, orderId: number, atMs: number, kind: PaymentEventKind, details: PaymentEventDetails, seq = 0): TxItem {
  return put(
    db,
    { ...keys.paymentEvent(orderId, atMs, seq, rand()), kind, orderId, at: atMs, ...clean(details) },
    { condition: 'attribute_not_exists(pk)' },
  );
}

/** Writes one event row of an order on its own (steps that change nothing else). */
export async function recordEvent(deps: Deps, orderId: number, kind: PaymentEventKind, details: PaymentEventDetails): Promise<void> {
  const item = eventItem(deps.db, orderId, deps.clock.now(), kind, details).Put;
  await deps.db.doc.send(new PutCommand(item as NonNullable<typeof item>));
}

/**
 * Records a callback whose authority belongs to no order: `callback_unknown_authority` and an ignored
 * `payment_result`, in the unmatched partition of today.
 */
export async function recordUnmatchedCallback(deps: Deps, details: PaymentEventDetails): Promise<void> {
  const at = deps.clock.now();
  const day = tehranDay(at);
  const expiresAt = epochSeconds(at) + UNMATCHED_EVENT_KEEP_DAYS * 86_400;
  const row = (seq: number, kind: PaymentEventKind, extra: PaymentEventDetails) =>
    put(deps.db, {
      ...keys.unmatchedPaymentEvent(day, at, seq, rand()),
      kind,
      orderId: null,
      at,
      expiresAt,
      ...clean({ ...details, ...extra }),
    });
  await transact(deps.db, [
    row(0, 'callback_unknown_authority', {}),
    row(1, 'payment_result', { via: 'callback', result: 'unchanged', ignored: true, reason: 'unknown_authority' }),
  ]);
}

const strip = (item: Record<string, unknown>): PaymentEvent => {
  const { pk: _pk, sk: _sk, expiresAt: _e, ...event } = item;
  return event as unknown as PaymentEvent;
};

/** The events of an order, oldest first. */
export async function listOrderEvents(deps: Deps, orderId: number): Promise<PaymentEvent[]> {
  const items: PaymentEvent[] = [];
  const pages = paginateQuery(
    { client: deps.db.doc },
    {
      TableName: deps.db.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.order(orderId).pk, ':prefix': keys.paymentEventPrefix },
      ConsistentRead: true,
    },
  );
  for await (const page of pages) items.push(...(page.Items ?? []).map(strip));
  return items;
}

/** The unmatched events of Tehran day `day` (`YYYY-MM-DD`), oldest first. */
export async function listUnmatchedEvents(deps: Deps, day: string): Promise<PaymentEvent[]> {
  const page = await deps.db.doc.send(
    new QueryCommand({
      TableName: deps.db.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.unmatchedPaymentEventPartition(day) },
      ConsistentRead: true,
    }),
  );
  return (page.Items ?? []).map(strip);
}
