/**
 * Support tickets (issue 3 §9; spec "Ticket": text at most 5000 characters; DESIGN §3 routes and bodies
 * `{ subject, text }`, messages `{ text }`).
 *
 * A ticket and its messages live in the learner's partition: the ticket at `TICKET#<id>` and each message
 * right after it at `TICKET#<id>#MSG#<time>#<n>`, so one Query reads a ticket with its messages in order, and
 * another learner's ticket id is simply not found (404). Tickets also sit in gsi1 under `TICKETS`, newest
 * activity first, for the staff side (admin) to list them without a Scan.
 *
 * Statuses: `open` (waiting for staff), `answered` (staff replied, set by the admin side), `closed` (by
 * staff). A learner's new message reopens an answered or closed ticket. Limits: subject 1-200 characters,
 * text 1-5000 characters (enforced by the route's schema), at most {@link MAX_MESSAGES} messages per ticket.
 */
import { randomBytes } from 'node:crypto';
import { paginateQuery, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { User } from '../auth';
import { isConditionFailure } from '../db/conditions';
import { nextId } from '../db/counters';
import { keys } from '../db/keys';
import { put, transact, update } from '../db/transact';
import type { Deps } from '../deps';
import { commonErrors, DomainError } from '../errors';

export const MAX_TEXT_LENGTH = 5000;
export const MAX_SUBJECT_LENGTH = 200;
export const MAX_MESSAGES = 100;

export type TicketStatus = 'open' | 'answered' | 'closed';

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
  createdAt: string;
}

export type Ticket = TicketSummary & { messages: TicketMessage[] };

interface StoredTicket {
  id: number;
  userId: number;
  subject: string;
  status: TicketStatus;
  messageCount: number;
  createdAt: number;
  updatedAt: number;
}
interface StoredMessage {
  author: 'user' | 'staff';
  text: string;
  createdAt: number;
}

const summaryOf = (t: StoredTicket): TicketSummary => ({
  id: t.id,
  subject: t.subject,
  status: t.status,
  messageCount: t.messageCount,
  createdAt: new Date(t.createdAt).toISOString(),
  updatedAt: new Date(t.updatedAt).toISOString(),
});

const indexKeys = (updatedAt: number, userId: number, id: number) => ({
  gsi1pk: keys.ticketIndexPartition,
  gsi1sk: `${String(updatedAt).padStart(13, '0')}#${userId}#${id}`,
});

const messageSuffix = () => randomBytes(4).toString('hex');

/** Opens a ticket with its first message. Returns the ticket with that message. */
export async function createTicket(deps: Deps, user: Pick<User, 'id'>, input: { subject: string; text: string }): Promise<Ticket> {
  const subject = input.subject.trim();
  const text = input.text.trim();
  if (!subject) throw new DomainError('validation_error', 'subject must not be blank', { fields: { subject: ['must not be blank'] } });
  if (!text) throw new DomainError('validation_error', 'text must not be blank', { fields: { text: ['must not be blank'] } });
  const id = await nextId(deps.db, 'ticket');
  const now = deps.clock.now();
  const ticket: StoredTicket = { id, userId: user.id, subject, status: 'open', messageCount: 1, createdAt: now, updatedAt: now };
  const message: StoredMessage = { author: 'user', text, createdAt: now };
  await transact(deps.db, [
    put(deps.db, { ...keys.ticket(user.id, id), ...ticket, ...indexKeys(now, user.id, id) }, { condition: 'attribute_not_exists(pk)' }),
    put(deps.db, { ...keys.ticketMessage(user.id, id, now, messageSuffix()), ...message }),
  ]);
  return { ...summaryOf(ticket), messages: [{ ...message, createdAt: new Date(now).toISOString() }] };
}

/** The learner's tickets, most recently active first (`{ items }`; a learner has few tickets, so no cursor). */
export async function listTickets(deps: Deps, user: Pick<User, 'id'>): Promise<{ items: TicketSummary[] }> {
  const tickets: StoredTicket[] = [];
  // Messages share the prefix; the filter keeps the ticket items only.
  const pages = paginateQuery(
    { client: deps.db.doc },
    {
      TableName: deps.db.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      FilterExpression: 'attribute_exists(subject)',
      ExpressionAttributeValues: { ':pk': keys.userPartition(user.id), ':prefix': keys.ticketPrefix },
    },
  );
  for await (const page of pages) tickets.push(...((page.Items ?? []) as StoredTicket[]));
  return { items: tickets.sort((a, b) => b.updatedAt - a.updatedAt || b.id - a.id).map(summaryOf) };
}

/** One of the learner's tickets with its messages, oldest first. Errors: `not_found` (none, or another learner's). */
export async function getTicket(deps: Deps, user: Pick<User, 'id'>, id: number): Promise<Ticket> {
  const page = await deps.db.doc.send(
    new QueryCommand({
      TableName: deps.db.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.userPartition(user.id), ':prefix': keys.ticket(user.id, id).sk },
      ConsistentRead: true,
    }),
  );
  const [ticket, ...messages] = (page.Items ?? []) as [StoredTicket | undefined, ...StoredMessage[]];
  if (!ticket || ticket.id !== id) throw commonErrors.notFound('Ticket');
  return {
    ...summaryOf(ticket),
    messages: messages.map((m) => ({ author: m.author, text: m.text, createdAt: new Date(m.createdAt).toISOString() })),
  };
}

/**
 * Adds the learner's message `text` to their ticket `id` and reopens it. Returns the ticket with its
 * messages. Errors: `not_found` (none, or another learner's), `validation_error` (blank text, or the ticket
 * has {@link MAX_MESSAGES} messages).
 */
export async function addMessage(deps: Deps, user: Pick<User, 'id'>, id: number, text: string): Promise<Ticket> {
  const body = text.trim();
  if (!body) throw new DomainError('validation_error', 'text must not be blank', { fields: { text: ['must not be blank'] } });
  const now = deps.clock.now();
  try {
    await transact(deps.db, [
      update(deps.db, keys.ticket(user.id, id), 'SET #status = :open, updatedAt = :now, gsi1sk = :sk ADD messageCount :one', {
        condition: 'attribute_exists(pk) AND messageCount < :max',
        names: { '#status': 'status' },
        values: { ':open': 'open', ':now': now, ':sk': indexKeys(now, user.id, id).gsi1sk, ':one': 1, ':max': MAX_MESSAGES },
      }),
      put(deps.db, { ...keys.ticketMessage(user.id, id, now, messageSuffix()), author: 'user', text: body, createdAt: now }),
    ]);
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const ticket = await getTicket(deps, user, id); // not_found when it is not the learner's
    throw new DomainError('validation_error', `A ticket holds at most ${MAX_MESSAGES} messages; open a new one`, {
      fields: { text: [`ticket ${ticket.id} is full`] },
    });
  }
  return getTicket(deps, user, id);
}
