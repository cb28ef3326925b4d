/**
 * The filters of the staff history (`GET /api/admin/history` and its CSV export, DESIGN §9): model, record, staff
 * member, action and a time range; a record (`objectId`) only with its model. Apart from `adminLists.ts` because
 * they name the history domain's values.
 */
import { lazySchema } from '@mathisland/core';
import { HISTORY_ACTIONS, HISTORY_MODELS } from '@mathisland/core/history';
import * as z from 'zod';
import { listQuery, QueryFrom, QueryOrder, QueryTo, rangeInOrder } from './adminQuery';

export const historyFilters = () => ({
  model: z.enum(HISTORY_MODELS).optional(),
  objectId: z.string().min(1).max(200).optional(),
  staff: z
    .string()
    .min(1)
    .max(64)
    .transform((s) => s.toLowerCase())
    .optional(),
  action: z.enum(HISTORY_ACTIONS).optional(),
  from: QueryFrom,
  to: QueryTo,
  sort: z.enum(['at']).optional(),
  order: QueryOrder,
});

/** The history's cross-field rules: a range in order, `objectId` only with `model`. */
const historyRules = (q: { from?: number; to?: number; objectId?: string; model?: string }, ctx: z.RefinementCtx) => {
  rangeInOrder(q, ctx);
  if (q.objectId !== undefined && q.model === undefined) ctx.addIssue({ code: 'custom', path: ['model'], message: 'objectId needs model' });
};
export const HistoryQuery = lazySchema(() => listQuery(historyFilters).unwrap().superRefine(historyRules));
export const HistoryExportQuery = lazySchema(() => z.strictObject(historyFilters()).superRefine(historyRules));
