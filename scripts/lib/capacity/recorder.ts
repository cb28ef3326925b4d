/**
 * The capacity model's recording DynamoDB client (issue 30; docs/capacity.md): an AWS SDK middleware on the worker's
 * own client (`Db.raw`) that asks every request for its consumed capacity (`ReturnConsumedCapacity: INDEXES`) and
 * records, per request, each item or partition it touched, in the table or a GSI, with the units DynamoDB reported.
 *
 * DynamoDB reports units per request, per table and per index; a request that touches several items (a
 * transaction, a batch) is split over its items by DynamoDB's own sizing rules (writes: 1 unit per KB, reads: per
 * 4 KB, twice in a transaction), scaled so that each request's parts sum to what DynamoDB reported. GSI writes go to
 * the index partitions an item enters and leaves: the recorder remembers the index keys of the items it saw written
 * ({@link Recorder.indexKeysOf}), so an update or delete knows the partition it changes.
 *
 * Who sent a request (a simulated learner, the board-snapshot job) and the simulated time come from an
 * AsyncLocalStorage context the simulation sets ({@link Recorder.run}).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db } from '@mathisland/core/db';
import { tableActions } from '../../../infra/permissions';

/** Who sent a request: a learner's action (scales with the learners), the schedule (does not), or setup (not counted). */
export type Origin = 'learner' | 'schedule' | 'setup';

/** The simulation's context of a request. */
export interface RequestContext {
  origin: Origin;
  /** Simulated time of the request, epoch ms. */
  now: () => number;
  /** `day` or `surge`. */
  phase: string;
  /** The simulated learner acting, when one is. */
  learner?: number;
}

/** One item or partition a request touched. */
export interface Access {
  /** `table`, or the GSI's name. */
  index: string;
  /** Partition key value (of the table or the index). */
  pk: string;
  /** Sort key of the item (table items only; undefined for a Query's range). */
  sk?: string;
  kind: 'read' | 'write';
  /** Capacity units attributed to this access. */
  units: number;
  /** Part of a TransactWriteItems / TransactGetItems. */
  tx: boolean;
}

/** One request as recorded. */
export interface RecordedRequest {
  operation: string;
  origin: Origin;
  phase: string;
  learner?: number;
  /** Simulated time, epoch ms. */
  at: number;
  accesses: Access[];
  /** Units DynamoDB reported for the request, all tables and indexes. */
  reported: number;
  /** Items a Query read (ScannedCount), its Limit, and whether it stopped there. */
  scanned?: number;
  limit?: number;
  limited?: boolean;
}

type Attr = Record<string, unknown>;
/** A key attribute as the request carries it (marshalled `{ S: ... }` or plain). */
const plain = (value: unknown): string => {
  if (typeof value === 'object' && value !== null) {
    const v = value as { S?: unknown; N?: unknown };
    if (v.S !== undefined) return String(v.S);
    if (v.N !== undefined) return String(v.N);
  }
  return String(value);
};
/** DynamoDB's size of an item, bytes: attribute names plus values (close enough to weigh a request's parts). */
const sizeOf = (item: Attr | undefined): number => (item ? JSON.stringify(item).length : 0);
const kb = (bytes: number, per: number) => Math.max(1, Math.ceil(bytes / per));

interface Consumed {
  TableName?: string;
  CapacityUnits?: number;
  Table?: { CapacityUnits?: number };
  GlobalSecondaryIndexes?: Record<string, { CapacityUnits?: number }>;
}

/** A part of a request before its units are known: where, what, and its weight by DynamoDB's sizing rules. */
interface Part {
  index: string;
  pk: string;
  sk?: string;
  kind: 'read' | 'write';
  weight: number;
}

const INDEX_KEYS = { gsi1: 'gsi1pk', gsi2: 'gsi2pk' } as const;

export class Recorder {
  readonly requests: RecordedRequest[] = [];
  readonly context = new AsyncLocalStorage<RequestContext>();
  /** The index partitions of the items written so far: `pk|sk` → index → partition key; and their sizes. */
  private readonly indexKeys = new Map<string, Record<string, string>>();
  private readonly sizes = new Map<string, number>();

