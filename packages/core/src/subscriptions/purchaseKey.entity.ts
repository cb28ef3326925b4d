/**
 * The Idempotency-Key of a purchase (DESIGN §3 Idempotency; spec Endpoints `POST /api/subscription/purchase`).
 *
 * | item         | pk            | sk                         | notes                                          |
 * |--------------|---------------|----------------------------|------------------------------------------------|
 * | purchase key | USER#<userId> | IDEMPOTENCY#purchase#<key> | → orderId, the request it was used for, the response given |
 *
 * Written in the order's creation transaction (condition: a new key), so two requests racing with one key
 * create one order. It is a payment record: it stays when the account is deleted.
 */
import * as z from 'zod';
import type { Db } from '../db/client';
import { getItem } from '../db/items';
import { type Key, userPartition } from '../db/keys';
import { put, type TxItem } from '../db/transact';
import { Provider } from './order.entity';

const purchaseKeyKey = (userId: number, idempotencyKey: string): Key => ({
  pk: userPartition(userId),
  sk: `IDEMPOTENCY#purchase#${idempotencyKey}`,
});

/** What makes two purchases "the same request": plan, payment method and discount code (upper case, or null). */
export const PurchaseFingerprint = z.object({
  planId: z.number().int(),
  provider: Provider,
  discountCode: z.string().nullable(),
});
export type PurchaseFingerprint = z.infer<typeof PurchaseFingerprint>;

/** The purchase's answer; a replay returns exactly the first one. Money in toman. */
export const PurchaseResponse = z.object({
  orderId: z.number().int().positive(),
  /** Open in a browser: the gateway's start page, or the frontend for a finished order (a 100% code); null for the marketplace. */
  paymentUrl: z.string().nullable(),
  /** Marketplace orders: the product the app buys (the plan's SKU, DESIGN §8). */
  marketplaceSku: z.string().optional(),
  planId: z.number().int(),
  listPrice: z.number().int(),
  discount: z.number().int(),
  /** What is left to pay; 0 means the order is already paid (a 100% code). */
  amount: z.number().int(),
});
export type PurchaseResponse = z.infer<typeof PurchaseResponse>;

const PurchaseKeyItem = z
  .object({
    orderId: z.number().int().positive(),
    request: PurchaseFingerprint,
    response: PurchaseResponse,
    /** Epoch ms. */
    createdAt: z.number().int(),
  })
  .describe('purchase idempotency key');
type PurchaseKeyItem = z.infer<typeof PurchaseKeyItem>;

/** What `userId` stored under `idempotencyKey`, or undefined for a new key. */
export const readPurchaseKey = (db: Db, userId: number, idempotencyKey: string): Promise<PurchaseKeyItem | undefined> =>
  getItem(db, purchaseKeyKey(userId, idempotencyKey), PurchaseKeyItem);

/** The transaction item that stores `idempotencyKey` of `userId` (condition: a new key). */
export const claimPurchaseKey = (db: Db, userId: number, idempotencyKey: string, item: PurchaseKeyItem): TxItem =>
  put(db, { ...purchaseKeyKey(userId, idempotencyKey), ...item }, { condition: 'attribute_not_exists(pk)' });
