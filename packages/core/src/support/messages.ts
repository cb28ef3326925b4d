/**
 * A learner's reply on their own support ticket (`POST /api/tickets/{id}/messages` `{ text }`, optional
 * `Idempotency-Key`; see `tickets.ts`).
 */
import type { User } from '../auth';
import { failedItems, retryOptimistic } from '../db/conditions';
import { type TxItem, transact } from '../db/transact';
import type { Deps } from '../deps';
import { supportErrors } from './errors';
import { bodyHash, claimSupportKey, type SupportRequest } from './idempotencyKey.entity';
import { reopenWithMessage } from './ticket.entity';
import { putMessage } from './ticketMessage.entity';
import { getTicket, type KeyedTicket, MAX_MESSAGES, replayTicketRequest } from './tickets';

/** Index of the ticket's update in the message's transaction (its condition: the ticket exists and is not full). */
const TICKET_ITEM = 0;
/** Index of the key's item in it (its condition: a new key). */
const KEY_ITEM = 2;

/**
 * Adds the learner's message `text` (trimmed) to their ticket `id` and reopens it, in one conditional
 * transaction. Returns the ticket with its messages. With `idempotencyKey` the key is stored in that transaction,
 * and a key used before replays (`replayed: true`, the ticket as it is now, holding that message once; tickets.ts).
 * A transaction that lost a race (another message at the same moment, the same key) is tried again.
 * Errors: `not_found` (none, or another learner's), `validation_error` (blank text, or the ticket has
 * {@link MAX_MESSAGES} messages), `idempotency_conflict` (the key was used for another request), `database_busy`.
 */
export async function addMessage(
  deps: Deps,
  user: Pick<User, 'id'>,
  id: number,
  text: string,
  idempotencyKey?: string,
): Promise<KeyedTicket> {
  const body = text.trim();
  if (!body) throw supportErrors.blank('text');
  const wanted: SupportRequest = { route: 'message', ticketId: id, bodyHash: bodyHash([text]) };
  return retryOptimistic(
    async () => {
      if (idempotencyKey) {
        const earlier = await replayTicketRequest(deps, user, idempotencyKey, wanted);
        if (earlier) return { ticket: earlier, replayed: true };
      }
      const now = deps.clock.now();
      const items: TxItem[] = [
        reopenWithMessage(deps.db, user.id, id, now, MAX_MESSAGES),
        putMessage(deps.db, user.id, id, { author: 'user', text: body, createdAt: now }),
      ];
      if (idempotencyKey) items.push(claimSupportKey(deps.db, user.id, idempotencyKey, { ...wanted, ticketId: id, createdAt: now }));
      await transact(deps.db, items);
      return { ticket: await getTicket(deps, user, id), replayed: false };
    },
    async (error) => {
      const failed = failedItems(error);
      // The key was taken by a request racing with this one: the next try replays it (or conflicts).
      if (failed.includes(KEY_ITEM) || !failed.includes(TICKET_ITEM)) return undefined;
      const ticket = await getTicket(deps, user, id); // not_found when it is not the learner's
      throw supportErrors.ticketFull(ticket.id, MAX_MESSAGES);
    },
  );
}
