/**
 * Numeric ids from atomic counter items (DESIGN §5): one `UpdateItem ADD value 1` per id, so two workers
 * never hand out the same id. Item: pk `COUNTER`, sk `<name>`, `value`.
 */

import * as z from 'zod';
import { lazySchema } from '../lazySchema';
import type { Db } from './client';
import { getItem, updateItem } from './items';
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

/** `count` (at least 1) new ids of counter `name` in one request, in increasing order. */
export async function nextIds(db: Db, name: string, count: number): Promise<number[]> {
  const attributes = await updateItem(
    db,
    counterKey(name),
    'ADD #v :n',
    { names: { '#v': 'value' }, values: { ':n': count } },
    'UPDATED_NEW',
  );
  const last = Number(attributes.value);
  return Array.from({ length: count }, (_, i) => last - count + 1 + i);
}

/** The last id counter `name` handed out (0 before the first), strongly consistent: for migrations that visit every id. */
export async function counterValue(db: Db, name: string): Promise<number> {
  const item = await getItem(db, counterKey(name), CounterItem);
  return item?.value ?? 0;
}
const CounterItem = lazySchema(() => z.object({ value: z.number().int() }).describe('counter'));
