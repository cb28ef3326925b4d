/**
 * Support tickets on the staff side (DESIGN §9 tickets: list, filter, show with messages, reply, close): every
 * learner's tickets by latest activity (gsi1 `TICKETS`), or one learner's; a ticket found by its id alone (gsi2).
 * A staff reply marks the ticket `answered`; closing marks it `closed`; a learner's next message reopens it
 * (messages.ts). Messages show who wrote them (`learner` or `staff`, with the staff member's username).
 */
import { getUsers } from '../auth';
import { isConditionFailure } from '../db/conditions';
import type { Page } from '../db/items';
import { fillPage } from '../db/pages';
import { transact } from '../db/transact';
import type { Deps } from '../deps';
import { auditStaffAction } from '../log';
import { supportErrors } from './errors';
import {
  answerWithMessage,
  closeTicketItem,
  type TicketItem,
  type TicketStatus,
  ticketById,
  ticketsOf,
  ticketsPage,
} from './ticket.entity';
import { putMessage, readThread, type TicketMessageItem } from './ticketMessage.entity';
import { MAX_MESSAGES } from './tickets';

const iso = (ms: number) => new Date(ms).toISOString();

const staffTicketView = (t: TicketItem, userPublicId: string | null) => ({
  id: t.id,
  userId: t.userId,
  userPublicId,
  subject: t.subject,
  status: t.status,
  messageCount: t.messageCount,
  createdAt: iso(t.createdAt),
  updatedAt: iso(t.updatedAt),
});
export type StaffTicketView = ReturnType<typeof staffTicketView>;

const staffMessageView = (m: TicketMessageItem) => ({
  from: m.author === 'staff' ? ('staff' as const) : ('learner' as const),
  text: m.text,
  at: iso(m.createdAt),
  ...(m.staff ? { staff: m.staff } : {}),
});

async function withPublicIds(deps: Pick<Deps, 'db'>, tickets: TicketItem[]): Promise<StaffTicketView[]> {
  const users = new Map(
    (
      await getUsers(
        deps.db,
        tickets.map((t) => t.userId),
      )
    ).map((u) => [u.id, u.publicId]),
  );
  return tickets.map((t) => staffTicketView(t, users.get(t.userId) ?? null));
}

/** `GET /api/admin/tickets`: latest activity first, by status and learner. Errors: `validation_error` (cursor). */
export async function listTicketsForStaff(
  deps: Pick<Deps, 'db'>,
  query: { status?: TicketStatus; userId?: number; limit: number; cursor?: string },
): Promise<Page<StaffTicketView>> {
  if (query.userId !== undefined) {
    const own = (await ticketsOf(deps.db, query.userId))
      .filter((t) => query.status === undefined || t.status === query.status)
      .sort((a, b) => b.updatedAt - a.updatedAt || b.id - a.id);
    return { items: await withPublicIds(deps, own) };
  }
  const page = await fillPage((limit, cursor) => ticketsPage(deps.db, { status: query.status, limit, cursor }), query);
  return { ...page, items: await withPublicIds(deps, page.items) };
}

async function findTicket(deps: Pick<Deps, 'db'>, ticketId: number): Promise<TicketItem> {
  const ticket = await ticketById(deps.db, ticketId);
  if (!ticket) throw supportErrors.notFound();
  return ticket;
}

/** Ticket `ticketId` with its messages, oldest first. Errors: `not_found`. */
export async function ticketForStaff(deps: Pick<Deps, 'db'>, ticketId: number) {
  const found = await findTicket(deps, ticketId);
  const { ticket, messages } = await readThread(deps.db, found.userId, ticketId);
  if (!ticket) throw supportErrors.notFound();
  const [view] = await withPublicIds(deps, [ticket]);
  return { ...(view as StaffTicketView), messages: messages.map(staffMessageView) };
}

/**
 * Staff member `actor` answers ticket `ticketId` with `text` (trimmed): the message and the `answered` status in
 * one transaction. Errors: `not_found`, `validation_error` (blank, or the ticket is full).
 */
export async function replyAsStaff(deps: Deps, ticketId: number, text: string, actor: string) {
  const body = text.trim();
  if (!body) throw supportErrors.blank('text');
  const ticket = await findTicket(deps, ticketId);
  const now = deps.clock.now();
  try {
    await transact(deps.db, [
      answerWithMessage(deps.db, ticket.userId, ticketId, now, MAX_MESSAGES),
      putMessage(deps.db, ticket.userId, ticketId, { author: 'staff', staff: actor, text: body, createdAt: now }),
    ]);
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    await findTicket(deps, ticketId);
    throw supportErrors.ticketFull(ticketId, MAX_MESSAGES);
  }
  auditStaffAction(actor, 'reply', 'ticket', ticketId);
  return ticketForStaff(deps, ticketId);
}

/** Staff member `actor` closes ticket `ticketId`. Errors: `not_found`. */
export async function closeTicket(deps: Deps, ticketId: number, actor: string) {
  const ticket = await findTicket(deps, ticketId);
  try {
    await closeTicketItem(deps.db, ticket.userId, ticketId);
  } catch (error) {
    if (isConditionFailure(error)) throw supportErrors.notFound();
    throw error;
  }
  auditStaffAction(actor, 'close', 'ticket', ticketId);
  return ticketForStaff(deps, ticketId);
}
