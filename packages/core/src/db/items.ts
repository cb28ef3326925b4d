/**
 * Typed reads and single-item writes of the one table, written once for every entity module (DESIGN §2, §5).
 *
 * Every read parses the stored item with the entity's zod schema, so a domain never casts an item: a stored
 * item that does not match its schema is a bug (or a missed data migration) and raises
 * {@link StoredItemError}, which the edge answers with 500 and logs without the item. Schemas are plain
 * `z.object`s: the key attributes (`pk`, `sk`, `gsi1pk`, ...) and anything else the schema does not name
 * are dropped, so they never reach a response.
 *
 * Condition expressions stay explicit strings (`attribute_not_exists(pk)`, `xp = :old`): these helpers only
 * remove the `TableName` / command plumbing. Multi-item changes go through `transact.ts`.
 */
import {
  BatchGetCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  paginateQuery,
  QueryCommand,
  type QueryCommandInput,
  UpdateCommand,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import * as z from 'zod';
import type { GlobalIndexName } from '../../../../infra/table';
import { schemaDescription } from '../lazySchema';
import type { Db } from './client';
import { decodeCursor, encodeCursor } from './cursor';
import { type Key, pad } from './keys';
import { type Condition, expression } from './transact';

/** A stored item did not match its entity schema. The message names the entity and the key, never the values. */
export class StoredItemError extends Error {
  override name = 'StoredItemError';
  constructor(entity: string, key: Key, issues: string) {
    super(`stored ${entity} at ${key.pk} / ${key.sk} does not match its schema: ${issues}`);
  }
}

/** The key of any item: for reads that need only keys (a purge, a count of what is there). */
export const ItemKey = z.object({ pk: z.string(), sk: z.string() }).describe('item key');

/** An entity schema: a zod object schema whose `description` (`.describe('user')`) names the entity in errors. */
export type ItemSchema = z.ZodType<Record<string, unknown>>;

/** Parses a stored item with `schema`. Errors: {@link StoredItemError}. */
export function parseItem<S extends ItemSchema>(schema: S, item: Record<string, unknown>): z.output<S> {
  const result = schema.safeParse(item);
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => `${i.path.join('.') || '(item)'}: ${i.code}`).join('; ');
  throw new StoredItemError(schemaDescription(schema) ?? 'item', { pk: String(item.pk), sk: String(item.sk) }, issues);
}

const parseAll = <S extends ItemSchema>(schema: S, items: Record<string, unknown>[] | undefined): z.output<S>[] =>
  (items ?? []).map((item) => parseItem(schema, item));

/**
 * The item at `key`, parsed with `schema`, or undefined when there is none. Strongly consistent unless
 * `consistent: false` (content that never changes under a request).
 */
export async function getItem<S extends ItemSchema>(
  db: Db,
  key: Key,
  schema: S,
  options: { consistent?: boolean } = {},
): Promise<z.output<S> | undefined> {
  const result = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: key, ConsistentRead: options.consistent ?? true }));
  return result.Item ? parseItem(schema, result.Item) : undefined;
}

const BATCH_GET_SIZE = 100;
const BATCH_GET_RETRIES = 8;

/** A key as one string, to look items up by key (`pk` and `sk` joined by a character neither holds). */
export const keyId = (key: Key): string => `${key.pk}\u0000${key.sk}`;

/**
 * The items at `keys` that exist, unparsed, by {@link keyId}: one BatchGetItem per 100 keys (unprocessed keys
 * retried with back-off), so items of several entities are read in one request; parse each with its entity's
 * schema ({@link parseItem}). Strongly consistent unless `consistent: false`. Errors: throws when keys stay
 * unprocessed after 8 retries.
 */
export async function getRawItems(
  db: Db,
  keys: Key[],
  options: { consistent?: boolean } = {},
): Promise<Map<string, Record<string, unknown>>> {
  const found = new Map<string, Record<string, unknown>>();
  for (let i = 0; i < keys.length; i += BATCH_GET_SIZE) {
    let pending: Record<string, unknown>[] = keys.slice(i, i + BATCH_GET_SIZE).map(({ pk, sk }) => ({ pk, sk }));
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > BATCH_GET_RETRIES) throw new Error('BatchGetItem kept returning unprocessed keys');
      const result = await db.doc.send(
        new BatchGetCommand({ RequestItems: { [db.tableName]: { Keys: pending, ConsistentRead: options.consistent ?? true } } }),
      );
      for (const item of result.Responses?.[db.tableName] ?? []) found.set(keyId({ pk: String(item.pk), sk: String(item.sk) }), item);
      pending = result.UnprocessedKeys?.[db.tableName]?.Keys ?? [];
      if (pending.length) await new Promise((r) => setTimeout(r, 25 * 2 ** attempt));
    }
  }
  return found;
}

