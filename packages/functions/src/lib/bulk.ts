/**
 * Bulk actions of the admin lists (DESIGN §9; Django admin's changelist actions): `POST /api/admin/<resource>/bulk
 * { ids, action }` applies one action to each selected row, each row on its own (its own conditional write and history
 * entry, done by the domain function of the single action), and answers a result per row, so one row that fails
 * (gone, changed meanwhile) is reported while the others are applied.
 *
 * At most {@link MAX_BULK_IDS} rows a request (400 beyond: the request stays well inside API Gateway's 30 s), run
 * {@link BULK_CONCURRENCY} at a time (the DynamoDB pool holds 8 requests in flight per worker). Repeated ids count once.
 */
import { DomainError, lazySchema, logger } from '@mathisland/core';
import * as z from 'zod';
import { responseShape } from './shapes';

/** The most rows one bulk request may name. */
export const MAX_BULK_IDS = 100;
/** Rows worked on at once. */
export const BULK_CONCURRENCY = 4;

/** A bulk request's body: 1-{@link MAX_BULK_IDS} ids of `id`'s shape and one of `actions`. */
export const bulkBody = <I extends z.ZodType, A extends readonly [string, ...string[]]>(id: I, actions: A) =>
  lazySchema(() =>
    z.strictObject({
      ids: z.array(id).min(1, 'select at least one row').max(MAX_BULK_IDS, `at most ${MAX_BULK_IDS} rows a request`),
      action: z.enum(actions),
    }),
  );

/** One row's outcome: applied (`changed` false when it was so already), or refused with the error it would answer alone. */
export type BulkResult<I> = { id: I; ok: true; changed: boolean } | { id: I; ok: false; code: string; detail: string };

/** A bulk answer: one result per distinct id, in the order given, and the counts. */
export interface BulkAnswer<I> {
  results: BulkResult<I>[];
  summary: { changed: number; unchanged: number; failed: number };
}

/** The answer's schema for ids of `id`'s shape (the OpenAPI document and the test stacks' check). */
export const bulkAnswer = (id: z.ZodType) =>
  responseShape(() =>
    z.object({
      results: z.array(
        z.union([
          z.object({ id, ok: z.literal(true), changed: z.boolean().meta({ description: 'false: it was so already (nothing written)' }) }),
          z.object({ id, ok: z.literal(false), code: z.string(), detail: z.string() }),
        ]),
      ),
      summary: z.object({ changed: z.number().int().min(0), unchanged: z.number().int().min(0), failed: z.number().int().min(0) }),
    }),
  );

/**
 * Runs `apply` on each distinct id of `ids` ({@link BULK_CONCURRENCY} at a time). A row's DomainError becomes its
 * refusal (`code`, `detail`); any other failure is logged and reported as `server_error` for that row alone.
 */
export async function runBulk<I extends string | number>(
  ids: readonly I[],
  apply: (id: I) => Promise<{ changed: boolean }>,
): Promise<BulkAnswer<I>> {
  const distinct = [...new Set(ids)];
  const results: BulkResult<I>[] = new Array(distinct.length);
  let next = 0;
  const worker = async () => {
    while (next < distinct.length) {
      const index = next++;
      const id = distinct[index] as I;
      try {
        results[index] = { id, ok: true, changed: (await apply(id)).changed };
      } catch (error) {
        if (error instanceof DomainError) results[index] = { id, ok: false, code: error.code, detail: error.detail };
        else {
          logger.error('bulk action row failed', { id: String(id), reason: (error as Error).message });
          results[index] = { id, ok: false, code: 'server_error', detail: 'This row failed on the service’s side; try it again.' };
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(BULK_CONCURRENCY, distinct.length) }, worker));
  const summary = { changed: 0, unchanged: 0, failed: 0 };
  for (const r of results) {
    if (!r.ok) summary.failed++;
    else if (r.changed) summary.changed++;
    else summary.unchanged++;
  }
  return { results, summary };
}
