/**
 * Numeric ids from atomic counter items (DESIGN §5): one `UpdateItem ADD value 1` per id, so two workers
 * never hand out the same id. Item: pk `COUNTER`, sk `<name>`, `value`. A counter whose id must be taken in the
 * same transaction as the record it names (plans) is moved with {@link counterMove} instead: read, then move
 * conditioned on the value read.
 */

import * as z from 'zod';
import { lazySchema } from '../lazySchema';
import type { Db } from './client';
import { getItem, updateItem } from './items';
import type { Key } from './keys';
import { put, type TxItem, update } from './transact';

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
  return (await readCounter(db, name)) ?? 0;
}

/** The value of counter `name`, or undefined while its item does not exist (strongly consistent). */
export async function readCounter(db: Db, name: string): Promise<number | undefined> {
  return (await getItem(db, counterKey(name), CounterItem))?.value;
}

/**
 * The transaction item that moves counter `name` from `from` (its value as read; undefined: no item yet) to `to`.
 * It fails (condition) when the counter is no longer `from` (or, for undefined, when its item exists), so of two
 * writers that read the same value only one moves it: the other reads again.
 */
export const counterMove = (db: Db, name: string, from: number | undefined, to: number): TxItem =>
  from === undefined
    ? put(db, { ...counterKey(name), value: to }, { condition: 'attribute_not_exists(pk)' })
    : update(db, counterKey(name), 'SET #v = :to', {
        condition: '#v = :from',
        names: { '#v': 'value' },
        values: { ':to': to, ':from': from },
      });
const CounterItem = lazySchema(() => z.object({ value: z.number().int() }).describe('counter'));
