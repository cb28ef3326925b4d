/**
 * Numeric ids from atomic counter items (DESIGN §5): one `UpdateItem ADD value 1` per id, so two workers
 * never hand out the same id.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from './client';
import { keys } from './keys';

/** The next id of counter `name` (users, orders, ...); the first id is 1. */
export async function nextId(db: Db, name: string): Promise<number> {
  const result = await db.doc.send(
    new UpdateCommand({
      TableName: db.tableName,
      Key: keys.counter(name),
      UpdateExpression: 'ADD #v :one',
      ExpressionAttributeNames: { '#v': 'value' },
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(result.Attributes?.value);
}
