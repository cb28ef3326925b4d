/**
 * Endpoint group `adminsupport`: support tickets, staff notifications and the tutor's feedback and usage for the
 * staff (DESIGN §9; docs/admin-api.md). Tickets: `view_ticket`, `change_ticket` (reply → answered, close).
 * Notifications: `view_notification`, `add_notification` (to one learner, or to all as one broadcast item).
 * Tutor: read-only (`view_tutorfeedback`, `view_tutorusage`).
 */
import { lazySchema } from '@mathisland/core';
import { listSentNotifications, sendStaffNotification } from '@mathisland/core/notifications';
import { closeTicket, listTicketsForStaff, MAX_TEXT_LENGTH, replyAsStaff, ticketForStaff } from '@mathisland/core/support';
import { listTutorFeedback, listTutorUsage } from '@mathisland/core/tutor';
import * as z from 'zod';
import { adminsupportRoutes } from '../../../../infra/routes/adminsupport';
import { feedbackFilters, listWithRange, sentFilters, ticketsFilters, usageFilters } from '../lib/adminLists';
import { listAnswer, listQuery } from '../lib/adminQuery';
import { defineGroup } from '../lib/group';
import { created, json } from '../lib/responses';
import { type AdminInput, route } from '../lib/route';
import { adminPage, Day, Id, IsoTime, responseShape } from '../lib/shapes';

const TicketsQuery = listWithRange(ticketsFilters);
const SentQuery = listQuery(sentFilters);
const FeedbackQuery = listQuery(feedbackFilters);
const UsageQuery = listQuery(usageFilters);
const NoQuery = z.strictObject({});
const Reply = lazySchema(() => z.strictObject({ text: z.string().min(1).max(MAX_TEXT_LENGTH) }));
const Send = lazySchema(() =>
  z
    .strictObject({
      userId: z.number().int().positive().optional(),
      all: z.literal(true).optional(),
      title: z.string().min(1).max(100),
      body: z.string().min(1).max(2000),
    })
    .refine((b) => (b.userId === undefined) !== (b.all === undefined), { message: 'give either userId or all: true', path: ['userId'] }),
);

type Input<B = undefined> = AdminInput<B, unknown>;

const count = z.number().int().min(0);
const StaffTicketSummary = responseShape(() =>
  z.object({
    id: Id,
    userId: Id,
    userPublicId: z.string().nullable(),
    subject: z.string(),
    status: z.enum(['open', 'answered', 'closed']),
    messageCount: count,
    createdAt: IsoTime,
    updatedAt: IsoTime,
  }),
);
const StaffTicket = responseShape(() =>
  StaffTicketSummary.unwrap()
    .extend({
      messages: z.array(z.object({ from: z.enum(['learner', 'staff']), text: z.string(), at: IsoTime, staff: z.string().optional() })),
    })
    .meta({ id: 'StaffTicket' }),
);
const SentNotification = responseShape(() =>
  z.object({
    id: Id,
    audience: z.enum(['all', 'user']),
    userId: Id.nullable(),
    title: z.string(),
    body: z.string(),
    sentAt: IsoTime,
    staff: z.string(),
  }),
);
const Feedback = responseShape(() =>
  z
    .looseObject({
      id: z.string(),
      rating: z.enum(['up', 'down']),
    })
    .meta({ description: 'A rated tutor answer with its learner and text' }),
);
const Usage = responseShape(() =>
  z.object({
    id: Day.meta({ description: 'The day' }),
    day: Day,
    answers: count,
    cachedAnswers: count,
    refusals: count,
    incomplete: count.meta({ description: 'Answers the model stopped at its token cap or by its content filter (not stored or cached)' }),
    promptTokens: count,
    completionTokens: count,
  }),
);
const ticketNotFound = { not_found: 'No such ticket.' };

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

export const { handler, createHandler, routes } = defineGroup(adminsupportRoutes, {
  'GET /api/admin/tickets': route.admin({
    permission: 'view_ticket',
    query: TicketsQuery,
    responses: { 200: adminPage(StaffTicketSummary) },
    run: tickets,
  }),
  'GET /api/admin/tickets/{id}': route.admin({
    permission: 'view_ticket',
    query: NoQuery,
    responses: { 200: StaffTicket },
    errors: ticketNotFound,
    run: ticket,
  }),
  'POST /api/admin/tickets/{id}/messages': route.admin({
    permission: 'change_ticket',
    body: Reply,
    responses: { 200: json(StaffTicket, 'The ticket, status answered') },
    errors: ticketNotFound,
    run: reply,
  }),
  'POST /api/admin/tickets/{id}/close': route.admin({
    permission: 'change_ticket',
    responses: { 200: json(StaffTicket, 'The closed ticket') },
    errors: ticketNotFound,
    run: close,
  }),
  'GET /api/admin/notifications': route.admin({
    permission: 'view_notification',
    query: SentQuery,
    responses: { 200: adminPage(SentNotification) },
    run: sent,
  }),
  'POST /api/admin/notifications': route.admin({
    permission: 'add_notification',
    body: Send,
    description: 'To one learner (`userId`) or to all (`all: true`, one broadcast item).',
    ...created(SentNotification, 'Sent'),
    errors: { not_found: 'No such learner.' },
    run: send,
  }),
  'GET /api/admin/tutor/feedback': route.admin({
    permission: 'view_tutorfeedback',
    query: FeedbackQuery,
    responses: { 200: adminPage(Feedback) },
    run: feedback,
  }),
  'GET /api/admin/tutor/usage': route.admin({
    permission: 'view_tutorusage',
    query: UsageQuery,
    description: 'Per Tehran day, newest first, zeros on quiet days; at most 400 days.',
    responses: { 200: adminPage(Usage) },
    run: usage,
  }),
});
