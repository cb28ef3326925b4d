/**
 * The staff dashboard's day counters (DESIGN §9): sign-ins and new users (counted by auth), orders created and
 * paid with the revenue in toman (counted by subscriptions), per Tehran day. Other domains add to them inside
 * their own transactions with {@link countItem}; the admin reads today's with {@link dashboard} and the charts' days
 * with {@link dailyStats}.
 */
import { jalaliDate, lastDays, tehranDay } from '../calendar';
import type { Db } from '../db/client';
import type { TxItem } from '../db/transact';
import type { Deps } from '../deps';
import { addCounts, type Counts, readCounts, readCountsOfDays } from './dailyStats.entity';

export { type Counts, SHARDS as DAY_COUNTER_SHARDS } from './dailyStats.entity';

/** The transaction item that adds `counts` to the Tehran day of `atMs` (epoch ms). */
export const countItem = (db: Db, atMs: number, counts: Counts): TxItem => addCounts(db, tehranDay(atMs), counts);

/** Today's counters (Tehran day): `{ day, signIns, newUsers, orders, paidOrders, revenue }` (revenue in toman). */
export async function dashboard(deps: Pick<Deps, 'db' | 'clock'>): Promise<{ day: string } & Record<keyof Counts, number>> {
  const day = tehranDay(deps.clock.now());
  return { day, ...(await readCounts(deps.db, day)) };
}

/** The most days one chart may span. */
export const MAX_STATS_DAYS = 400;

/**
 * The counters of the last `days` Tehran days, today included, oldest first (the charts' x axis), each with its
 * Jalali date: `{ day, jalaliDay, signIns, newUsers, orders, paidOrders, revenue }` (revenue toman; refunds do not
 * subtract). Quiet days are zeros. `days` 1-{@link MAX_STATS_DAYS}.
 */
export async function dailyStats(deps: Pick<Deps, 'db' | 'clock'>, days: number) {
  const keys = lastDays(deps.clock.now(), Math.min(Math.max(1, days), MAX_STATS_DAYS));
  const counts = await readCountsOfDays(deps.db, keys);
  return keys.map((day, i) => ({ day, jalaliDay: jalaliDate(day), ...(counts[i] as Record<keyof Counts, number>) }));
}
