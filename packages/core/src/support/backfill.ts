/** Migration `0003-admin-indexes`, support's part: gsi2 (a ticket by its id, ticket.entity.ts) on tickets written before it. */
import type { Db } from '../db/client';
import { queryAll, updateItem } from '../db/items';
import { TICKET_INDEX_PARTITION, TicketItem, ticketIdIndex, ticketKey } from './ticket.entity';

/** Adds the gsi2 keys to every ticket (found through gsi1 `TICKETS`); idempotent. */
export async function backfillTicketIndex(db: Db): Promise<void> {
  for (const ticket of await queryAll(db, { index: 'gsi1', partition: TICKET_INDEX_PARTITION }, TicketItem)) {
    const index = ticketIdIndex(ticket.id);
    await updateItem(db, ticketKey(ticket.userId, ticket.id), 'SET gsi2pk = :pk, gsi2sk = :sk', {
      condition: 'attribute_exists(pk)',
      values: { ':pk': index.gsi2pk, ':sk': index.gsi2sk },
    });
  }
}
