/**
 * Opaque page cursors of `{ items, nextCursor }` lists (DESIGN §3): DynamoDB's LastEvaluatedKey as
 * base64url JSON. A cursor is only accepted for the partition that produced it and only with string key
 * attributes, so a made-up or edited cursor is a 400, never a DynamoDB ValidationException (500) and never a
 * way into another partition.
 */
import * as z from 'zod';
import { DomainError } from '../errors';

const KeyAttributes = z.record(z.string().regex(/^(pk|sk|gsi[12](pk|sk))$/), z.string().max(1024));

const invalidCursor = () =>
  new DomainError('validation_error', 'cursor is not one this API returned', { fields: { cursor: ['invalid cursor'] } });

/** The cursor of `lastKey` (DynamoDB LastEvaluatedKey) in `partition`. */
export function encodeCursor(lastKey: Record<string, unknown>, partition: string): string {
  return Buffer.from(JSON.stringify({ p: partition, k: lastKey })).toString('base64url');
}

/** The ExclusiveStartKey of `cursor`. Errors: `validation_error` (field `cursor`) for anything else. */
export function decodeCursor(cursor: string, partition: string): Record<string, string> {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  const parsed = z.object({ p: z.literal(partition), k: KeyAttributes }).safeParse(decoded);
  if (!parsed.success || !Object.values(parsed.data.k).includes(partition)) throw invalidCursor();
  return parsed.data.k;
}
