/**
 * The filters of every admin list, in one place (docs/admin-api.md "Resources"), so that a list and its CSV export
 * (`GET /api/admin/<resource>/export.csv`, DESIGN §9) accept exactly the same ones: a list's query is its filters
 * with `cursor` and `limit` (`listQuery`), an export's its filters alone (`exportQuery`). Any other parameter is 400.
 * Each filter set is a function making its shape, called when its list's query is first used (`listQuery`), so a
 * group's cold start builds none (issue 30 §5). The filters naming a domain's values (order statuses, history
 * actions) are in `orderLists.ts` and `historyLists.ts`, so a group that lists neither does not bundle those domains'
 * entity modules (the bundle budgets, issue 15).
 */
import { lazySchema } from '@mathisland/core';
import * as z from 'zod';
import { listQuery, QueryBool, QueryFrom, QueryId, QueryOrder, type QueryRules, QueryTo, rangeInOrder } from './adminQuery';

const QueryDay = () => z.string().regex(/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/, 'YYYY-MM-DD');

/** A time range (`from`, `to`) and the direction of the list's time index (`sort` names that one field). */
export const byTime = <F extends string>(field: F) => ({
  from: QueryFrom,
  to: QueryTo,
  sort: z.enum([field]).optional(),
  order: QueryOrder,
});

/** Learners: `q`, and the index's one order (by creation; `sort=createdAt`, `order`). */
export const usersFilters = () => ({
  q: z.string().min(1).max(100).optional(),
  sort: z.enum(['createdAt']).optional(),
  order: QueryOrder,
});
/**
 * Search and sort of a list read whole (plans, codes, offers, staff): `q` (a part of the natural key or title, any
 * case), `sort` (one of `fields`; any column, since the whole list is in hand) and `order`.
 */
const wholeFilters = <F extends string>(fields: readonly [F, ...F[]]) => ({
  q: z.string().min(1).max(100).optional(),
  sort: z.enum(fields).optional(),
  order: QueryOrder,
});

export const plansFilters = () => ({
  onSale: QueryBool.optional(),
  ...wholeFilters(['id', 'title', 'price', 'durationDays', 'aiDailyQuota', 'onSale', 'marketplaceSku']),
});
export const codesFilters = () => ({
  active: QueryBool.optional(),
  advertised: QueryBool.optional(),
  ...wholeFilters(['code', 'title', 'percent', 'validFrom', 'validUntil', 'maxUses', 'uses', 'active', 'advertised']),
});
export const offersFilters = () => wholeFilters(['code', 'title', 'percent', 'validUntil', 'usableNow']);
export const ticketsFilters = () => ({
  status: z.enum(['open', 'answered', 'closed']).optional(),
  userId: QueryId.optional(),
  ...byTime('updatedAt'),
});
export const sentFilters = () => ({});
export const feedbackFilters = () => ({ rating: z.enum(['up', 'down']).optional() });
export const usageFilters = () => ({ from: QueryDay().optional(), to: QueryDay().optional() });
export const staffFilters = () => wholeFilters(['username', 'isSuperuser', 'active', 'createdAt', 'updatedAt']);
export const sessionsFilters = () => ({ userId: QueryId.optional() });
export const otpFilters = () => ({ phone: z.string().min(1).max(32).optional() });
/**
 * An export's query: the list's filters and its rules (a time range in order unless given), nothing else (no
 * `cursor`, no `limit`: an export has every matching row).
 */
export const exportQuery = <F extends z.ZodRawShape>(filters: () => F, rules: QueryRules = rangeInOrder) =>
  lazySchema(() => z.strictObject(filters()).superRefine(rules));

/** A list's query: `cursor`, `limit` and the filters; a time range must be in order. */
export const listWithRange = <F extends z.ZodRawShape>(filters: () => F) => listQuery(filters, rangeInOrder);

/** The fields `q` searches in each whole list: its natural key and title. */
export const SEARCHED = {
  plans: ['title', 'marketplaceSku'],
  codes: ['code', 'title'],
  offers: ['code', 'title'],
  staff: ['username'],
} as const;

const compare = (a: unknown, b: unknown): number => {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), 'en');
};

/**
 * The rows of a list read whole that match `q` (a part of one of `searchIn`, any case), sorted by `sort` (`order`,
 * ascending by default; absent values last), or in the list's own order (reversed with `order=desc`).
 */
export function wholeRows<T extends object>(
  items: T[],
  query: { q?: string; sort?: string; order?: 'asc' | 'desc' },
  searchIn: readonly string[],
): T[] {
  const q = query.q?.trim().toLowerCase();
  const field = (row: T, name: string) => (row as Record<string, unknown>)[name];
  const found = q
    ? items.filter((row) =>
        searchIn.some((f) =>
          String(field(row, f) ?? '')
            .toLowerCase()
            .includes(q),
        ),
      )
    : items;
  const direction = query.order === 'desc' ? -1 : 1;
  if (query.sort) return [...found].sort((a, b) => direction * compare(field(a, query.sort as string), field(b, query.sort as string)));
  return direction < 0 ? [...found].reverse() : found;
}
