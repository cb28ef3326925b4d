/**
 * The optional `Idempotency-Key` of a learner's ticket request (`POST /api/tickets`, `POST /api/tickets/{id}/messages`;
 * DESIGN §3 Idempotency, as the purchase's `subscriptions/purchaseKey.entity.ts`):
 *
 * | item        | pk            | sk                       | notes                                                    |
 * |-------------|---------------|--------------------------|----------------------------------------------------------|
 * | support key | USER#<userId> | IDEMPOTENCY#ticket#<key> | → the route, the ticket, a hash of the body, createdAt    |
 *
 * One key space for both routes: a key used to open a ticket and sent again with a message (or with a message to
 * another ticket, or another body) is a conflict. Written in the same transaction as the ticket or message it
 * stands for (condition: a new key), so two requests racing with one key write one. Small on purpose: it holds the
 * ticket id, the time of what was written and a SHA-256 of the body, never the text or the answer (a replay answers
 * the ticket as it is now). No TTL: it stays while the account does and is personal data, deleted with the account
 * (its prefix is in the domain's `PERSONAL_ITEM_PREFIXES`).
 */
import { createHash } from 'node:crypto';
import * as z from 'zod';
import type { Db } from '../db/client';
import { getItem } from '../db/items';
import { type Key, userPartition } from '../db/keys';
import { put, type TxItem } from '../db/transact';
import { lazySchema } from '../lazySchema';

/** The sort-key prefix of the learner's ticket request keys. */
export const SUPPORT_KEY_PREFIX = 'IDEMPOTENCY#ticket#';

const supportKeyKey = (userId: number, idempotencyKey: string): Key => ({
  pk: userPartition(userId),
  sk: `${SUPPORT_KEY_PREFIX}${idempotencyKey}`,
});

/** What makes two ticket requests "the same request": the route, the ticket (a message's), the body's hash. */
export interface SupportRequest {
  /** `ticket`: `POST /api/tickets`; `message`: `POST /api/tickets/{id}/messages`. */
  route: 'ticket' | 'message';
  /** A message: the ticket of its path. Opening a ticket names none (the id is what it creates). */
  ticketId?: number;
  /** {@link bodyHash} of the body as sent. */
  bodyHash: string;
}

/**
 * The SHA-256 (base64url, 43 characters) of a request body's fields `parts` in their order, as sent (untrimmed),
 * so a retry of the very same body matches and any change does not.
 */
export const bodyHash = (parts: readonly string[]): string => createHash('sha256').update(JSON.stringify(parts)).digest('base64url');

const SupportKeyItem = lazySchema(() =>
  z
    .object({
      route: z.enum(['ticket', 'message']),
      /** The ticket opened (`ticket`) or written to (`message`). */
      ticketId: z.number().int().positive(),
      bodyHash: z.string(),
      /** Epoch ms: when the ticket or message was written (its `createdAt`). */
      createdAt: z.number().int(),
    })
    .describe('ticket request idempotency key'),
);
export type SupportKeyItem = z.infer<typeof SupportKeyItem>;

/** Whether `stored` was written for the same request as `wanted` (route, ticket of a message, body). */
export const sameRequest = (stored: SupportKeyItem, wanted: SupportRequest): boolean =>
  stored.route === wanted.route &&
  stored.bodyHash === wanted.bodyHash &&
  (wanted.route === 'ticket' || stored.ticketId === wanted.ticketId);

/** What `userId` stored under `idempotencyKey` (strongly consistent), or undefined for a new key. */
export const readSupportKey = (db: Db, userId: number, idempotencyKey: string): Promise<SupportKeyItem | undefined> =>
  getItem(db, supportKeyKey(userId, idempotencyKey), SupportKeyItem);

/** The transaction item that stores `idempotencyKey` of `userId` as `item` (condition: a new key). */
export const claimSupportKey = (db: Db, userId: number, idempotencyKey: string, item: SupportKeyItem): TxItem =>
  put(db, { ...supportKeyKey(userId, idempotencyKey), ...item }, { condition: 'attribute_not_exists(pk)' });
