/**
 * Numeric ids from atomic counter items (DESIGN §5): one `UpdateItem ADD value 1` per id, so two workers
 * never hand out the same id. Item: pk `COUNTER`, sk `<name>`, `value`.
 */
import type { Db } from './client';
import { updateItem } from './items';
import type { Key } from './keys';

const counterKey = (name: string): Key => ({ pk: 'COUNTER', sk: name });

/** The next id of counter `name` (user, order, ticket, ...); the first id is 1. */
export async function nextId(db: Db, name: string): Promise<number> {
  const attributes = await updateItem(
    db,
    counterKey(name),
    'ADD #v :one',
    { names: { '#v': 'value' }, values: { ':one': 1 } },
    'UPDATED_NEW',
  );
  return Number(attributes.value);
}
