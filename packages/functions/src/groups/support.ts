/**
 * Endpoint group `support`: the learner's support tickets (issue 3 §9; DESIGN §3 bodies `{ subject, text }`
 * and `{ text }`; spec: ticket text at most 5000 characters, longer is a validation error). A learner sees
 * only their own tickets: another learner's ticket id is 404. The two POSTs take an optional `Idempotency-Key`
 * (DESIGN §3 Idempotency: wherever a retry could double an effect): the same key and body replay (201,
 * `Idempotent-Replayed: true`, the ticket as it is now), the same key for another request is 409
 * `idempotency_conflict` (core `support/tickets.ts`).
 */
import { lazySchema } from '@mathisland/core';
import {
  addMessage,
  getTicket,
  type KeyedTicket,
  listTickets,
  MAX_SUBJECT_LENGTH,
  MAX_TEXT_LENGTH,
  openTicket,
} from '@mathisland/core/support';
import * as z from 'zod';
import { supportRoutes } from '../../../../infra/routes/support';
import { defineGroup } from '../lib/group';
import { created201, idempotencyKeyHeader, idempotencyKeyOf, replayedHeader } from '../lib/idempotency';
import { json } from '../lib/responses';
import { route, type UserInput } from '../lib/route';
import { Id, IsoTime, page, responseShape } from '../lib/shapes';

const text = z.string().min(1).max(MAX_TEXT_LENGTH, `text must be at most ${MAX_TEXT_LENGTH} characters`);
const NewTicket = lazySchema(() => z.strictObject({ subject: z.string().min(1).max(MAX_SUBJECT_LENGTH), text }));
const NewMessage = lazySchema(() => z.strictObject({ text }));

type Input = UserInput<undefined, unknown>;

const KeyHeaders = idempotencyKeyHeader('Optional. Same key, user and body: the first request’s ticket is answered again, as it is now', {
  required: false,
});
const keyErrors = {
  validation_error: 'A bad body, or a malformed `Idempotency-Key` (`fields` names the header).',
  idempotency_conflict: 'The `Idempotency-Key` was used for another request: the other ticket route, another ticket or another body.',
};
/** A keyed answer: 201 with the ticket, marked when it is a replay. */
const keyed = ({ ticket, replayed }: KeyedTicket) => created201(ticket, replayed);

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
const open = async (input: UserInput<z.infer<typeof NewTicket>, unknown>) =>
  keyed(await openTicket(input.deps, input.user, input.body, idempotencyKeyOf(input.event)));
const read = ({ deps, user, id }: Input) => getTicket(deps, user, id);
const reply = async (input: UserInput<z.infer<typeof NewMessage>, unknown>) =>
  keyed(await addMessage(input.deps, input.user, input.id, input.body.text, idempotencyKeyOf(input.event)));

export const { handler, createHandler, routes } = defineGroup(supportRoutes, {
  'GET /api/tickets': route.user({ description: 'Most recently active first.', responses: { 200: page(TicketSummary) }, run: list }),
  'POST /api/tickets': route.user({
    body: NewTicket,
    headers: KeyHeaders,
    description:
      'With an `Idempotency-Key`, the same key and body answer the ticket it opened (as it is now) with `Idempotent-Replayed: true`, and open none.',
    status: 201,
    responses: { 201: json(Ticket, 'The new ticket (a replay: the ticket the key opened)', { headers: replayedHeader }) },
    errors: keyErrors,
    run: open,
  }),
  'GET /api/tickets/{id}': route.user({ responses: { 200: Ticket }, errors: notFound, run: read }),
  'POST /api/tickets/{id}/messages': route.user({
    body: NewMessage,
    headers: KeyHeaders,
    description:
      'A learner’s message reopens the ticket; at most 100 messages per ticket (then 400 `validation_error`). With an `Idempotency-Key`, the same key, ticket and body answer the ticket as it is now (holding that message once) with `Idempotent-Replayed: true`, and add nothing.',
    status: 201,
    responses: { 201: json(Ticket, 'The ticket with its messages', { headers: replayedHeader }) },
    errors: {
      ...notFound,
      ...keyErrors,
      validation_error: 'A bad body, a ticket holding 100 messages, or a malformed `Idempotency-Key` (`fields` names the header).',
    },
    run: reply,
  }),
});
