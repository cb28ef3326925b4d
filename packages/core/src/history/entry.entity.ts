/**
 * Staff history (DESIGN §9 "Staff history": Django admin's LogEntry): one entry per staff write, sign-in, sign-out
 * and export, written inside the transaction of the change it records, so a write that fails leaves no entry and
 * an entry never names a change that did not happen.
 *
 * Every filter of the history list is one Query of its own partition (never a Scan), newest first by the sort key,
 * which starts with the time: an entry is stored as two items carrying the same attributes.
 *
 * | item          | pk                                   | sk   | gsi1                          | gsi2            |
 * |---------------|--------------------------------------|------|-------------------------------|-----------------|
 * | history entry | HISTORY#<model>#<objectId or ->      | <id> | HISTORYBY#<staff> / <id>      | HISTORY / <id>  |
 * | its copy      | HISTORYACTION#<action>               | <id> | HISTORYMODEL#<model> / <id>   | —               |
 *
 * `<id>` is `<epoch ms, 13 digits>-<8 hex>`: unique, sorted by time, so a date range is a sort key condition in
 * every partition. Staff writes are a few a second at most, so the one `HISTORY` partition of gsi2 (every entry by
 * time) is far from DynamoDB's per-partition limits. Entries are never changed nor deleted (no TTL).
 */
import { randomBytes } from 'node:crypto';
import * as z from 'zod';
import type { Db } from '../db/client';
import { type Page, type QuerySpec, queryAll, queryPage, timeRange } from '../db/items';
import { pad } from '../db/keys';
import { put, type TxItem } from '../db/transact';
import { lazySchema } from '../lazySchema';

/** What staff did (Django's addition, change, deletion, and the named actions of DESIGN §9). */
export const HISTORY_ACTIONS = [
  'add',
  'change',
  'delete',
  'cancel',
  'refund',
  'reply',
  'close',
  'end_sessions',
  'sign_in',
  'sign_out',
  'export',
] as const;
export type HistoryAction = (typeof HISTORY_ACTIONS)[number];

/** The models of the admin permissions (docs/admin-api.md "Permissions") and `logentry` (exports of the history). */
export const HISTORY_MODELS = [
  'user',
  'order',
  'paymentevent',
  'plan',
  'discountcode',
  'offer',
  'ticket',
  'notification',
  'marketplacecredential',
  'tutorfeedback',
  'tutorusage',
  'staff',
  'session',
  'otprecord',
  'logentry',
] as const;
export type HistoryModel = (typeof HISTORY_MODELS)[number];

/** One field's change: `[before, after]` (null: absent), or `"changed"` for a secret (a password). */
const FieldChange = lazySchema(() => z.union([z.tuple([z.unknown(), z.unknown()]), z.literal('changed')]));
export type FieldChange = z.infer<typeof FieldChange>;
export type Changes = Record<string, FieldChange>;

export const HistoryItem = lazySchema(() =>
  z
    .object({
      id: z.string(),
      /** Epoch ms. */
      at: z.number().int(),
      /** The staff member's username (`createsuperuser` for the command line). */
      staff: z.string(),
      action: z.enum(HISTORY_ACTIONS),
      model: z.enum(HISTORY_MODELS),
      /** The record's id as a string (a username, a code, a numeric id); null for an export. */
      objectId: z.string().nullable(),
      /** How the record read at the time (a plan's title, a learner's public id, an export's filters). */
      objectRepr: z.string(),
      changes: z.record(z.string(), FieldChange),
    })
    .describe('history entry'),
);
export type HistoryEntry = z.infer<typeof HistoryItem>;

/** What a use case records; `id` is made here. */
export type NewHistoryEntry = Omit<HistoryEntry, 'id' | 'objectId'> & { objectId: string | number | null };

const ALL = 'HISTORY';
const objectPartition = (model: string, objectId: string | null) => `HISTORY#${model}#${objectId ?? '-'}`;
const staffPartition = (staff: string) => `HISTORYBY#${staff}`;
const actionPartition = (action: string) => `HISTORYACTION#${action}`;
const modelPartition = (model: string) => `HISTORYMODEL#${model}`;