  /** Runs `work` as `context` (its requests are recorded with it). */
  run<T>(context: RequestContext, work: () => Promise<T>): Promise<T> {
    return this.context.run(context, work);
  }

  /** The index partitions item `pk|sk` is in, as last written. */
  indexKeysOf(id: string): Record<string, string> {
    return this.indexKeys.get(id) ?? {};
  }

  /** Records every request `db` sends. */
  attach(db: Db): void {
    db.raw.middlewareStack.add(
      (next, context) => async (args) => {
        const input = args.input as Attr;
        const operation = String(context.commandName ?? '').replace(/Command$/, '');
        const ctx = this.context.getStore();
        if (!ctx || !SUPPORTED.has(operation)) return next(args);
        input.ReturnConsumedCapacity = 'INDEXES';
        const result = await next(args);
        this.record(operation, ctx, input, result.output as unknown as Attr);
        return result;
      },
      { step: 'serialize', name: 'capacityRecorder', priority: 'high' },
    );
  }

  private record(operation: string, ctx: RequestContext, input: Attr, output: Attr): void {
    const consumed = [output.ConsumedCapacity ?? []].flat() as Consumed[];
    const reported = consumed.reduce((n, c) => n + (c.CapacityUnits ?? 0), 0);
    const tableUnits = consumed.reduce((n, c) => n + (c.Table?.CapacityUnits ?? c.CapacityUnits ?? 0), 0);
    const indexUnits: Record<string, number> = {};
    for (const c of consumed) {
      for (const [name, u] of Object.entries(c.GlobalSecondaryIndexes ?? {}))
        indexUnits[name] = (indexUnits[name] ?? 0) + (u.CapacityUnits ?? 0);
    }
    const parts = this.partsOf(operation, input, output);
    const accesses: Access[] = [];
    const tx = operation.startsWith('Transact');
    // Each index's (and the table's) reported units, split over its parts by weight.
    for (const index of new Set(parts.map((p) => p.index))) {
      const mine = parts.filter((p) => p.index === index);
      const total = index === 'table' ? tableUnits : (indexUnits[index] ?? 0);
      const weights = mine.reduce((n, p) => n + p.weight, 0) || 1;
      for (const p of mine) accesses.push({ index, pk: p.pk, sk: p.sk, kind: p.kind, units: (total * p.weight) / weights, tx });
    }
    const request: RecordedRequest = { operation, origin: ctx.origin, phase: ctx.phase, at: ctx.now(), accesses, reported };
    if (ctx.learner !== undefined) request.learner = ctx.learner;
    if (operation === 'Query') {
      request.scanned = Number(output.ScannedCount ?? 0);
      if (input.Limit !== undefined) request.limit = Number(input.Limit);
      request.limited = input.Limit !== undefined && output.LastEvaluatedKey !== undefined;
    }
    this.requests.push(request);
  }

