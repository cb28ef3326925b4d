/**
 * The Idempotency-Key of a purchase (DESIGN §3 Idempotency; spec Endpoints `POST /api/subscription/purchase`).
 *
 * | item         | pk            | sk                         | notes                                          |
 * |--------------|---------------|----------------------------|------------------------------------------------|
 * | purchase key | USER#<userId> | IDEMPOTENCY#purchase#<key> | → orderId, the request it was used for, the response given |
 *
 * Written in the order's creation transaction (condition: a new key), so two requests racing with one key
 * create one order. A free order (a 100 % code) is paid right after: its stored answer is then replaced by the paid
 * one ({@link storePaidResponse}), so replays repeat that. It is a payment record: it stays when the account is
 * deleted.
 */
import * as z from 'zod';
import type { Db } from '../db/client';
import { getItem, updateItem } from '../db/items';
import { type Key, userPartition } from '../db/keys';
import { put, type TxItem } from '../db/transact';
import { lazySchema } from '../lazySchema';
import { Provider } from './order.entity';
import { SubscriptionStatus } from './statusView';

const purchaseKeyKey = (userId: number, idempotencyKey: string): Key => ({
  pk: userPartition(userId),
  sk: `IDEMPOTENCY#purchase#${idempotencyKey}`,
});

/** What makes two purchases "the same request": plan, payment method and discount code (upper case, or null). */
export const PurchaseFingerprint = lazySchema(() =>
  z.object({
    planId: z.number().int(),
    provider: Provider,
    discountCode: z.string().nullable(),
  }),
);
export type PurchaseFingerprint = z.infer<typeof PurchaseFingerprint>;

/** The purchase's answer; a replay returns exactly the first one. Money in toman. */
export const PurchaseResponse = lazySchema(() =>
  z.object({
    orderId: z.number().int().positive(),
    /**
     * `pending`: pay it (paymentUrl, or the marketplace SKU); `paid`: a 100 % code paid it at once. Answers stored before
     * the member existed were pending ones.
     */
    status: z.enum(['pending', 'paid']).default('pending'),
    /** Gateway orders to pay: open in a browser (the gateway's start page); null for the marketplace and a paid order. */
    paymentUrl: z.string().nullable(),
    /** Marketplace orders to pay: the product the app buys (the plan's SKU, DESIGN §8). */
    marketplaceSku: z.string().optional(),
    planId: z.number().int(),
    listPrice: z.number().int(),
    discount: z.number().int(),
    /** What is left to pay; 0 means the order is paid (a 100% code). */
    amount: z.number().int(),
    /** A paid order: the subscription it granted, as the status route reports it (expiresAt epoch ms); else null. */
    subscription: SubscriptionStatus.nullable().default(null),
  }),
);
export type PurchaseResponse = z.output<typeof PurchaseResponse>;

const PurchaseKeyItem = lazySchema(() =>
  z
    .object({
      orderId: z.number().int().positive(),
      request: PurchaseFingerprint,
      response: PurchaseResponse,
      /** Epoch ms. */
      createdAt: z.number().int(),
    })
    .describe('purchase idempotency key'),
);
type PurchaseKeyItem = z.infer<typeof PurchaseKeyItem>;

/** What `userId` stored under `idempotencyKey`, or undefined for a new key. */
export const readPurchaseKey = (db: Db, userId: number, idempotencyKey: string): Promise<PurchaseKeyItem | undefined> =>
  getItem(db, purchaseKeyKey(userId, idempotencyKey), PurchaseKeyItem);

/** The transaction item that stores `idempotencyKey` of `userId` (condition: a new key). */
export const claimPurchaseKey = (db: Db, userId: number, idempotencyKey: string, item: PurchaseKeyItem): TxItem =>
  put(db, { ...purchaseKeyKey(userId, idempotencyKey), ...item }, { condition: 'attribute_not_exists(pk)' });

/**
 * Replaces the answer stored under `idempotencyKey` of `userId` by `response`, the paid answer of its free order, so
 * replays repeat it (a key that is not there is left alone: condition `attribute_exists(pk)`). Errors:
 * ConditionalCheckFailedException when the key does not exist.
 */
export const storePaidResponse = (db: Db, userId: number, idempotencyKey: string, response: PurchaseResponse): Promise<unknown> =>
  updateItem(db, purchaseKeyKey(userId, idempotencyKey), 'SET #response = :response', {
    condition: 'attribute_exists(pk)',
    names: { '#response': 'response' },
    values: { ':response': response },
  });
