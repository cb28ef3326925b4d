/**
 * Endpoint group `support`: the learner's support tickets (issue 3 §9; DESIGN §3 bodies `{ subject, text }`
 * and `{ text }`; spec: ticket text at most 5000 characters, longer is a validation error). A learner sees
 * only their own tickets: another learner's ticket id is 404.
 */
import { lazySchema } from '@mathisland/core';
import { addMessage, createTicket, getTicket, listTickets, MAX_SUBJECT_LENGTH, MAX_TEXT_LENGTH } from '@mathisland/core/support';
import * as z from 'zod';
import { supportRoutes } from '../../../../infra/routes/support';
import { defineGroup } from '../lib/group';
import { created } from '../lib/responses';
import { route, type UserInput } from '../lib/route';
import { Id, IsoTime, page, responseShape } from '../lib/shapes';

const text = z.string().min(1).max(MAX_TEXT_LENGTH, `text must be at most ${MAX_TEXT_LENGTH} characters`);
const NewTicket = lazySchema(() => z.strictObject({ subject: z.string().min(1).max(MAX_SUBJECT_LENGTH), text }));
const NewMessage = lazySchema(() => z.strictObject({ text }));

type Input = UserInput<undefined, unknown>;

const TicketSummary = responseShape(() =>
  z.object({
    id: Id,
    subject: z.string(),
    status: z.enum(['open', 'answered', 'closed']),
    messageCount: z.number().int().min(0),
    createdAt: IsoTime,
    updatedAt: IsoTime,
  }),
);
const Ticket = responseShape(() =>
  TicketSummary.unwrap()
    .extend({
      messages: z
        .array(z.object({ author: z.enum(['user', 'staff']), text: z.string(), createdAt: IsoTime }))
        .meta({ description: 'Oldest first' }),
    })
    .meta({ id: 'Ticket' }),
);
const notFound = { not_found: 'No such ticket of the caller’s.' };

const list = ({ deps, user }: Input) => listTickets(deps, user);
const open = ({ deps, user, body }: UserInput<z.infer<typeof NewTicket>, unknown>) => createTicket(deps, user, body);
const read = ({ deps, user, id }: Input) => getTicket(deps, user, id);
const reply = ({ deps, user, id, body }: UserInput<z.infer<typeof NewMessage>, unknown>) => addMessage(deps, user, id, body.text);

export const { handler, createHandler, routes } = defineGroup(supportRoutes, {
  'GET /api/tickets': route.user({ description: 'Most recently active first.', responses: { 200: page(TicketSummary) }, run: list }),
  'POST /api/tickets': route.user({ body: NewTicket, ...created(Ticket, 'The new ticket'), run: open }),
  'GET /api/tickets/{id}': route.user({ responses: { 200: Ticket }, errors: notFound, run: read }),
  'POST /api/tickets/{id}/messages': route.user({
    body: NewMessage,
    description: 'A learner’s message reopens the ticket; at most 100 messages per ticket (then 400 `validation_error`).',
    ...created(Ticket, 'The ticket with its messages'),
    errors: notFound,
    run: reply,
  }),
});
