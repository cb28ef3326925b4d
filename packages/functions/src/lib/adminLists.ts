/**
 * The filters of every admin list, in one place (docs/admin-api.md "Resources"), so that a list and its CSV export
 * (`GET /api/admin/<resource>/export.csv`, DESIGN §9) accept exactly the same ones: a list's query is its filters
 * with `cursor` and `limit` (`listQuery`), an export's its filters alone (`exportQuery`). Any other parameter is 400.
 */
import { HISTORY_ACTIONS, HISTORY_MODELS } from '@mathisland/core/history';
import { ORDER_STATUSES, PaymentEventKind, Provider } from '@mathisland/core/subscriptions';
import * as z from 'zod';
import { listQuery, QueryBool, QueryFrom, QueryId, QueryOrder, QueryTo, rangeInOrder } from './adminQuery';

const QueryDay = z.string().regex(/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/, 'YYYY-MM-DD');

export const usersFilters = { q: z.string().min(1).max(100).optional() };
export const ordersFilters = { status: z.enum(ORDER_STATUSES).optional(), provider: Provider.optional(), userId: QueryId.optional() };
export const eventsFilters = { orderId: QueryId.optional(), kind: PaymentEventKind.optional() };
export const plansFilters = { onSale: QueryBool.optional() };
export const codesFilters = { active: QueryBool.optional(), advertised: QueryBool.optional() };
export const offersFilters = {};
export const ticketsFilters = { status: z.enum(['open', 'answered', 'closed']).optional(), userId: QueryId.optional() };
export const sentFilters = {};
export const feedbackFilters = { rating: z.enum(['up', 'down']).optional() };
export const usageFilters = { from: QueryDay.optional(), to: QueryDay.optional() };
export const staffFilters = {};
export const sessionsFilters = { userId: QueryId.optional() };
export const otpFilters = { phone: z.string().min(1).max(32).optional() };
export const historyFilters = {
  model: z.enum(HISTORY_MODELS).optional(),
  objectId: z.string().min(1).max(200).optional(),
  staff: z
    .string()
    .min(1)
    .max(64)
    .transform((s) => s.toLowerCase())
    .optional(),
  action: z.enum(HISTORY_ACTIONS).optional(),
  from: QueryFrom.optional(),
  to: QueryTo.optional(),
  sort: z.enum(['at']).optional(),
  order: QueryOrder.optional(),
};

/** The history's cross-field rules: a range in order, `objectId` only with `model`. */
const historyRules = (q: { from?: number; to?: number; objectId?: string; model?: string }, ctx: z.RefinementCtx) => {
  rangeInOrder(q, ctx);
  if (q.objectId !== undefined && q.model === undefined) ctx.addIssue({ code: 'custom', path: ['model'], message: 'objectId needs model' });
};
export const HistoryQuery = listQuery(historyFilters).superRefine(historyRules);
export const HistoryExportQuery = z.strictObject(historyFilters).superRefine(historyRules);

/** An export's query: the list's filters, nothing else (no `cursor`, no `limit`: an export has every matching row). */
export const exportQuery = <F extends z.ZodRawShape>(filters: F) => z.strictObject(filters);