/**
 * The items at `keys` that exist, parsed with `schema`, in no particular order (see {@link getRawItems}).
 * Errors: throws when keys stay unprocessed after 8 retries.
 */
export async function getItems<S extends ItemSchema>(
  db: Db,
  keys: Key[],
  schema: S,
  options: { consistent?: boolean } = {},
): Promise<z.output<S>[]> {
  return parseAll(schema, [...(await getRawItems(db, keys, options)).values()]);
}

/** The sort-key part of a query; every comparison is on the string sort key of the table or index. */
export type SortKeyCondition =
  | { beginsWith: string }
  | { between: [string, string] }
  | { eq: string }
  | { lt: string }
  | { lte: string }
  | { gt: string }
  | { gte: string };

/** One Query: a partition of the table or of a GSI, optionally narrowed by its sort key and filtered. */
export interface QuerySpec {
  /** Query this GSI instead of the table (GSIs are eventually consistent). */
  index?: GlobalIndexName;
  /** The partition key value (`pk`, or the index's `gsi1pk` / `gsi2pk`). */
  partition: string;
  sortKey?: SortKeyCondition;
  /** Newest first / highest sort key first. */
  descending?: boolean;
  /** Items per page (DynamoDB `Limit`, counted before `filter`). */
  limit?: number;
  /** Strongly consistent read (the table only; default true there). */
  consistent?: boolean;
  /** A FilterExpression, applied after the key condition. */
  filter?: Condition;
  /** Attributes to read (ProjectionExpression), e.g. for a count of a big partition. */
  projection?: string[];
}

const SORT_OPERATORS = { eq: '=', lt: '<', lte: '<=', gt: '>', gte: '>=' } as const;

/**
 * The sort-key condition of a time range on keys `<prefix><epoch ms, zero-padded to width><anything>`: `from` and `to`
 * epoch ms, both inclusive, either optional; undefined when neither is given.
 */
export function timeRange(prefix: string, width: number, range: { from?: number; to?: number }): SortKeyCondition | undefined {
  const low = range.from === undefined ? undefined : `${prefix}${pad(Math.max(0, range.from), width)}`;
  const high = range.to === undefined ? undefined : `${prefix}${pad(Math.max(0, range.to), width)}~`;
  if (low && high) return { between: [low, high] };
  if (low) return { gte: low };
  if (high) return { lte: high };
  return undefined;
}

function queryInput(db: Db, spec: QuerySpec): QueryCommandInput {
  const index = spec.index;
  const pkName = index ? `${index}pk` : 'pk';
  const skName = index ? `${index}sk` : 'sk';
  const names: Record<string, string> = { '#pk': pkName, ...spec.filter?.names };
  const values: Record<string, unknown> = { ':pk': spec.partition, ...spec.filter?.values };
  let keyCondition = '#pk = :pk';
  const sk = spec.sortKey;
  if (sk) {
    names['#sk'] = skName;
    if ('beginsWith' in sk) {
      keyCondition += ' AND begins_with(#sk, :sk)';
      values[':sk'] = sk.beginsWith;
    } else if ('between' in sk) {
      keyCondition += ' AND #sk BETWEEN :skLow AND :skHigh';
      values[':skLow'] = sk.between[0];
      values[':skHigh'] = sk.between[1];
    } else {
      const [op, value] = Object.entries(sk)[0] as [keyof typeof SORT_OPERATORS, string];
      keyCondition += ` AND #sk ${SORT_OPERATORS[op]} :sk`;
      values[':sk'] = value;
    }
  }
  if (spec.projection) {
    spec.projection.forEach((name, i) => {
      names[`#p${i}`] = name;
    });
  }
  return {
    TableName: db.tableName,
    ...(index ? { IndexName: index } : { ConsistentRead: spec.consistent ?? true }),
    KeyConditionExpression: keyCondition,
    ...(spec.filter?.condition ? { FilterExpression: spec.filter.condition } : {}),
    ...(spec.projection ? { ProjectionExpression: spec.projection.map((_, i) => `#p${i}`).join(', ') } : {}),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ...(spec.descending ? { ScanIndexForward: false } : {}),
    ...(spec.limit ? { Limit: spec.limit } : {}),
  };
}

/** One page of a query and the opaque cursor of the next page (absent on the last page). */
export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

/**
 * One page of `spec` starting at `cursor` (a `nextCursor` this function returned), parsed with `schema`.
 * Errors: `validation_error` on the field `cursor` for a cursor this API did not hand out.
 */
