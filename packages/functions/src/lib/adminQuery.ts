/**
 * Query strings of the admin lists (docs/admin-api.md "Session and conventions"): `cursor` (a `nextCursor` of the
 * same list), `limit` (1-100, default 25) and the list's own filters; any other parameter is 400
 * `validation_error` naming it (a strict schema), so a typo in a filter never silently lists everything.
 */
import { DomainError } from '@mathisland/core';
import * as z from 'zod';

/** `limit`: 1-100 ASCII digits, default 25. */
const Limit = z
  .string()
  .regex(/^[0-9]{1,3}$/, 'limit must be 1 to 100')
  .transform(Number)
  .refine((n) => n >= 1 && n <= 100, 'limit must be 1 to 100')
  .default(25);

/** A list's query schema: `cursor`, `limit` and `filters`; nothing else. */
export const listQuery = <F extends z.ZodRawShape>(filters: F) =>
  z.strictObject({ cursor: z.string().min(1).max(2000).optional(), limit: Limit, ...filters });

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
