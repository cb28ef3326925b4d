/**
 * A message of a support ticket, stored right after its ticket (`ticket.entity.ts`) in the learner's partition:
 *
 * | item    | pk            | sk                                                   |
 * |---------|---------------|------------------------------------------------------|
 * | message | USER#<userId> | TICKET#<ticketId 10>#MSG#<createdAt epoch ms 13>#<8 hex> |
 *
 * The random suffix breaks ties within one millisecond, so messages sort in time order. Attributes: author
 * (`user` or `staff`), text, createdAt (epoch ms). No GSI, no TTL.
 */
import { randomBytes } from 'node:crypto';
import * as z from 'zod';
import type { Db } from '../db/client';
import { queryAll } from '../db/items';
import { type Key, pad } from '../db/keys';
import { put, type TxItem } from '../db/transact';
import { lazySchema } from '../lazySchema';
import { TicketItem, ticketKey } from './ticket.entity';

export const ticketMessageKey = (userId: number, ticketId: number, atMs: number, suffix: string): Key => ({
  pk: ticketKey(userId, ticketId).pk,
  sk: `${ticketKey(userId, ticketId).sk}#MSG#${pad(atMs, 13)}#${suffix}`,
});

export const TicketMessageItem = lazySchema(() =>
  z
    .object({
      /** `user` (the learner) or `staff`. */
      author: z.enum(['user', 'staff']),
      text: z.string(),
      /** Staff replies: the staff member's username (never shown to the learner). */
      staff: z.string().optional(),
      /** Epoch ms. */
      createdAt: z.number().int(),
    })
    .describe('ticket message'),
);
export type TicketMessageItem = z.infer<typeof TicketMessageItem>;

/** Transaction item: puts `message` on ticket `ticketId` of `userId`, keyed by its time and a random suffix. */
export const putMessage = (db: Db, userId: number, ticketId: number, message: TicketMessageItem): TxItem =>
  put(db, { ...ticketMessageKey(userId, ticketId, message.createdAt, randomBytes(4).toString('hex')), ...message });

const ThreadItem = lazySchema(() => z.union([TicketItem, TicketMessageItem]).describe('ticket or ticket message'));

/**
 * Ticket `ticketId` of `userId` and its messages, oldest first, in one strongly consistent Query of the
 * ticket's sort-key prefix. `ticket` is undefined when the learner has no such ticket.
 */
export async function readThread(
  db: Db,
  userId: number,
  ticketId: number,
): Promise<{ ticket: TicketItem | undefined; messages: TicketMessageItem[] }> {
  const key = ticketKey(userId, ticketId);
  const items = await queryAll(db, { partition: key.pk, sortKey: { beginsWith: key.sk } }, ThreadItem);
  const messages = items.filter((item): item is TicketMessageItem => 'author' in item);
  const ticket = items.find((item): item is TicketItem => 'subject' in item && item.id === ticketId);
  return { ticket, messages };
}
