/**
 * Builders for the items of a conditional `TransactWriteItems` on the table, so a transaction reads as what
 * it does: `transact(db, [put(db, item, 'attribute_not_exists(pk)'), update(db, key, 'ADD xp :xp', ...)])`.
 * All of a transaction's items succeed or none does; a failed condition rejects with
 * TransactionCanceledException (see `conditions.ts`: `isConditionFailure`, `failedItems`, `retryOptimistic`).
 */
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Db } from './client';
import type { Key } from './keys';

export type TxItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

export type Values = Record<string, unknown>;

export interface Condition {
  condition?: string;
  values?: Values;
  names?: Record<string, string>;
}

/** The Condition/ExpressionAttribute* fields of a request for `when`. */
export const expression = ({ condition, values, names }: Condition) => ({
  ...(condition ? { ConditionExpression: condition } : {}),
  ...(values && Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
  ...(names ? { ExpressionAttributeNames: names } : {}),
});

/** Puts `item` (which carries its key), optionally only when `condition` holds. */
export const put = (db: Db, item: Key & Record<string, unknown>, when: Condition = {}): TxItem => ({
  Put: { TableName: db.tableName, Item: item, ...expression(when) },
});

/** Updates the item at `key` with `update` (SET/ADD/REMOVE expression). */
export const update = (db: Db, key: Key, updateExpression: string, when: Condition = {}): TxItem => ({
  Update: { TableName: db.tableName, Key: key, UpdateExpression: updateExpression, ...expression(when) },
});

/** Deletes the item at `key`. */
export const remove = (db: Db, key: Key, when: Condition = {}): TxItem => ({
  Delete: { TableName: db.tableName, Key: key, ...expression(when) },
});

/** Checks `condition` on the item at `key` without writing it; the transaction fails when it does not hold. */
export const check = (db: Db, key: Key, when: Required<Pick<Condition, 'condition'>> & Condition): TxItem => ({
  ConditionCheck: { TableName: db.tableName, Key: key, ...expression(when), ConditionExpression: when.condition },
});

/** Writes `items` as one transaction (at most 100 items, DynamoDB's limit). */
export async function transact(db: Db, items: TxItem[]): Promise<void> {
  await db.doc.send(new TransactWriteCommand({ TransactItems: items }));
}
