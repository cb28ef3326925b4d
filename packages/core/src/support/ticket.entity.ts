/**
 * A learner's support ticket (issue 3 §9). Its messages are `ticketMessage.entity.ts`, right after it in the
 * same partition, so one Query reads a ticket with its messages in order.
 *
 * | item   | pk             | sk                    | gsi1pk  | gsi1sk                                   |
 * |--------|----------------|-----------------------|---------|------------------------------------------|
 * | ticket | USER#<userId>  | TICKET#<ticketId 10>  | TICKETS | <updatedAt epoch ms 13>#<userId>#<ticketId> |
 *
 * gsi1 lists every learner's tickets by latest activity, for the staff side, without a Scan; gsi2
 * `TICKETID#<ticketId>` / `TICKET` finds a ticket by id alone (staff routes name only the id; tickets written
 * before it get it from migration `0003-admin-indexes`). Ticket ids come from the `ticket` counter. No TTL:
 * tickets go with the account (`TICKET#` is a personal prefix).
 */
import * as z from 'zod';
import type { Db } from '../db/client';
import { type Page, queryAll, queryPage, timeRange } from '../db/items';
import { type Key, pad, userPartition } from '../db/keys';
import { put, type TxItem, update } from '../db/transact';
import { lazySchema } from '../lazySchema';

/** The sort-key prefix of a learner's tickets and their messages. */
export const TICKET_PREFIX = 'TICKET#';
/** gsi1 partition of all tickets. */
export const TICKET_INDEX_PARTITION = 'TICKETS';

export const ticketKey = (userId: number, ticketId: number): Key => ({
  pk: userPartition(userId),
  sk: `${TICKET_PREFIX}${pad(ticketId, 10)}`,
});

/** The ticket's gsi1 attributes: newest activity sorts last. */
export const ticketIndexKeys = (updatedAt: number, userId: number, ticketId: number) => ({
  gsi1pk: TICKET_INDEX_PARTITION,
  gsi1sk: `${pad(updatedAt, 13)}#${userId}#${ticketId}`,
});

/** The ticket's gsi2 attributes: its id alone. */
export const ticketIdIndex = (ticketId: number) => ({ gsi2pk: `TICKETID#${ticketId}`, gsi2sk: 'TICKET' });

export const TicketItem = lazySchema(() =>
  z
    .object({
      id: z.number().int().positive(),
      userId: z.number().int().positive(),
      subject: z.string(),
      /** `open` (waiting for staff), `answered` (staff replied), `closed` (by staff). */
      status: z.enum(['open', 'answered', 'closed']),
      messageCount: z.number().int().nonnegative(),
      /** Epoch ms. */
      createdAt: z.number().int(),
      /** Epoch ms of the latest message. */
      updatedAt: z.number().int(),
    })
    .describe('ticket'),
);
export type TicketItem = z.infer<typeof TicketItem>;
export type TicketStatus = TicketItem['status'];

/** Transaction item: puts the new ticket, only if its id is unused. */
export const putNewTicket = (db: Db, ticket: TicketItem): TxItem =>
  put(
    db,
    {
      ...ticketKey(ticket.userId, ticket.id),
      ...ticket,
      ...ticketIndexKeys(ticket.updatedAt, ticket.userId, ticket.id),
      ...ticketIdIndex(ticket.id),
    },
    { condition: 'attribute_not_exists(pk)' },
  );

/**
 * Transaction item: a new message of the learner at `now` (epoch ms) reopens the ticket, moves it up in gsi1
 * and counts the message, only while the ticket exists and has fewer than `maxMessages` messages.
 */
export const reopenWithMessage = (db: Db, userId: number, ticketId: number, now: number, maxMessages: number): TxItem =>
  update(db, ticketKey(userId, ticketId), 'SET #status = :open, updatedAt = :now, gsi1sk = :sk ADD messageCount :one', {
    condition: 'attribute_exists(pk) AND messageCount < :max',
    names: { '#status': 'status' },
    values: { ':open': 'open', ':now': now, ':sk': ticketIndexKeys(now, userId, ticketId).gsi1sk, ':one': 1, ':max': maxMessages },
  });

/** The learner's tickets, without their messages (they share the prefix; the filter keeps the tickets). */
export const ticketsOf = (db: Db, userId: number): Promise<TicketItem[]> =>
  queryAll(
    db,
    { partition: userPartition(userId), sortKey: { beginsWith: TICKET_PREFIX }, filter: { condition: 'attribute_exists(subject)' } },
    TicketItem,
  );

/** Transaction item: a staff reply at `now` marks the ticket `answered`, moves it up in gsi1 and counts the message (same limits). */
export const answerWithMessage = (db: Db, userId: number, ticketId: number, now: number, maxMessages: number): TxItem =>
  update(db, ticketKey(userId, ticketId), 'SET #status = :answered, updatedAt = :now, gsi1sk = :sk ADD messageCount :one', {
    condition: 'attribute_exists(pk) AND messageCount < :max',
    names: { '#status': 'status' },
    values: { ':answered': 'answered', ':now': now, ':sk': ticketIndexKeys(now, userId, ticketId).gsi1sk, ':one': 1, ':max': maxMessages },
  });

/**
 * The transaction item closing ticket `ticketId` of `userId` while its status is still `before`; it fails (condition)
 * when the ticket is gone or its status changed meanwhile.
 */
export const ticketClosure = (db: Db, userId: number, ticketId: number, before: TicketStatus): TxItem =>
  update(db, ticketKey(userId, ticketId), 'SET #status = :closed', {
    condition: 'attribute_exists(pk) AND #status = :before',
    names: { '#status': 'status' },
    values: { ':closed': 'closed', ':before': before },
  });

/** The ticket `ticketId` found by id alone (gsi2), or undefined. */
export async function ticketById(db: Db, ticketId: number): Promise<TicketItem | undefined> {
  const page = await queryPage(db, { index: 'gsi2', partition: ticketIdIndex(ticketId).gsi2pk, limit: 1 }, TicketItem);
  return page.items[0];
}

/**
 * One page of every learner's tickets, latest activity first (gsi1; `order: 'asc'`: oldest activity first), optionally
 * of one status and with the latest activity at `from`..`to` (epoch ms, inclusive: the index's sort key). Errors:
 * `validation_error` (cursor).
 */
export const ticketsPage = (
  db: Db,
  options: { status?: TicketStatus; from?: number; to?: number; order?: 'asc' | 'desc'; limit: number; cursor?: string },
): Promise<Page<TicketItem>> =>
  queryPage(
    db,
    {
      index: 'gsi1',
      partition: TICKET_INDEX_PARTITION,
      sortKey: timeRange('', 13, options),
      descending: options.order !== 'asc',
      limit: options.limit,
      ...(options.status ? { filter: { condition: '#s = :s', names: { '#s': 'status' }, values: { ':s': options.status } } } : {}),
    },
    TicketItem,
    options.cursor,
  );