/** A new entry id at `at` (epoch ms): the time first, so ids sort by time. */
const newEntryId = (at: number): string => `${pad(at, 13)}-${randomBytes(4).toString('hex')}`;

/** The two transaction items that store `entry` (see the module doc); put them in the change's own transaction. */
export function historyItems(db: Db, entry: NewHistoryEntry): TxItem[] {
  const stored: HistoryEntry = { ...entry, id: newEntryId(entry.at), objectId: entry.objectId === null ? null : String(entry.objectId) };
  const { id } = stored;
  return [
    put(db, {
      pk: objectPartition(stored.model, stored.objectId),
      sk: id,
      gsi1pk: staffPartition(stored.staff),
      gsi1sk: id,
      gsi2pk: ALL,
      gsi2sk: id,
      ...stored,
    }),
    put(db, { pk: actionPartition(stored.action), sk: id, gsi1pk: modelPartition(stored.model), gsi1sk: id, ...stored }),
  ];
}

const RecordIdOnly = lazySchema(() => z.object({ objectId: z.string().nullable() }).describe('history entry'));

/**
 * The record ids (`objectId`, as text) of every entry of `action` on `model` ever written, e.g. every plan that was
 * deleted: one strongly consistent Query of the action's partition, filtered by model, reading only `objectId`. An
 * entry is written in its change's transaction, so a change that committed before this read is in it.
 */
export async function recordIdsOf(db: Db, model: HistoryModel, action: HistoryAction): Promise<string[]> {
  const rows = await queryAll(
    db,
    {
      partition: actionPartition(action),
      filter: { condition: '#model = :model', names: { '#model': 'model' }, values: { ':model': model } },
      projection: ['objectId'],
    },
    RecordIdOnly,
  );
  return rows.flatMap((row) => (row.objectId === null ? [] : [row.objectId]));
}

/** Which entries to read: one partition chosen by the most selective filter, the others applied within it. */
export interface HistoryFilter {
  model?: HistoryModel;
  /** Needs `model`. */
  objectId?: string;
  staff?: string;
  action?: HistoryAction;
  /** Epoch ms, inclusive. */
  from?: number;
  /** Epoch ms, inclusive. */
  to?: number;
  /** Newest first (default) or oldest first. */
  order?: 'asc' | 'desc';
}

/** The partition a filter reads and the filters left for its FilterExpression. */
function partitionOf(filter: HistoryFilter): { spec: Pick<QuerySpec, 'index' | 'partition'>; rest: Record<string, string> } {
  const { model, objectId, staff, action } = filter;
  const rest = (kept: Record<string, string | undefined>) =>
    Object.fromEntries(Object.entries(kept).filter(([, v]) => v !== undefined)) as Record<string, string>;
  if (model && objectId !== undefined) return { spec: { partition: objectPartition(model, objectId) }, rest: rest({ staff, action }) };
  if (staff) return { spec: { index: 'gsi1', partition: staffPartition(staff) }, rest: rest({ model, action }) };
  if (action) return { spec: { partition: actionPartition(action) }, rest: rest({ model }) };
  if (model) return { spec: { index: 'gsi1', partition: modelPartition(model) }, rest: {} };
  return { spec: { index: 'gsi2', partition: ALL }, rest: {} };
}

/**
 * One Query of the entries `filter` selects: at most `limit` evaluated, from `cursor`. Errors: `validation_error`
 * (cursor of another list).
 */
export function historyPage(db: Db, filter: HistoryFilter, limit: number, cursor?: string): Promise<Page<HistoryEntry>> {
  const { spec, rest } = partitionOf(filter);
  const fields = Object.keys(rest);
  const sortKey = timeRange('', 13, filter);
  return queryPage(
    db,
    {
      ...spec,
      ...(sortKey ? { sortKey } : {}),
      descending: filter.order !== 'asc',
      limit,
      ...(fields.length
        ? {
            filter: {
              condition: fields.map((f) => `#${f} = :${f}`).join(' AND '),
              names: Object.fromEntries(fields.map((f) => [`#${f}`, f])),
              values: Object.fromEntries(fields.map((f) => [`:${f}`, rest[f]])),
            },
          }
        : {}),
    },
    HistoryItem,
    cursor,
  );
}
