/**
 * The filters of the staff history (`GET /api/admin/history` and its CSV export, DESIGN §9): model, record, staff
 * member, action and a time range; a record (`objectId`) only with its model. Apart from `adminLists.ts` because
 * they name the history domain's values.
 */
import type { Deps } from '@mathisland/core';
import { type PermissionHolder, requireHistoryAccess } from '@mathisland/core/admin';
import { HISTORY_ACTIONS, HISTORY_MODELS, type HistoryModel } from '@mathisland/core/history';
import { getDiscount } from '@mathisland/core/subscriptions';
import * as z from 'zod';
import { exportQuery } from './adminLists';
import { listQuery, QueryFrom, QueryOrder, type QueryRules, QueryTo, rangeInOrder } from './adminQuery';

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
const historyRules: QueryRules = (query, ctx) => {
  rangeInOrder(query, ctx);
  const q = query as { objectId?: string; model?: string };
  if (q.objectId !== undefined && q.model === undefined) ctx.addIssue({ code: 'custom', path: ['model'], message: 'objectId needs model' });
};
export const HistoryQuery = listQuery(historyFilters, historyRules);
export const HistoryExportQuery = exportQuery(historyFilters, historyRules);

/**
 * Errors: `permission_denied` unless `staff` may read the history `query` selects (core admin `requireHistoryAccess`:
 * the whole history with `view_logentry`, one record's with the permission to view it; a discount code's with
 * `view_offer` only while the code is advertised).
 */
export const requireHistoryReader = (
  deps: Pick<Deps, 'db'>,
  staff: PermissionHolder,
  query: { model?: HistoryModel; objectId?: string },
): Promise<void> => requireHistoryAccess(staff, query, async (code) => (await getDiscount(deps, code))?.advertised === true);
