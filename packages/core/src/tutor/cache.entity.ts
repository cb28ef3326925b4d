/**
 * A cached tutor answer (spec "Assistant data": "a cache of answers keyed by tone"; issue 5 §6).
 *
 * | item          | pk                | sk      | TTL                                     |
 * |---------------|-------------------|---------|-----------------------------------------|
 * | cached answer | AICACHE#<sha256>  | AICACHE | `expiresAt` (reads check it too: DynamoDB deletes late) |
 *
 * The hash covers everything that decides the answer (`cache.ts`). Not personal data: the key is a hash
 * and the item names no learner.
 */
import * as z from 'zod';
import type { Db } from '../db/client';
import { getItem } from '../db/items';
import type { Key } from '../db/keys';
import { put, type TxItem } from '../db/transact';
import { lazySchema } from '../lazySchema';
import { ToneSchema } from './message.entity';

export const cachedAnswerKey = (hash: string): Key => ({ pk: `AICACHE#${hash}`, sk: 'AICACHE' });

export const CachedAnswerItem = lazySchema(() =>
  z
    .object({
      answer: z.string(),
      tone: ToneSchema,
      /** The chat model that wrote it. */
      model: z.string(),
      /** ISO time. */
      createdAt: z.string(),
      /** TTL, epoch seconds. */
      expiresAt: z.number().int(),
    })
    .describe('cached tutor answer'),
);
export type CachedAnswerItem = z.infer<typeof CachedAnswerItem>;

/** The cached answer item of `hash`, expired or not, or undefined (eventually consistent: a cache). */
export const getCachedAnswer = (db: Db, hash: string): Promise<CachedAnswerItem | undefined> =>
  getItem(db, cachedAnswerKey(hash), CachedAnswerItem, { consistent: false });

/** Puts `item` under `hash`, replacing any earlier answer. */
export const cachedAnswerPut = (db: Db, hash: string, item: CachedAnswerItem): TxItem => put(db, { ...cachedAnswerKey(hash), ...item });