export async function queryPage<S extends ItemSchema>(db: Db, spec: QuerySpec, schema: S, cursor?: string): Promise<Page<z.output<S>>> {
  const input = queryInput(db, spec);
  const startKey = cursor === undefined ? undefined : decodeCursor(cursor, spec.partition);
  const result = await db.doc.send(new QueryCommand({ ...input, ...(startKey ? { ExclusiveStartKey: startKey } : {}) }));
  return {
    items: parseAll(schema, result.Items),
    ...(result.LastEvaluatedKey ? { nextCursor: encodeCursor(result.LastEvaluatedKey, spec.partition) } : {}),
  };
}

/** Every item of `spec`, all pages, parsed with `schema` (`limit` is the page size). */
export async function queryAll<S extends ItemSchema>(db: Db, spec: QuerySpec, schema: S): Promise<z.output<S>[]> {
  const items: z.output<S>[] = [];
  for await (const page of paginateQuery({ client: db.doc }, queryInput(db, spec))) items.push(...parseAll(schema, page.Items));
  return items;
}

/** The number of items of `spec`, all pages (Select COUNT: no item is read into memory). */
export async function countItems(db: Db, spec: Omit<QuerySpec, 'projection' | 'limit'>): Promise<number> {
  let count = 0;
  for await (const page of paginateQuery({ client: db.doc }, { ...queryInput(db, spec), Select: 'COUNT' })) count += page.Count ?? 0;
  return count;
}

/** Puts `item` (which carries its key), optionally only when `when` holds. Errors: ConditionalCheckFailedException. */
export async function putItem(db: Db, item: Key & Record<string, unknown>, when: Condition = {}): Promise<void> {
  await db.doc.send(new PutCommand({ TableName: db.tableName, Item: item, ...expression(when) }));
}

/** The UpdateItem of `updateExpression` on `key` under `when`, with what to hand back (`returns`). */
const updateCommand = (
  db: Db,
  key: Key,
  updateExpression: string,
  when: Condition,
  returns: Pick<UpdateCommandInput, 'ReturnValues' | 'ReturnValuesOnConditionCheckFailure'>,
) => new UpdateCommand({ TableName: db.tableName, Key: key, UpdateExpression: updateExpression, ...expression(when), ...returns });

/**
 * Applies `updateExpression` (SET/ADD/REMOVE) to the item at `key`, optionally only when `when` holds, and
 * returns the attributes DynamoDB hands back for `returnValues` (`UPDATED_NEW`, `ALL_NEW`, ...), unparsed:
 * read them with {@link parseItem} or pick the counters you updated. Errors: ConditionalCheckFailedException.
 */
export async function updateItem(
  db: Db,
  key: Key,
  updateExpression: string,
  when: Condition = {},
  returnValues: 'NONE' | 'UPDATED_NEW' | 'ALL_NEW' | 'ALL_OLD' | 'UPDATED_OLD' = 'NONE',
): Promise<Record<string, unknown>> {
  const result = await db.doc.send(
    updateCommand(db, key, updateExpression, when, returnValues === 'NONE' ? {} : { ReturnValues: returnValues }),
  );
  return result.Attributes ?? {};
}

/** What {@link updateOrOld} hands back: the item after the update, or, when `when` did not hold, the item as it was. */
export type UpdateOutcome = { updated: Record<string, unknown> } | { refused: Record<string, unknown> | undefined };

/**
 * Applies `updateExpression` to the item at `key` only when `when` holds, in one UpdateItem, and returns the whole
 * item after it (`ALL_NEW`); when the condition fails, the whole item as it stood (`refused`, through
 * ReturnValuesOnConditionCheckFailure `ALL_OLD`; undefined when there is no item), so the caller learns why without
 * a second read. Unparsed: read them with {@link parseItem}. Errors: anything but a failed condition.
 */
export async function updateOrOld(db: Db, key: Key, updateExpression: string, when: Condition): Promise<UpdateOutcome> {
  try {
    const result = await db.doc.send(
      updateCommand(db, key, updateExpression, when, { ReturnValues: 'ALL_NEW', ReturnValuesOnConditionCheckFailure: 'ALL_OLD' }),
    );
    return { updated: result.Attributes ?? {} };
  } catch (error) {
    const failed = error as { name?: string; Item?: Parameters<typeof unmarshall>[0] };
    if (failed.name !== 'ConditionalCheckFailedException') throw error;
    // The document client leaves the error's item in DynamoDB's wire form.
    return { refused: failed.Item ? unmarshall(failed.Item) : undefined };
  }
}

/** Deletes the item at `key`, optionally only when `when` holds. Errors: ConditionalCheckFailedException. */
export async function deleteItem(db: Db, key: Key, when: Condition = {}): Promise<void> {
  await db.doc.send(new DeleteCommand({ TableName: db.tableName, Key: key, ...expression(when) }));
}
