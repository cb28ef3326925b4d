/**
 * Support tickets of the learner (issue 3 §9; spec "Ticket": text at most 5000 characters; DESIGN §3 routes and
 * bodies `{ subject, text }`, messages `{ text }`): open one, list them, read one with its messages.
 *
 * A learner sees only their own tickets: tickets live in the learner's partition, so another learner's ticket
 * id is simply not found (404). Statuses: `open` (waiting for staff), `answered` (staff replied, set by the
 * admin side), `closed` (by staff); a learner's new message reopens the ticket (`messages.ts`). Limits:
 * subject 1-{@link MAX_SUBJECT_LENGTH} characters, text 1-{@link MAX_TEXT_LENGTH} (enforced by the route's
 * schema), at most {@link MAX_MESSAGES} messages per ticket.
 */
import type { User } from '../auth';
import { nextId } from '../db/counters';
import { transact } from '../db/transact';
import type { Deps } from '../deps';
import { supportErrors } from './errors';
import { putNewTicket, type TicketItem, type TicketStatus, ticketsOf } from './ticket.entity';
import { putMessage, readThread, type TicketMessageItem } from './ticketMessage.entity';

export const MAX_TEXT_LENGTH = 5000;
export const MAX_SUBJECT_LENGTH = 200;
export const MAX_MESSAGES = 100;

export interface TicketSummary {
  id: number;
  subject: string;
  status: TicketStatus;
  messageCount: number;
  /** ISO times. */
  createdAt: string;
  updatedAt: string;
}

export interface TicketMessage {
  /** `user` (the learner) or `staff`. */
  author: 'user' | 'staff';
  text: string;
  /** ISO time. */
  createdAt: string;
}

export type Ticket = TicketSummary & { messages: TicketMessage[] };

const summaryOf = (t: TicketItem): TicketSummary => ({
  id: t.id,
  subject: t.subject,
  status: t.status,
  messageCount: t.messageCount,
  createdAt: new Date(t.createdAt).toISOString(),
  updatedAt: new Date(t.updatedAt).toISOString(),
});

const messageOf = (m: TicketMessageItem): TicketMessage => ({
  author: m.author,
  text: m.text,
  createdAt: new Date(m.createdAt).toISOString(),
});

/**
 * Opens a ticket with its first message (one transaction); returns the ticket with that message. Subject and
 * text are trimmed. Errors: `validation_error` (blank subject or text).
 */
export async function createTicket(deps: Deps, user: Pick<User, 'id'>, input: { subject: string; text: string }): Promise<Ticket> {
  const subject = input.subject.trim();
  const text = input.text.trim();
  if (!subject) throw supportErrors.blank('subject');
  if (!text) throw supportErrors.blank('text');
  const id = await nextId(deps.db, 'ticket');
  const now = deps.clock.now();
  const ticket: TicketItem = { id, userId: user.id, subject, status: 'open', messageCount: 1, createdAt: now, updatedAt: now };
  const message: TicketMessageItem = { author: 'user', text, createdAt: now };
  await transact(deps.db, [putNewTicket(deps.db, ticket), putMessage(deps.db, user.id, id, message)]);
  return { ...summaryOf(ticket), messages: [messageOf(message)] };
}

/** The learner's tickets, most recently active first (`{ items }`; a learner has few tickets, so no cursor). */
export async function listTickets(deps: Deps, user: Pick<User, 'id'>): Promise<{ items: TicketSummary[] }> {
  const tickets = await ticketsOf(deps.db, user.id);
  return { items: tickets.sort((a, b) => b.updatedAt - a.updatedAt || b.id - a.id).map(summaryOf) };
}

/** One of the learner's tickets with its messages, oldest first. Errors: `not_found` (none, or another learner's). */
export async function getTicket(deps: Deps, user: Pick<User, 'id'>, id: number): Promise<Ticket> {
  const { ticket, messages } = await readThread(deps.db, user.id, id);
  if (!ticket) throw supportErrors.notFound();
  return { ...summaryOf(ticket), messages: messages.map(messageOf) };
}
