/**
 * The staff dashboard's day counters (DESIGN §9): sign-ins and new users (counted by auth), orders created and
 * paid with the revenue in toman (counted by subscriptions), per Tehran day. Other domains add to them inside
 * their own transactions with {@link countItem}; the admin reads today's with {@link dashboard}.
 */
import { tehranDay } from '../calendar';
import type { Db } from '../db/client';
import type { TxItem } from '../db/transact';
import type { Deps } from '../deps';
import { addCounts, type Counts, readCounts } from './dailyStats.entity';

export { type Counts, SHARDS as DAY_COUNTER_SHARDS } from './dailyStats.entity';

/** The transaction item that adds `counts` to the Tehran day of `atMs` (epoch ms). */
export const countItem = (db: Db, atMs: number, counts: Counts): TxItem => addCounts(db, tehranDay(atMs), counts);

/** Today's counters (Tehran day): `{ day, signIns, newUsers, orders, paidOrders, revenue }` (revenue in toman). */
export async function dashboard(deps: Pick<Deps, 'db' | 'clock'>): Promise<{ day: string } & Record<keyof Counts, number>> {
  const day = tehranDay(deps.clock.now());
  return { day, ...(await readCounts(deps.db, day)) };
}
