/** A learner's reply on their own support ticket (`POST /api/tickets/{id}/messages` `{ text }`; see `tickets.ts`). */
import type { User } from '../auth';
import { isConditionFailure } from '../db/conditions';
import { transact } from '../db/transact';
import type { Deps } from '../deps';
import { supportErrors } from './errors';
import { reopenWithMessage } from './ticket.entity';
import { putMessage } from './ticketMessage.entity';
import { getTicket, MAX_MESSAGES, type Ticket } from './tickets';

/**
 * Adds the learner's message `text` (trimmed) to their ticket `id` and reopens it, in one conditional
 * transaction. Returns the ticket with its messages. Errors: `not_found` (none, or another learner's),
 * `validation_error` (blank text, or the ticket has {@link MAX_MESSAGES} messages).
 */
export async function addMessage(deps: Deps, user: Pick<User, 'id'>, id: number, text: string): Promise<Ticket> {
  const body = text.trim();
  if (!body) throw supportErrors.blank('text');
  const now = deps.clock.now();
  try {
    await transact(deps.db, [
      reopenWithMessage(deps.db, user.id, id, now, MAX_MESSAGES),
      putMessage(deps.db, user.id, id, { author: 'user', text: body, createdAt: now }),
    ]);
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const ticket = await getTicket(deps, user, id); // not_found when it is not the learner's
    throw supportErrors.ticketFull(ticket.id, MAX_MESSAGES);
  }
  return getTicket(deps, user, id);
}
