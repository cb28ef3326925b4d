/**
 * Creates the table described by `infra/table.ts` when it does not exist (DynamoDB Local and tests; in AWS
 * the Storage stack owns it). Waits until it is ACTIVE and enables TTL.
 *
 * Two processes may race to create it (two fresh `npm start`s on one DynamoDB Local): the loser's CreateTable
 * answers ResourceInUseException, and either TTL update may find TTL already on; both are taken as the table being
 * there, and the loser waits for it like the winner.
 */
import {
  CreateTableCommand,
  DescribeTableCommand,
  ResourceInUseException,
  ResourceNotFoundException,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { table } from '../../../../infra/table';
import type { Db } from './client';

/** Returns true when it created the table, false when it was already there. */
export async function ensureTable(db: Db): Promise<boolean> {
  try {
    await db.raw.send(new DescribeTableCommand({ TableName: db.tableName }));
    return false;
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  const indexes = Object.entries(table.globalIndexes);
  const attributeNames = [table.partitionKey, table.sortKey, ...indexes.flatMap(([, i]) => [i.partitionKey, i.sortKey])];
  const created = await db.raw
    .send(
      new CreateTableCommand({
        TableName: db.tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: attributeNames.map((AttributeName) => ({ AttributeName, AttributeType: 'S' })),
        KeySchema: [
          { AttributeName: table.partitionKey, KeyType: 'HASH' },
          { AttributeName: table.sortKey, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: indexes.map(([IndexName, i]) => ({
          IndexName,
          KeySchema: [
            { AttributeName: i.partitionKey, KeyType: 'HASH' },
            { AttributeName: i.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        })),
      }),
    )
    .then(
      () => true,
      (error: unknown) => {
        // Another process created it between our DescribeTable and CreateTable.
        if (error instanceof ResourceInUseException) return false;
        throw error;
      },
    );
  await waitUntilTableExists({ client: db.raw, maxWaitTime: 60 }, { TableName: db.tableName });
  try {
    await db.raw.send(
      new UpdateTimeToLiveCommand({
        TableName: db.tableName,
        TimeToLiveSpecification: { AttributeName: table.ttlAttribute, Enabled: true },
      }),
    );
  } catch (error) {
    // The other process of a race turned it on first ("TimeToLive is already enabled"): the creator of the table can
    // lose this race too, since the other one goes on to its TTL update as soon as its CreateTable is refused.
    if (!/already enabled/i.test((error as Error).message)) throw error;
  }
  return created;
}
