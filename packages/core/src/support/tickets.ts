/**
 * Support tickets of the learner (issue 3 §9; spec "Ticket": text at most 5000 characters; DESIGN §3 routes and
 * bodies `{ subject, text }`, messages `{ text }`): open one, list them, read one with its messages.
 *
 * A learner sees only their own tickets: tickets live in the learner's partition, so another learner's ticket
 * id is simply not found (404). Statuses: `open` (waiting for staff), `answered` (staff replied, set by the
 * admin side), `closed` (by staff); a learner's new message reopens the ticket (`messages.ts`). Limits:
 * subject 1-{@link MAX_SUBJECT_LENGTH} characters, text 1-{@link MAX_TEXT_LENGTH} (enforced by the route's
 * schema), at most {@link MAX_MESSAGES} messages per ticket.
 *
 * Retries (DESIGN §3 Idempotency): opening a ticket and adding a message take an optional `Idempotency-Key`, stored in
 * the learner's partition in the same transaction as what it wrote (`idempotencyKey.entity.ts`). The same key with
 * the same request replays: the answer is the ticket as it is now (with the first request's message once, and
 * whatever happened to the ticket since), `replayed: true`. The same key with another request is 409
 * `idempotency_conflict`. Two requests racing with one key write one ticket or message.
 */
import type { User } from '../auth';
import { retryOptimistic } from '../db/conditions';
import { nextId } from '../db/counters';
import { type TxItem, transact } from '../db/transact';
import type { Deps } from '../deps';
import { supportErrors } from './errors';
import { bodyHash, claimSupportKey, readSupportKey, type SupportRequest, sameRequest } from './idempotencyKey.entity';
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

/** An answer that may be a replay: the ticket, and whether an `Idempotency-Key` sent before made it. */
export interface KeyedTicket {
  ticket: Ticket;
  /** True when the key was used before for this request: nothing was written now. */
  replayed: boolean;
}

/**
 * The replay of `wanted` under `idempotencyKey` of `user`: the ticket the key's request wrote, as it is now, or
 * undefined for a new key. Errors: `idempotency_conflict` (the key was used for another request), `not_found`.
 */
export async function replayTicketRequest(
  deps: Deps,
  user: Pick<User, 'id'>,
  idempotencyKey: string,
  wanted: SupportRequest,
): Promise<Ticket | undefined> {
  const stored = await readSupportKey(deps.db, user.id, idempotencyKey);
  if (!stored) return undefined;
  if (!sameRequest(stored, wanted)) throw supportErrors.idempotencyConflict();
  return getTicket(deps, user, stored.ticketId);
}

/**
 * Opens a ticket with its first message (one transaction); returns the ticket with that message. Subject and
 * text are trimmed. With `idempotencyKey` (see the module doc) the key is stored in that transaction, and a key
 * used before replays (`replayed: true`, the ticket as it is now). Errors: `validation_error` (blank subject or
 * text), `idempotency_conflict` (the key was used for another request), `database_busy` (lost races in a row).
 */
export async function openTicket(
  deps: Deps,
  user: Pick<User, 'id'>,
  input: { subject: string; text: string },
  idempotencyKey?: string,
): Promise<KeyedTicket> {
  const subject = input.subject.trim();
  const text = input.text.trim();
  if (!subject) throw supportErrors.blank('subject');
  if (!text) throw supportErrors.blank('text');
  const wanted: SupportRequest = { route: 'ticket', bodyHash: bodyHash([input.subject, input.text]) };
  return retryOptimistic(
    async () => {
      if (idempotencyKey) {
        const earlier = await replayTicketRequest(deps, user, idempotencyKey, wanted);
        if (earlier) return { ticket: earlier, replayed: true };
      }
      const id = await nextId(deps.db, 'ticket');
      const now = deps.clock.now();
      const ticket: TicketItem = { id, userId: user.id, subject, status: 'open', messageCount: 1, createdAt: now, updatedAt: now };
      const message: TicketMessageItem = { author: 'user', text, createdAt: now };
      const items: TxItem[] = [putNewTicket(deps.db, ticket), putMessage(deps.db, user.id, id, message)];
      if (idempotencyKey) items.push(claimSupportKey(deps.db, user.id, idempotencyKey, { ...wanted, ticketId: id, createdAt: now }));
      await transact(deps.db, items);
      return { ticket: { ...summaryOf(ticket), messages: [messageOf(message)] }, replayed: false };
    },
    // The key taken by a request racing with this one (the next try replays it or conflicts), or a lost race on the
    // new items: nothing was written, so try again.
    () => undefined,
  );
}

/** {@link openTicket} without a key: the new ticket (staff tools and tests). */
export const createTicket = async (deps: Deps, user: Pick<User, 'id'>, input: { subject: string; text: string }): Promise<Ticket> =>
  (await openTicket(deps, user, input)).ticket;

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
