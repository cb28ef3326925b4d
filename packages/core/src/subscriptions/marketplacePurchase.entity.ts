/**
 * A marketplace purchase bound to the order it paid (DESIGN §5, §8): the unique constraint of its purchase token,
 * and, for a marketplace subscription, its renewal state.
 *
 * | item                 | pk                            | sk          | gsi1 (renewals by due hour)                       | gsi2 (a user's subscriptions)          |
 * |----------------------|-------------------------------|-------------|---------------------------------------------------|----------------------------------------|
 * | marketplace purchase | MKTPURCHASE#<token sha256 hex> | MKTPURCHASE | MKTDUE#<UTC day> / <UTC hour YYYY-MM-DDTHH>#<digest> | USERMKTSUBS#<userId> / <boundAt 15>#<digest> |
 *
 * Written in the paying order's transaction with `attribute_not_exists(pk)`, so one token pays at most one order
 * (409 `purchase_token_used`), and two verifications racing pay once. The token is never stored in clear: the key
 * holds its digest, and a subscription keeps it sealed for renewals (purchaseToken.ts).
 *
 * Subscriptions only: gsi1 indexes the hour of `nextCheckAt` while `renewalState` is `active` (the hourly job
 * queries the due hours, never a Scan); gsi2 lists a user's subscriptions for the status read and the paywall.
 * Every renewal change is conditional on `validUntil` as read, so readers and the job racing move a period once.
 * `pendingOrderId` is the renewal order created but not yet settled (settled by whoever sees it next).
 */
import * as z from 'zod';
import type { Db } from '../db/client';
import { getItem, queryAll, updateItem } from '../db/items';
import { type Key, pad } from '../db/keys';
import { put, type TxItem, update } from '../db/transact';
import { MarketplaceProductType } from './plan.entity';

const PREFIX = 'MKTPURCHASE#';
const purchaseKey = (digest: string): Key => ({ pk: `${PREFIX}${digest}`, sk: 'MKTPURCHASE' });
const userSubscriptionsPartition = (userId: number): string => `USERMKTSUBS#${userId}`;

/** gsi1 of a renewal due at `atMs` (epoch ms): the UTC day's partition, sorted by UTC hour. */
export function dueIndex(atMs: number, digest: string): { gsi1pk: string; gsi1sk: string } {
  const iso = new Date(atMs).toISOString();
  return { gsi1pk: `MKTDUE#${iso.slice(0, 10)}`, gsi1sk: `${iso.slice(0, 13)}#${digest}` };
}

const epochMs = z.number().int();

export const MarketplacePurchaseItem = z
  .object({
    tokenDigest: z.string(),
    /** The order the purchase paid (for a subscription: its first order). */
    orderId: z.number().int().positive(),
    userId: z.number().int().positive(),
    planId: z.number().int(),
    sku: z.string(),
    productType: MarketplaceProductType,
    boundAt: epochMs,
    /** Subscriptions: the sealed purchase token, the period end as last seen, and the renewal schedule. */
    sealedToken: z.string().optional(),
    validUntil: epochMs.optional(),
    autoRenewing: z.boolean().optional(),
    renewalState: z.enum(['active', 'ended']).optional(),
    /** Epoch ms from when it should be asked again. */
    nextCheckAt: epochMs.optional(),
    /** The newest paid order of the subscription, and how many orders it has paid. */
    lastOrderId: z.number().int().optional(),
    periods: z.number().int().optional(),
    pendingOrderId: z.number().int().optional(),
    checkedAt: epochMs.optional(),
    endedAt: epochMs.optional(),
    /** `not_found` (refunded or unknown), `not_renewed`, `token_unreadable`. */
    endedReason: z.string().optional(),
  })
  .describe('marketplace purchase');
export type MarketplacePurchase = z.infer<typeof MarketplacePurchaseItem>;

/** The binding of the token with `digest`, or undefined when it paid nothing yet. */
export const readMarketplacePurchase = (db: Db, digest: string): Promise<MarketplacePurchase | undefined> =>
  getItem(db, purchaseKey(digest), MarketplacePurchaseItem);

/** The transaction item binding `purchase` to its order (condition: the token paid nothing yet), with its indexes. */
export function bindPurchase(db: Db, purchase: MarketplacePurchase): TxItem {
  const renewing = purchase.renewalState === 'active' && purchase.nextCheckAt !== undefined;
  const indexes = {
    ...(purchase.productType === 'subscription'
      ? { gsi2pk: userSubscriptionsPartition(purchase.userId), gsi2sk: `${pad(purchase.boundAt, 15)}#${purchase.tokenDigest}` }
      : {}),
    ...(renewing ? dueIndex(purchase.nextCheckAt as number, purchase.tokenDigest) : {}),
  };
  return put(db, { ...purchaseKey(purchase.tokenDigest), ...indexes, ...purchase }, { condition: 'attribute_not_exists(pk)' });
}

