/**
 * Query strings of the admin lists (docs/admin-api.md "Session and conventions"): `cursor` (a `nextCursor` of the
 * same list), `limit` (1-100, default 25) and the list's own filters; any other parameter is 400
 * `validation_error` naming it (a strict schema), so a typo in a filter never silently lists everything.
 */
import { DomainError, lazySchema } from '@mathisland/core';
import * as z from 'zod';

/** `limit`: 1-100 ASCII digits, default 25. */
const Limit = z
  .string()
  .regex(/^[0-9]{1,3}$/, 'limit must be 1 to 100')
  .transform(Number)
  .refine((n) => n >= 1 && n <= 100, 'limit must be 1 to 100')
  .default(25);

/** `cursor` and `limit`, one instance each: each is one component parameter of the API description (`param.id`). */
const Cursor = z
  .string()
  .min(1)
  .max(2000)
  .optional()
  .meta({ description: 'The `nextCursor` of the previous page of the same list', param: { id: 'cursor' } });
const LimitParam = Limit.meta({ description: 'Rows a page, 1-100 (default 25)', param: { id: 'limit' } });

/** A query's cross-field rules, checked after its fields (a time range in order: {@link rangeInOrder}). */
export type QueryRules = (query: object, ctx: z.RefinementCtx) => void;

/**
 * A list's query schema: `cursor`, `limit` and the `filters` (their shape, made when the schema is first used: a
 * group's cold start builds no list's query, issue 30 §5), then the `rules`; nothing else.
 */
export const listQuery = <F extends z.ZodRawShape>(filters: () => F, rules?: QueryRules) =>
  lazySchema(() => {
    const query = z.strictObject({ cursor: Cursor, limit: LimitParam, ...filters() });
    return rules ? query.superRefine(rules) : query;
  });

/** A positive ASCII-decimal id in a query string (`userId`, `orderId`). */
export const QueryId = z
  .string()
  .regex(/^[0-9]{1,15}$/, 'must be an ASCII decimal id')
  .transform(Number)
  .refine((n) => n > 0, 'must be an ASCII decimal id');

/** `true` / `false` in a query string. */
export const QueryBool = z.enum(['true', 'false']).transform((v) => v === 'true');

/**
 * A JSON body's time as epoch ms: ISO 8601 with an offset (`2026-11-20T08:00:00Z`), or a day `2026-11-20`, read
 * as the start of that Tehran day (Asia/Tehran, +03:30).
 */
export const IsoTime = z
  .union([z.iso.datetime({ offset: true }), z.iso.date()])
  .transform((v) => Date.parse(v.length === 10 ? `${v}T00:00:00+03:30` : v));

const TEHRAN_DAY = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;
const DAY_MS = 86_400_000;

/**
 * A time in a query string as epoch ms: ISO 8601 with an offset (`2026-11-20T08:00:00Z`), or a Tehran day
 * `2026-11-20`. As `from` a day is its start; as `to` its end (inclusive), so `from=2026-11-01&to=2026-11-30` is the
 * whole of both days (what a date-range picker means).
 */
const queryTime = (edge: 'from' | 'to') =>
  z
    .union([z.iso.datetime({ offset: true }), z.iso.date()], { error: 'a Tehran day YYYY-MM-DD or an ISO 8601 time with an offset' })
    .transform((v) => {
      if (!TEHRAN_DAY.test(v)) return Date.parse(v);
      const start = Date.parse(`${v}T00:00:00+03:30`);
      return edge === 'from' ? start : start + DAY_MS - 1;
    });
/**
 * The optional `from`, `to` and `order` of the lists, each one component parameter of the API description (`param.id`),
 * which the lists and exports taking them reference (a time's pattern is long).
 */
export const QueryFrom = queryTime('from')
  .optional()
  .meta({ description: 'From this time, or the start of this Tehran day (YYYY-MM-DD)', param: { id: 'from' } });
export const QueryTo = queryTime('to')
  .optional()
  .meta({ description: 'Up to this time, or the end of this Tehran day (YYYY-MM-DD)', param: { id: 'to' } });
/** `order`: `desc` (newest or highest first) or `asc`. */
export const QueryOrder = z
  .enum(['asc', 'desc'])
  .optional()
  .meta({ description: '`desc` (newest or highest first) or `asc`', param: { id: 'order' } });

/** Refuses a range whose `from` is after its `to` (400 on `to`). */
export const rangeInOrder: QueryRules = (query, ctx) => {
  const { from, to } = query as { from?: unknown; to?: unknown };
  if (typeof from === 'number' && typeof to === 'number' && from > to) {
    ctx.addIssue({ code: 'custom', path: ['to'], message: 'must not be before from' });
  }
};

/** A list answer: `{ items, nextCursor? }` (nextCursor only when there is more), and `total` when the whole list was read. */
export const listAnswer = <T>(page: { items: T[]; nextCursor?: string }, total?: number) => ({
  items: page.items,
  ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
  ...(total === undefined ? {} : { total }),
});

/** A short list read whole (plans, codes, staff): `{ items, total }`, a page of it from `cursor` (an offset). */
export function wholeList<T>(all: T[], query: { limit: number; cursor?: string }) {
  const start = query.cursor === undefined ? 0 : Number(query.cursor);
  if (!/^[0-9]{1,6}$/.test(query.cursor ?? '0')) {
    throw new DomainError('validation_error', 'cursor is not one this API returned', { fields: { cursor: ['invalid cursor'] } });
  }
  const items = all.slice(start, start + query.limit);
  const next = start + items.length;
  return { items, ...(next < all.length ? { nextCursor: String(next) } : {}), total: all.length };
}

/** The path parameter `name`, decoded (a malformed escape counts as absent). */
export function pathParam(event: { pathParameters?: Record<string, string | undefined> }, name: string): string {
  const raw = event.pathParameters?.[name] ?? '';
  try {
    return decodeURIComponent(raw);
  } catch {
    return '';
  }
}
