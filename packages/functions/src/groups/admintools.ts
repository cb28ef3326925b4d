/**
 * Endpoint group `admintools`: the staff's everyday tools (issue 25; DESIGN §9 "Staff history, export, bulk actions
 * and charts"; docs/admin-api.md "Everyday tools" is the contract). The CSV exports are the streamed group
 * `adminexport`.
 *
 * - `GET /api/admin/history`: the staff history, newest first, filtered by model, record, staff member, action and
 *   a time range; `view_logentry`, or one record's history (`model` and `objectId`) with that record's view
 *   permission (docs/decisions.md "Staff history").
 * - `GET /api/admin/stats?days=30`: the day counters of the last Tehran days for the dashboard's charts.
 * - `POST /api/admin/<discount-codes|offers|tickets|users|staff>/bulk { ids, action }`: one action on each selected row, each
 *   its own conditional write and history entry, a result per row (lib/bulk.ts); the permission of the single action.
 * - `GET /api/admin/users/{id}/tutor-usage`: a learner's tutor questions per day (their other related records are the
 *   lists' `userId` filters: orders, tickets, sessions; their history: `history?model=user&objectId=`).
 */
import { lazySchema } from '@mathisland/core';
import { endStaffSessionsOfRow } from '@mathisland/core/admin';
import { endLearnerSessions, getUserForStaff } from '@mathisland/core/auth';
import { HISTORY_ACTIONS, HISTORY_MODELS, listHistory } from '@mathisland/core/history';
import { dailyStats, MAX_STATS_DAYS } from '@mathisland/core/stats';
import { setCodeSwitch } from '@mathisland/core/subscriptions';
import { closeTicketAs } from '@mathisland/core/support';
import { learnerTutorUsage } from '@mathisland/core/tutor';
import * as z from 'zod';
import { admintoolsRoutes } from '../../../../infra/routes/admintools';
import { listAnswer } from '../lib/adminQuery';
import { bulkAnswer, bulkBody, MAX_BULK_IDS, runBulk } from '../lib/bulk';
import { defineGroup } from '../lib/group';
import { HistoryQuery, requireHistoryReader } from '../lib/historyLists';
import { json } from '../lib/responses';
import { type AdminInput, route } from '../lib/route';
import { adminPage, Day, IsoTime, responseShape, Toman } from '../lib/shapes';

const StatsQuery = lazySchema(() =>
  z.strictObject({
    days: z
      .string()
      .regex(/^[0-9]{1,3}$/, `days must be 1 to ${MAX_STATS_DAYS}`)
      .transform(Number)
      .refine((n) => n >= 1 && n <= MAX_STATS_DAYS, `days must be 1 to ${MAX_STATS_DAYS}`)
      .default(30),
  }),
);

const CodeId = z.string().min(1).max(64).meta({ description: 'A discount code (any case)' });
const RowId = z.number().int().positive();
const CodesBulk = bulkBody(CodeId, ['activate', 'deactivate']);
const TicketsBulk = bulkBody(RowId, ['close']);
const UsersBulk = bulkBody(RowId, ['end_sessions']);
const Username = z.string().min(1).max(64).meta({ description: 'A staff member’s username (any case)' });
const StaffBulk = bulkBody(Username, ['end_sessions']);

const NoQuery = z.strictObject({});

const count = z.number().int().min(0);
const HistoryEntry = responseShape(() =>
  z
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
    .meta({ id: 'HistoryEntry' }),
);
const StatsDay = responseShape(() =>
  z.object({
    day: Day,
    jalaliDay: z.string().meta({ description: 'The same day in the Jalali calendar, YYYY/MM/DD', example: '1405/08/29' }),
    signIns: count,
    newUsers: count,
    orders: count.meta({ description: 'Orders created that day' }),
    paidOrders: count.meta({ description: 'Orders paid that day, whenever created' }),
    revenue: Toman.meta({ description: 'Whole toman of the orders paid that day (refunds do not subtract)' }),
  }),
);

async function history({ deps, staff, query }: AdminInput<undefined, z.infer<typeof HistoryQuery>>) {
  await requireHistoryReader(deps, staff, query);
  return listAnswer(await listHistory(deps, query));
}

type BulkInput<B> = AdminInput<B, unknown>;
const codesBulk = ({ deps, body, staff }: BulkInput<z.infer<typeof CodesBulk>>) =>
  runBulk(body.ids, (code) => setCodeSwitch(deps, code, 'active', body.action === 'activate', staff.username));
