/**
 * Endpoint group `support`: the learner's support tickets (issue 3 §9; DESIGN §3 bodies `{ subject, text }`
 * and `{ text }`; spec: ticket text at most 5000 characters, longer is a validation error). A learner sees
 * only their own tickets: another learner's ticket id is 404.
 */
import { addMessage, createTicket, getTicket, listTickets, MAX_SUBJECT_LENGTH, MAX_TEXT_LENGTH } from '@mathisland/core/support/index';
import { z } from 'zod';
import { defineGroup, route } from '../lib/group';

const text = z.string().min(1).max(MAX_TEXT_LENGTH, `text must be at most ${MAX_TEXT_LENGTH} characters`);

export const { handler, routes } = defineGroup('support', {
  'GET /api/tickets': route({ run: ({ deps, user }) => listTickets(deps, user) }),
  'POST /api/tickets': route({
    body: z.strictObject({ subject: z.string().min(1).max(MAX_SUBJECT_LENGTH), text }),
    status: 201,
    run: ({ deps, user, body }) => createTicket(deps, user, body),
  }),
  'GET /api/tickets/{id}': route({ run: ({ deps, user, id }) => getTicket(deps, user, id) }),
  'POST /api/tickets/{id}/messages': route({
    body: z.strictObject({ text }),
    status: 201,
    run: ({ deps, user, id, body }) => addMessage(deps, user, id, body.text),
  }),
});
