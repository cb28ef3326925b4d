/**
 * Endpoint group `adminsupport`: support tickets, staff notifications and the tutor's feedback and usage for the
 * staff (DESIGN §9; docs/admin-api.md). Tickets: `view_ticket`, `change_ticket` (reply → answered, close).
 * Notifications: `view_notification`, `add_notification` (to one learner, or to all as one broadcast item).
 * Tutor: read-only (`view_tutorfeedback`, `view_tutorusage`).
 */
import { listSentNotifications, sendStaffNotification } from '@mathisland/core/notifications';
import { closeTicket, listTicketsForStaff, MAX_TEXT_LENGTH, replyAsStaff, ticketForStaff } from '@mathisland/core/support';
import { listTutorFeedback, listTutorUsage } from '@mathisland/core/tutor';
import * as z from 'zod';
import { listAnswer, listQuery, QueryId } from '../lib/adminQuery';
import { defineGroup } from '../lib/group';
import { type AdminInput, route } from '../lib/route';

const Day = z.string().regex(/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/, 'YYYY-MM-DD');
const TicketsQuery = listQuery({ status: z.enum(['open', 'answered', 'closed']).optional(), userId: QueryId.optional() });
const SentQuery = listQuery({});
const FeedbackQuery = listQuery({ rating: z.enum(['up', 'down']).optional() });
const UsageQuery = listQuery({ from: Day.optional(), to: Day.optional() });
const NoQuery = z.strictObject({});
const Reply = z.strictObject({ text: z.string().min(1).max(MAX_TEXT_LENGTH) });
const Send = z
  .strictObject({
    userId: z.number().int().positive().optional(),
    all: z.literal(true).optional(),
    title: z.string().min(1).max(100),
    body: z.string().min(1).max(2000),
  })
  .refine((b) => (b.userId === undefined) !== (b.all === undefined), { message: 'give either userId or all: true', path: ['userId'] });

type Input<B = undefined> = AdminInput<B, unknown>;

const tickets = async ({ deps, query }: AdminInput<undefined, z.infer<typeof TicketsQuery>>) =>
  listAnswer(await listTicketsForStaff(deps, query));
const ticket = async ({ deps, id }: Input) => ticketForStaff(deps, id);
const reply = async ({ deps, id, body, staff }: Input<z.infer<typeof Reply>>) => replyAsStaff(deps, id, body.text, staff.username);
const close = async ({ deps, id, staff }: Input) => closeTicket(deps, id, staff.username);

const sent = async ({ deps, query }: AdminInput<undefined, z.infer<typeof SentQuery>>) =>
  listAnswer(await listSentNotifications(deps, query));
const send = async ({ deps, body, staff }: Input<z.infer<typeof Send>>) =>
  sendStaffNotification(deps, body.userId === undefined ? { all: true } : { userId: body.userId }, body, staff.username);

const feedback = async ({ deps, query }: AdminInput<undefined, z.infer<typeof FeedbackQuery>>) =>
  listAnswer(await listTutorFeedback(deps, query));
const usage = async ({ deps, query }: AdminInput<undefined, z.infer<typeof UsageQuery>>) => listAnswer(await listTutorUsage(deps, query));

export const { handler, createHandler, routes } = defineGroup('adminsupport', {
  'GET /api/admin/tickets': route.admin({ permission: 'view_ticket', query: TicketsQuery, run: tickets }),
  'GET /api/admin/tickets/{id}': route.admin({ permission: 'view_ticket', query: NoQuery, run: ticket }),
  'POST /api/admin/tickets/{id}/messages': route.admin({ permission: 'change_ticket', body: Reply, run: reply }),
  'POST /api/admin/tickets/{id}/close': route.admin({ permission: 'change_ticket', run: close }),
  'GET /api/admin/notifications': route.admin({ permission: 'view_notification', query: SentQuery, run: sent }),
  'POST /api/admin/notifications': route.admin({ permission: 'add_notification', body: Send, status: 201, run: send }),
  'GET /api/admin/tutor/feedback': route.admin({ permission: 'view_tutorfeedback', query: FeedbackQuery, run: feedback }),
  'GET /api/admin/tutor/usage': route.admin({ permission: 'view_tutorusage', query: UsageQuery, run: usage }),
});
