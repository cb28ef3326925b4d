/**
 * Bulk writes that need no transaction (seed data, re-ingested textbook chunks, purging a deleted account):
 * BatchWriteItem, 25 requests per call (DynamoDB's limit), retrying what DynamoDB hands back as unprocessed with
 * exponential back-off (50 ms, 100 ms, ... up to 8 retries). Errors: rethrows DynamoDB errors; throws when
 * items stay unprocessed after the retries.
 */
import { BatchWriteCommand, type BatchWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Db } from './client';
import type { Key } from './keys';

type WriteRequest = NonNullable<BatchWriteCommandInput['RequestItems']>[string][number];

const BATCH_SIZE = 25;
const MAX_RETRIES = 8;

async function writeAll(db: Db, all: WriteRequest[]): Promise<void> {
  for (let i = 0; i < all.length; i += BATCH_SIZE) {
    let requests = all.slice(i, i + BATCH_SIZE);
    for (let attempt = 0; requests.length > 0; attempt++) {
      if (attempt > MAX_RETRIES) throw new Error('BatchWriteItem kept returning unprocessed items');
      const result = await db.doc.send(new BatchWriteCommand({ RequestItems: { [db.tableName]: requests } }));
      requests = result.UnprocessedItems?.[db.tableName] ?? [];
      if (requests.length) await new Promise((r) => setTimeout(r, 50 * 2 ** attempt));
    }
  }
}

/** Puts `items` (each carrying its key), unconditionally. */
export const putAll = (db: Db, items: Record<string, unknown>[]): Promise<void> =>
  writeAll(
    db,
    items.map((Item) => ({ PutRequest: { Item } })),
  );

/** Deletes the items at `itemKeys`, unconditionally. */
export const deleteAll = (db: Db, itemKeys: Key[]): Promise<void> =>
  writeAll(
    db,
    itemKeys.map((Key) => ({ DeleteRequest: { Key: { pk: Key.pk, sk: Key.sk } } })),
  );