  /** The parts of a request, and what it teaches about the items' index keys and sizes. */
  private partsOf(operation: string, input: Attr, output: Attr): Part[] {
    const parts: Part[] = [];
    const read = (key: Attr, consistent: boolean, factor = 1) => {
      const id = `${plain(key.pk)}|${plain(key.sk)}`;
      parts.push({
        index: 'table',
        pk: plain(key.pk),
        sk: plain(key.sk),
        kind: 'read',
        weight: kb(this.sizes.get(id) ?? 1, 4096) * (consistent ? 1 : 0.5) * factor,
      });
    };
    const write = (key: Attr, item: Attr | undefined, factor: number, indexChange?: Record<string, string | null>) => {
      const id = `${plain(key.pk)}|${plain(key.sk)}`;
      const size = item ? sizeOf(item) : (this.sizes.get(id) ?? 100);
      parts.push({ index: 'table', pk: plain(key.pk), sk: plain(key.sk), kind: 'write', weight: kb(size, 1024) * factor });
      // Index partitions left and entered (an item whose index keys stay put is rewritten in place: one write).
      const before = this.indexKeysOf(id);
      const after = { ...before };
      for (const [index, pk] of Object.entries(indexChange ?? {})) {
        if (pk === null) delete after[index];
        else after[index] = pk;
      }
      for (const index of new Set([...Object.keys(before), ...Object.keys(after)])) {
        const was = before[index];
        const now = after[index];
        if (was) parts.push({ index, pk: was, kind: 'write', weight: kb(size, 1024) });
        if (now && now !== was) parts.push({ index, pk: now, kind: 'write', weight: kb(size, 1024) });
      }
      if (indexChange === undefined) return;
      this.indexKeys.set(id, after);
      if (item) this.sizes.set(id, size);
    };
    const indexOfItem = (item: Attr): Record<string, string | null> =>
      Object.fromEntries(Object.entries(INDEX_KEYS).map(([index, attr]) => [index, item[attr] === undefined ? null : plain(item[attr])]));
    const updateIndex = (update: Attr): Record<string, string | null> => {
      const expression = String(update.UpdateExpression ?? '');
      const values = (update.ExpressionAttributeValues ?? {}) as Attr;
      const out: Record<string, string | null> = {};
      for (const [index, attr] of Object.entries(INDEX_KEYS)) {
        const set = new RegExp(`${attr}\\s*=\\s*(:\\w+)`).exec(expression);
        if (set?.[1]) out[index] = plain(values[set[1]]);
        else if (new RegExp(`REMOVE[^=]*\\b${attr}\\b`).test(expression)) out[index] = null;
      }
      return out;
    };
    switch (operation) {
      case 'GetItem':
        read(input.Key as Attr, input.ConsistentRead === true);
        if (output.Item) this.sizes.set(`${plain((input.Key as Attr).pk)}|${plain((input.Key as Attr).sk)}`, sizeOf(output.Item as Attr));
        break;
      case 'BatchGetItem':
        for (const request of Object.values((input.RequestItems ?? {}) as Record<string, { Keys: Attr[]; ConsistentRead?: boolean }>)) {
          for (const key of request.Keys) read(key, request.ConsistentRead === true);
        }
        break;
      case 'Query': {
        const values = (input.ExpressionAttributeValues ?? {}) as Attr;
        const index = input.IndexName ? String(input.IndexName) : 'table';
        parts.push({ index, pk: plain(values[':pk']), kind: 'read', weight: 1 });
        break;
      }
      case 'PutItem':
        write(input.Item as Attr, input.Item as Attr, 1, indexOfItem(input.Item as Attr));
        break;
      case 'UpdateItem':
        write(input.Key as Attr, undefined, 1, updateIndex(input));
        break;
      case 'DeleteItem':
        write(input.Key as Attr, undefined, 1, { gsi1: null, gsi2: null });
        break;
      case 'BatchWriteItem':
        for (const requests of Object.values((input.RequestItems ?? {}) as Record<string, Attr[]>)) {
          for (const r of requests) {
            const put = r.PutRequest as { Item: Attr } | undefined;
            const del = r.DeleteRequest as { Key: Attr } | undefined;
            if (put) write(put.Item, put.Item, 1, indexOfItem(put.Item));
            if (del) write(del.Key, undefined, 1, { gsi1: null, gsi2: null });
          }
        }
        break;
      case 'TransactWriteItems':
        for (const entry of (input.TransactItems ?? []) as Attr[]) {
          const [kind, part] = Object.entries(entry)[0] as [string, Attr];
          if (kind === 'Put') write(part.Item as Attr, part.Item as Attr, 2, indexOfItem(part.Item as Attr));
          else if (kind === 'Update') write(part.Key as Attr, undefined, 2, updateIndex(part));
          else if (kind === 'Delete') write(part.Key as Attr, undefined, 2, { gsi1: null, gsi2: null });
          else read(part.Key as Attr, true, 2);
        }
        break;
      case 'TransactGetItems':
        for (const entry of (input.TransactItems ?? []) as Attr[]) read((entry.Get as Attr).Key as Attr, true, 2);
        break;
    }
    return parts;
  }
}

/** The DynamoDB operations the service sends (its IAM item actions, with transactions as operations). */
const SUPPORTED = new Set<string>([
  ...tableActions.filter((a) => a !== 'ConditionCheckItem' && a !== 'DescribeContinuousBackups'),
  'TransactWriteItems',
  'TransactGetItems',
]);
