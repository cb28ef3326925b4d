/** Support tickets of the learner (issue 3 §9; spec "Ticket"): open, list, read, reply. */
import { SUPPORT_KEY_PREFIX } from './idempotencyKey.entity';
import { TICKET_PREFIX } from './ticket.entity';

export { backfillTicketIndex } from './backfill';
export { addMessage } from './messages';
export { closeTicket, closeTicketAs, listTicketsForStaff, replyAsStaff, type StaffTicketView, ticketForStaff } from './staffTickets';
export {
  createTicket,
  getTicket,
  type KeyedTicket,
  listTickets,
  MAX_SUBJECT_LENGTH,
  MAX_TEXT_LENGTH,
  openTicket,
} from './tickets';

/**
 * Sort-key prefixes of support items in a learner's partition, personal data deleted with the account: the
 * tickets and their messages (both under `TICKET#`) and the Idempotency-Keys of the learner's ticket requests
 * (`IDEMPOTENCY#ticket#`; a purchase's keys, `IDEMPOTENCY#purchase#`, are payment records and stay).
 */
export const PERSONAL_ITEM_PREFIXES: readonly string[] = [TICKET_PREFIX, SUPPORT_KEY_PREFIX];
