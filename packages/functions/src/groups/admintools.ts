/**
 * Endpoint group `admintools`: the staff's everyday tools (issue 25; DESIGN §9 "Staff history, export, bulk actions
 * and charts"; docs/admin-api.md "Everyday tools" is the contract). The CSV exports are the streamed group
 * `adminexport`.
 *
 * - `GET /api/admin/history`: the staff history, newest first, filtered by model, record, staff member, action and
 *   a time range; `view_logentry`, or one record's history (`model` and `objectId`) with that record's view
 *   permission (docs/decisions.md "Staff history").
 * - `GET /api/admin/stats?days=30`: the day counters of the last Tehran days for the dashboard's charts.
 */
import { requireHistoryAccess } from '@mathisland/core/admin';
import { HISTORY_ACTIONS, HISTORY_MODELS, listHistory } from '@mathisland/core/history';
import { dailyStats, MAX_STATS_DAYS } from '@mathisland/core/stats';
import * as z from 'zod';
import { listAnswer, listQuery, QueryFrom, QueryOrder, QueryTo, rangeInOrder } from '../lib/adminQuery';
import { defineGroup } from '../lib/group';
import { type AdminInput, route } from '../lib/route';
import { adminPage, Day, IsoTime, Toman } from '../lib/shapes';

const HistoryQuery = listQuery({
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
}).superRefine((q, ctx) => {
  rangeInOrder(q, ctx);
  if (q.objectId !== undefined && q.model === undefined) ctx.addIssue({ code: 'custom', path: ['model'], message: 'objectId needs model' });
});
const StatsQuery = z.strictObject({
  days: z
    .string()
    .regex(/^[0-9]{1,3}$/, `days must be 1 to ${MAX_STATS_DAYS}`)
    .transform(Number)
    .refine((n) => n >= 1 && n <= MAX_STATS_DAYS, `days must be 1 to ${MAX_STATS_DAYS}`)
    .default(30),
});

const count = z.number().int().min(0);
const HistoryEntry = z
  .object({
    id: z.string().meta({ description: 'Sorts by time' }),
    at: IsoTime,
    staff: z.string().meta({ description: 'The staff member’s username (`createsuperuser`: the command line)' }),
    action: z.enum(HISTORY_ACTIONS),
    model: z.enum(HISTORY_MODELS),
    objectId: z.string().nullable().meta({ description: 'The record’s id (a number, code or username as text); null for an export' }),
    objectRepr: z.string().meta({ description: 'How the record read then (a title, a public id), or an export’s filters' }),
    changes: z
      .record(z.string(), z.union([z.tuple([z.unknown(), z.unknown()]), z.literal('changed')]))
      .meta({ description: 'Per changed field `[before, after]` (null: absent); a secret field only `"changed"`' }),
  })
  .meta({ id: 'HistoryEntry' });
const StatsDay = z.object({
  day: Day,
  jalaliDay: z.string().meta({ description: 'The same day in the Jalali calendar, YYYY/MM/DD', example: '1405/08/29' }),
  signIns: count,
  newUsers: count,
  orders: count.meta({ description: 'Orders created that day' }),
  paidOrders: count.meta({ description: 'Orders paid that day, whenever created' }),
  revenue: Toman.meta({ description: 'Whole toman of the orders paid that day (refunds do not subtract)' }),
});

async function history({ deps, staff, query }: AdminInput<undefined, z.infer<typeof HistoryQuery>>) {
  requireHistoryAccess(staff, query);
  return listAnswer(await listHistory(deps, query));
}

const stats = async ({ deps, query }: AdminInput<undefined, z.infer<typeof StatsQuery>>) => ({ days: await dailyStats(deps, query.days) });

export const { handler, createHandler, routes } = defineGroup('admintools', {
  'GET /api/admin/history': route.admin({
    query: HistoryQuery,
    description:
      'Newest first (`order=asc`: oldest first). `from`/`to`: a Tehran day (its start / its end) or an ISO time. `objectId` needs `model`. ' +
      'Needs `view_logentry`; one record’s own history (`model` and `objectId`) needs only that record’s view permission (`view_<model>`; a discount code’s also `view_offer`). ' +
      'Each filter reads its own index partition: a short page with `nextCursor` means "read on".',
    responses: { 200: adminPage(HistoryEntry) },
    errors: { permission_denied: 'Neither `view_logentry` nor, for one record’s history, that record’s view permission.' },
    run: history,
  }),
  'GET /api/admin/stats': route.admin({
    query: StatsQuery,
    description: `The last \`days\` Tehran days (default 30, 1-${MAX_STATS_DAYS}), today included, oldest first; zeros on quiet days.`,
    responses: { 200: z.object({ days: z.array(StatsDay) }).meta({ id: 'DailyStats' }) },
    run: stats,
  }),
});