/** The condition that the subscription is still renewing from `validUntil` as read. */
const asRead = (validUntil: number | undefined) => ({
  condition: 'renewalState = :active AND validUntil = :seen',
  values: { ':active': 'active', ':seen': validUntil ?? -1 },
});

/**
 * The transaction item moving `purchase` to a new period ending `validUntil`, paid by the (pending) order
 * `orderId`, due again at once so whoever reads it next settles that order if this run stops before.
 */
export function advancePeriod(
  db: Db,
  purchase: MarketplacePurchase,
  change: { validUntil: number; autoRenewing: boolean; orderId: number; now: number },
): TxItem {
  const read = asRead(purchase.validUntil);
  const due = dueIndex(change.now, purchase.tokenDigest);
  return update(
    db,
    purchaseKey(purchase.tokenDigest),
    'SET validUntil = :until, autoRenewing = :auto, lastOrderId = :order, pendingOrderId = :order, periods = if_not_exists(periods, :first) + :one, ' +
      'nextCheckAt = :now, checkedAt = :now, gsi1pk = :g1pk, gsi1sk = :g1sk',
    {
      condition: `${read.condition} AND attribute_not_exists(pendingOrderId)`,
      values: {
        ...read.values,
        ':until': change.validUntil,
        ':auto': change.autoRenewing,
        ':order': change.orderId,
        ':first': 1,
        ':one': 1,
        ':now': change.now,
        ':g1pk': due.gsi1pk,
        ':g1sk': due.gsi1sk,
      },
    },
  );
}

/** The transaction item that, with renewal order `orderId` paid, schedules the next check at `nextCheckAt`. */
export function settlePendingPeriod(db: Db, digest: string, orderId: number, nextCheckAt: number): TxItem {
  const due = dueIndex(nextCheckAt, digest);
  return update(db, purchaseKey(digest), 'SET nextCheckAt = :next, gsi1pk = :g1pk, gsi1sk = :g1sk REMOVE pendingOrderId', {
    condition: 'pendingOrderId = :order',
    values: { ':order': orderId, ':next': nextCheckAt, ':g1pk': due.gsi1pk, ':g1sk': due.gsi1sk },
  });
}

/**
 * Asks again at `nextCheckAt` (the marketplace confirmed no new period yet), noting `autoRenewing`. Condition: still
 * renewing from `validUntil` as read (else someone moved it meanwhile). Errors: ConditionalCheckFailedException.
 */
export async function reschedule(
  db: Db,
  purchase: MarketplacePurchase,
  change: { nextCheckAt: number; autoRenewing?: boolean; now: number },
) {
  const read = asRead(purchase.validUntil);
  const due = dueIndex(change.nextCheckAt, purchase.tokenDigest);
  await updateItem(
    db,
    purchaseKey(purchase.tokenDigest),
    'SET nextCheckAt = :next, autoRenewing = :auto, checkedAt = :now, gsi1pk = :g1pk, gsi1sk = :g1sk',
    {
      condition: read.condition,
      values: {
        ...read.values,
        ':next': change.nextCheckAt,
        ':auto': change.autoRenewing ?? purchase.autoRenewing ?? true,
        ':now': change.now,
        ':g1pk': due.gsi1pk,
        ':g1sk': due.gsi1sk,
      },
    },
  );
}

/** Ends the renewals of `purchase` for `reason`, leaving the due index. Errors: ConditionalCheckFailedException (moved meanwhile). */
export async function endRenewals(db: Db, purchase: MarketplacePurchase, reason: string, now: number): Promise<void> {
  const read = asRead(purchase.validUntil);
  await updateItem(
    db,
    purchaseKey(purchase.tokenDigest),
    'SET renewalState = :ended, endedReason = :reason, endedAt = :now REMOVE gsi1pk, gsi1sk',
    {
      condition: read.condition,
      values: { ...read.values, ':ended': 'ended', ':reason': reason, ':now': now },
    },
  );
}

/** The marketplace subscriptions of `userId`, oldest first (gsi2; eventually consistent). */
export const subscriptionsOfUser = (db: Db, userId: number): Promise<MarketplacePurchase[]> =>
  queryAll(db, { index: 'gsi2', partition: userSubscriptionsPartition(userId) }, MarketplacePurchaseItem);

/** The subscriptions in the due partition of UTC day `day` (`YYYY-MM-DD`) due in an hour up to `hour` (`YYYY-MM-DDTHH`). */
export const dueOnDay = (db: Db, day: string, hour: string): Promise<MarketplacePurchase[]> =>
  queryAll(db, { index: 'gsi1', partition: `MKTDUE#${day}`, sortKey: { lte: `${hour}#~` } }, MarketplacePurchaseItem);
