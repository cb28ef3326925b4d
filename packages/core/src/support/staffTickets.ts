/**
 * Support tickets on the staff side (DESIGN §9 tickets: list, filter, show with messages, reply, close): every
 * learner's tickets by latest activity (gsi1 `TICKETS`), or one learner's; a ticket found by its id alone (gsi2).
 * A staff reply marks the ticket `answered`; closing marks it `closed`; a learner's next message reopens it
 * (messages.ts). Messages show who wrote them (`learner` or `staff`, with the staff member's username).
 */
import { getUsers } from '../auth';
import { isConditionFailure, retryOptimistic } from '../db/conditions';
import type { Page } from '../db/items';
import { fillPage } from '../db/pages';
import { type TxItem, transact } from '../db/transact';
import type { Deps } from '../deps';
import { commonErrors } from '../errors';
import { type Changes, type HistoryAction, historyItems } from '../history';
import { auditStaffAction } from '../log';
import { supportErrors } from './errors';
import { answerWithMessage, type TicketItem, type TicketStatus, ticketById, ticketClosure, ticketsOf, ticketsPage } from './ticket.entity';
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

/**
 * `GET /api/admin/tickets`: latest activity first (`order: 'asc'`: oldest first), by status, learner and the latest
 * activity's time (`from`..`to`, epoch ms). Errors: `validation_error` (cursor).
 */
export async function listTicketsForStaff(
  deps: Pick<Deps, 'db'>,
  query: { status?: TicketStatus; userId?: number; from?: number; to?: number; order?: 'asc' | 'desc'; limit: number; cursor?: string },
): Promise<Page<StaffTicketView>> {
  if (query.userId !== undefined) {
    const asc = query.order === 'asc' ? -1 : 1;
    const own = (await ticketsOf(deps.db, query.userId))
      .filter((t) => query.status === undefined || t.status === query.status)
      .filter((t) => t.updatedAt >= (query.from ?? 0) && t.updatedAt <= (query.to ?? Number.MAX_SAFE_INTEGER))
      .sort((a, b) => asc * (b.updatedAt - a.updatedAt || b.id - a.id));
    return { items: await withPublicIds(deps, own) };
  }
  const { userId: _all, ...filter } = query;
  const page = await fillPage((limit, cursor) => ticketsPage(deps.db, { ...filter, limit, cursor }), query);
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

/** The history entry items of `action` on `ticket` by `actor` at `at` (DESIGN §9). */
const ticketHistory = (
  deps: Pick<Deps, 'db'>,
  actor: string,
  action: HistoryAction,
  at: number,
  ticket: TicketItem,
  changes: Changes,
): TxItem[] =>
  historyItems(deps.db, {
    at,
    staff: actor,
    action,
    model: 'ticket',
    objectId: ticket.id,
    objectRepr: `#${ticket.id} ${ticket.subject}`,
    changes,
  });

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
      ...ticketHistory(deps, actor, 'reply', now, ticket, {
        status: [ticket.status, 'answered'],
        messageCount: [ticket.messageCount, ticket.messageCount + 1],
      }),
    ]);
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    await findTicket(deps, ticketId);
    throw supportErrors.ticketFull(ticketId, MAX_MESSAGES);
  }
  auditStaffAction(actor, 'reply', 'ticket', ticketId);
  return ticketForStaff(deps, ticketId);
}

/**
 * Staff member `actor` closes ticket `ticketId` (status as read, so a learner's message meanwhile is seen and the
 * ticket closed after it), with its history entry; a closed ticket stays as it is (`changed` false, nothing written).
 * Errors: `not_found`, `database_busy`.
 */
export function closeTicketAs(deps: Deps, ticketId: number, actor: string): Promise<{ changed: boolean }> {
  return retryOptimistic(
    async () => {
      const ticket = await findTicket(deps, ticketId);
      if (ticket.status === 'closed') return { changed: false };
      const now = deps.clock.now();
      await transact(deps.db, [
        ticketClosure(deps.db, ticket.userId, ticketId, ticket.status),
        ...ticketHistory(deps, actor, 'close', now, ticket, { status: [ticket.status, 'closed'] }),
      ]);
      auditStaffAction(actor, 'close', 'ticket', ticketId);
      return { changed: true };
    },
    () => undefined,
    { busy: () => commonErrors.databaseBusy(1) },
  );
}

/** Staff member `actor` closes ticket `ticketId` and gets it back. Errors: `not_found`, `database_busy`. */
export async function closeTicket(deps: Deps, ticketId: number, actor: string) {
  await closeTicketAs(deps, ticketId, actor);
  return ticketForStaff(deps, ticketId);
}
