/**
 * Endpoint group `support`: the learner's support tickets (issue 3 §9; DESIGN §3 bodies `{ subject, text }`
 * and `{ text }`; spec: ticket text at most 5000 characters, longer is a validation error). A learner sees
 * only their own tickets: another learner's ticket id is 404.
 */
import { addMessage, createTicket, getTicket, listTickets, MAX_SUBJECT_LENGTH, MAX_TEXT_LENGTH } from '@mathisland/core/support';
import * as z from 'zod';
import { defineGroup } from '../lib/group';
import { route, type UserInput } from '../lib/route';

const text = z.string().min(1).max(MAX_TEXT_LENGTH, `text must be at most ${MAX_TEXT_LENGTH} characters`);
const NewTicket = z.strictObject({ subject: z.string().min(1).max(MAX_SUBJECT_LENGTH), text });
const NewMessage = z.strictObject({ text });

type Input = UserInput<undefined, unknown>;

const list = ({ deps, user }: Input) => listTickets(deps, user);
const open = ({ deps, user, body }: UserInput<z.infer<typeof NewTicket>, unknown>) => createTicket(deps, user, body);
const read = ({ deps, user, id }: Input) => getTicket(deps, user, id);
const reply = ({ deps, user, id, body }: UserInput<z.infer<typeof NewMessage>, unknown>) => addMessage(deps, user, id, body.text);

export const { handler, createHandler, routes } = defineGroup('support', {
  'GET /api/tickets': route.user({ run: list }),
  'POST /api/tickets': route.user({ body: NewTicket, status: 201, run: open }),
  'GET /api/tickets/{id}': route.user({ run: read }),
  'POST /api/tickets/{id}/messages': route.user({ body: NewMessage, status: 201, run: reply }),
});