const offersBulk = ({ deps, body, staff }: BulkInput<z.infer<typeof CodesBulk>>) =>
  runBulk(body.ids, (code) => setCodeSwitch(deps, code, 'advertised', body.action === 'activate', staff.username));
const ticketsBulk = ({ deps, body, staff }: BulkInput<z.infer<typeof TicketsBulk>>) =>
  runBulk(body.ids, (id) => closeTicketAs(deps, id, staff.username));
const usersBulk = ({ deps, body, staff }: BulkInput<z.infer<typeof UsersBulk>>) =>
  runBulk(body.ids, (id) => endLearnerSessions(deps, id, staff.username));
const staffBulk = ({ deps, body, staff }: BulkInput<z.infer<typeof StaffBulk>>) =>
  runBulk(body.ids, (username) => endStaffSessionsOfRow(deps.db, deps.clock, username, staff.username));
const bulkNote = `Each row on its own (its own write and history entry): a row that fails is reported with the code it would answer alone, the others are applied; \`changed: false\`: it was so already. 1-${MAX_BULK_IDS} ids (more: 400).`;

async function tutorUsage({ deps, id }: AdminInput<undefined, unknown>) {
  await getUserForStaff(deps, id); // 404 for an unknown learner
  return { items: await learnerTutorUsage(deps, id) };
}

const stats = async ({ deps, query }: AdminInput<undefined, z.infer<typeof StatsQuery>>) => ({ days: await dailyStats(deps, query.days) });

export const { handler, createHandler, routes } = defineGroup(admintoolsRoutes, {
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
    responses: { 200: responseShape(() => z.object({ days: z.array(StatsDay) }).meta({ id: 'DailyStats' })) },
    run: stats,
  }),
  'POST /api/admin/discount-codes/bulk': route.admin({
    permission: 'change_discountcode',
    body: CodesBulk,
    description: `\`activate\` / \`deactivate\` sets each code’s \`active\`. ${bulkNote}`,
    responses: { 200: json(bulkAnswer(CodeId), 'A result per code') },
    run: codesBulk,
  }),
  'POST /api/admin/offers/bulk': route.admin({
    permission: 'change_offer',
    body: CodesBulk,
    description: `\`activate\` advertises each code as an offer, \`deactivate\` withdraws it (its \`advertised\`; the code stays usable). ${bulkNote}`,
    responses: { 200: json(bulkAnswer(CodeId), 'A result per code') },
    run: offersBulk,
  }),
  'POST /api/admin/tickets/bulk': route.admin({
    permission: 'change_ticket',
    body: TicketsBulk,
    description: `\`close\` closes each ticket (the learner’s next message reopens it). ${bulkNote}`,
    responses: { 200: json(bulkAnswer(RowId), 'A result per ticket') },
    run: ticketsBulk,
  }),
  'POST /api/admin/users/bulk': route.admin({
    permission: 'delete_session',
    body: UsersBulk,
    description: `\`end_sessions\` ends each learner’s sign-in (refresh and access tokens stop working; they sign in again with a code). ${bulkNote}`,
    responses: { 200: json(bulkAnswer(RowId), 'A result per learner') },
    run: usersBulk,
  }),
  'POST /api/admin/staff/bulk': route.admin({
    permission: 'change_staff',
    body: StaffBulk,
    description: `\`end_sessions\` ends every session of each member on its next request, as \`POST /api/admin/staff/{username}/end-sessions\` (the password stays; they may sign in again); the caller’s own row is refused (\`validation_error\`: \`POST /api/admin/me/end-sessions\` ends one’s own). ${bulkNote}`,
    responses: { 200: json(bulkAnswer(Username), 'A result per staff member') },
    run: staffBulk,
  }),
  'GET /api/admin/users/{id}/tutor-usage': route.admin({
    permission: 'view_tutorusage',
    query: NoQuery,
    description:
      'Newest day first, the days whose quota record is still kept (3 days); the service-wide figures per day are `GET /api/admin/tutor/usage`. ' +
      'A learner’s other related records: `GET /api/admin/orders?userId=`, `/tickets?userId=`, `/sessions?userId=` (superuser), `/history?model=user&objectId=`.',
    responses: {
      200: responseShape(() =>
        z.object({
          items: z.array(
            z.object({
              day: Day,
              questions: count,
              limit: count.meta({ description: 'Their daily limit that day' }),
              promptTokens: count,
              completionTokens: count,
            }),
          ),
        }),
      ),
    },
    errors: { not_found: 'No such learner.' },
    run: tutorUsage,
  }),
});
