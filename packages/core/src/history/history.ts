/**
 * Reading and writing the staff history (DESIGN §9; entry.entity.ts has the keys). Use cases that change something
 * put {@link historyItems} into their own transaction; an action that changes nothing stored (an export) records
 * its entry alone with {@link recordHistory}. The list reads one partition per filter, newest first.
 */
import type { Page } from '../db/items';
import { fillPage } from '../db/pages';
import { transact } from '../db/transact';
import type { Deps } from '../deps';
import { type HistoryEntry, type HistoryFilter, historyItems, historyPage, type NewHistoryEntry } from './entry.entity';

/** An entry as the API answers it (`at` ISO 8601). */
export type HistoryView = Omit<HistoryEntry, 'at'> & { at: string };

export const historyView = (entry: HistoryEntry): HistoryView => ({ ...entry, at: new Date(entry.at).toISOString() });

/**
 * `GET /api/admin/history`: entries matching `filter`, newest first unless `order: 'asc'`, `limit` a page from
 * `cursor`. A short page with a `nextCursor` means "read on" (filters inside a partition). Errors:
 * `validation_error` (cursor).
 */
export async function listHistory(
  deps: Pick<Deps, 'db'>,
  query: HistoryFilter & { limit: number; cursor?: string },
): Promise<Page<HistoryView>> {
  const page = await fillPage((limit, cursor) => historyPage(deps.db, query, limit, cursor), query);
  return { ...page, items: page.items.map(historyView) };
}

/** Stores `entry` on its own (an action that writes nothing else, such as an export). */
export async function recordHistory(deps: Pick<Deps, 'db'>, entry: NewHistoryEntry): Promise<void> {
  await transact(deps.db, historyItems(deps.db, entry));
}
