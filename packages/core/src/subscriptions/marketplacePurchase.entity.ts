/**
 * A marketplace purchase bound to the order it paid (DESIGN §5, §8): the unique constraint of its purchase token,
 * and, for a marketplace subscription, its renewal state.
 *
 * | item                 | pk                            | sk          | gsi1 (checks by due hour)                              | gsi2 (a user's subscriptions)          |
 * |----------------------|-------------------------------|-------------|--------------------------------------------------------|----------------------------------------|
 * | marketplace purchase | MKTPURCHASE#<token sha256 hex> | MKTPURCHASE | MKTDUE#<re-check hour HH> / <UTC hour YYYY-MM-DDTHH>#<digest> | USERMKTSUBS#<userId> / <boundAt 15>#<digest> |
 *
 * Written in the paying order's transaction with `attribute_not_exists(pk)`, so one token pays at most one order
 * (409 `purchase_token_used`), and two verifications racing pay once. The token is never stored in clear: the key
 * holds its digest, and a subscription keeps it sealed for renewals (purchaseToken.ts).
 *
 * Subscriptions only: gsi1 indexes the hour of `nextCheckAt` while `renewalState` is `active`, in one of 24 partitions
 * chosen by the subscription's daily re-check hour ({@link recheckHour}, a hash of the digest): the hourly job queries
 * every partition for what is due by now, never a Scan, renewals and daily re-checks alike (marketplaceSchedule.ts),
 * however long ago they fell due (a job that did not run for days catches up); gsi2 lists a
 * user's subscriptions for the status read and the paywall. Every renewal change and every end is conditional on
 * `validUntil` as read and on the renewals still running, so readers and the job racing move a period, or end it,
 * once. `pendingOrderId` is the renewal order created but not yet settled (settled by whoever sees it next).
 * `lastAnswer` is what the marketplace last said of it (the staff's order page).
 *
 * In-app products: while `refundWatch` is `active`, gsi1 indexes `nextCheckAt` the same way, for the refund watch
 * (marketplaceInappWatch.ts), which keeps the token sealed too.
 */
import * as z from 'zod';
import type { Db } from '../db/client';
import { getItem, queryAll, updateItem } from '../db/items';
import { type Key, pad } from '../db/keys';
import { put, type TxItem, update } from '../db/transact';
import { lazySchema } from '../lazySchema';
import { MarketplaceProductType } from './plan.entity';
import { StoreAnswer } from './storeAnswer';

const PREFIX = 'MKTPURCHASE#';
const purchaseKey = (digest: string): Key => ({ pk: `${PREFIX}${digest}`, sk: 'MKTPURCHASE' });
const userSubscriptionsPartition = (userId: number): string => `USERMKTSUBS#${userId}`;

/** How many partitions the due index has: one per re-check hour of the day. */
export const DUE_PARTITIONS = 24;

/** The UTC hour (0-23) of the daily re-check of the subscription whose token digest (hex) is `digest`: its due partition. */
export const recheckHour = (digest: string): number => Number.parseInt(digest.slice(0, 8), 16) % DUE_PARTITIONS;

const duePartition = (hour: number): string => `MKTDUE#${String(hour).padStart(2, '0')}`;

/** gsi1 of a check due at `atMs` (epoch ms): the subscription's partition, sorted by the UTC hour it is due. */
export function dueIndex(atMs: number, digest: string): { gsi1pk: string; gsi1sk: string } {
  return { gsi1pk: duePartition(recheckHour(digest)), gsi1sk: `${new Date(atMs).toISOString().slice(0, 13)}#${digest}` };
}

/** The SET clause (and its values) moving the next check of the purchase with token digest `digest` to `atMs`, its due index with it. */
function nextCheck(digest: string, atMs: number) {
  const due = dueIndex(atMs, digest);
  return {
    set: 'nextCheckAt = :next, gsi1pk = :g1pk, gsi1sk = :g1sk',
    values: { ':next': atMs, ':g1pk': due.gsi1pk, ':g1sk': due.gsi1sk },
  };
}

/** The SET clause and values noting the marketplace's `answer`, when there is one. */
const noted = (answer: StoreAnswer | undefined) =>
  answer ? { set: ', lastAnswer = :answer', values: { ':answer': answer } } : { set: '', values: {} };

const epochMs = z.number().int();

export { StoreAnswer, validAnswer } from './storeAnswer';

/** Why a subscription's renewals ended (`endedReason`). */
export const RenewalEndReason = z.enum(['not_found', 'cancelled', 'not_renewed', 'token_unreadable', 'staff_refund']);
export type RenewalEndReason = z.infer<typeof RenewalEndReason>;

export const MarketplacePurchaseItem = lazySchema(() =>
  z
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
      /** In-app products: whether the marketplace is still asked whether it refunded the purchase. */
      refundWatch: z.enum(['active', 'ended']).optional(),
      /** Epoch ms from when it should be asked again. */
      nextCheckAt: epochMs.optional(),
      /** The newest paid order of the subscription, and how many orders it has paid. */
      lastOrderId: z.number().int().optional(),
      periods: z.number().int().optional(),
      pendingOrderId: z.number().int().optional(),
      checkedAt: epochMs.optional(),
      endedAt: epochMs.optional(),
      /**
       * `not_found` (the marketplace answered 404: refunded, revoked, unknown), `cancelled` (it moved the period's end
       * earlier), `not_renewed`, `token_unreadable` (SECRET_KEY changed), `staff_refund`; an in-app product's refund watch:
       * `refunded` (purchaseState 1), `not_found`, `watch_over`, `order_closed`, `token_unreadable`, `staff_refund`.
       */
      endedReason: z.string().optional(),
      /** The marketplace's last answer about it. */
      lastAnswer: StoreAnswer.optional(),
    })
    .describe('marketplace purchase'),
);
export type MarketplacePurchase = z.infer<typeof MarketplacePurchaseItem>;

/** The binding of the token with `digest`, or undefined when it paid nothing yet. */
export const readMarketplacePurchase = (db: Db, digest: string): Promise<MarketplacePurchase | undefined> =>
  getItem(db, purchaseKey(digest), MarketplacePurchaseItem);

/** The transaction item binding `purchase` to its order (condition: the token paid nothing yet), with its indexes. */
export function bindPurchase(db: Db, purchase: MarketplacePurchase): TxItem {
  const renewing = (purchase.renewalState === 'active' || purchase.refundWatch === 'active') && purchase.nextCheckAt !== undefined;
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
  change: { validUntil: number; autoRenewing: boolean; orderId: number; now: number; answer: StoreAnswer },
): TxItem {
  const read = asRead(purchase.validUntil);
  const due = dueIndex(change.now, purchase.tokenDigest);
  return update(
    db,
    purchaseKey(purchase.tokenDigest),
    'SET validUntil = :until, autoRenewing = :auto, lastOrderId = :order, pendingOrderId = :order, periods = if_not_exists(periods, :first) + :one, ' +
      'nextCheckAt = :now, checkedAt = :now, lastAnswer = :answer, gsi1pk = :g1pk, gsi1sk = :g1sk',
    {
      condition: `${read.condition} AND attribute_not_exists(pendingOrderId)`,
      values: {
        ...read.values,
        ':answer': change.answer,
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
  const next = nextCheck(digest, nextCheckAt);
  return update(db, purchaseKey(digest), `SET ${next.set} REMOVE pendingOrderId`, {
    condition: 'pendingOrderId = :order',
    values: { ':order': orderId, ...next.values },
  });
}

/**
 * Asks again at `nextCheckAt` (the marketplace confirmed no new period yet, or could not answer: no `answer`),
 * noting `autoRenewing`. Condition: still renewing from `validUntil` as read (else someone moved it meanwhile).
 * Errors: ConditionalCheckFailedException.
 */
export async function reschedule(
  db: Db,
  purchase: MarketplacePurchase,
  change: { nextCheckAt: number; answer?: StoreAnswer; now: number },
) {
  const read = asRead(purchase.validUntil);
  const next = nextCheck(purchase.tokenDigest, change.nextCheckAt);
  const answer = noted(change.answer);
  await updateItem(db, purchaseKey(purchase.tokenDigest), `SET ${next.set}, autoRenewing = :auto, checkedAt = :now${answer.set}`, {
    condition: read.condition,
    values: {
      ...read.values,
      ...next.values,
      ...answer.values,
      ':auto': change.answer?.autoRenewing ?? purchase.autoRenewing ?? true,
      ':now': change.now,
    },
  });
}

/** Moves the next check of `purchase` to `at` (migrations). Condition: still renewing from `validUntil` as read. */
export async function scheduleCheck(db: Db, purchase: MarketplacePurchase, at: number): Promise<void> {
  const read = asRead(purchase.validUntil);
  const next = nextCheck(purchase.tokenDigest, at);
  await updateItem(db, purchaseKey(purchase.tokenDigest), `SET ${next.set}`, {
    condition: read.condition,
    values: { ...read.values, ...next.values },
  });
}

/**
 * The transaction item ending the renewals of `purchase` for `reason` (leaving the due index), with the answer that
 * ended them. Condition: still renewing from `validUntil` as read, no renewal order pending, so two enders racing
 * end it once.
 */
export function endRenewalsItem(
  db: Db,
  purchase: MarketplacePurchase,
  change: { reason: RenewalEndReason; now: number; answer?: StoreAnswer },
): TxItem {
  const read = asRead(purchase.validUntil);
  return endItem(db, purchase, 'renewalState', change, {
    ...read,
    condition: `${read.condition} AND attribute_not_exists(pendingOrderId)`,
  });
}

/** The update ending `state` (`renewalState`, `refundWatch`) of `purchase` under `read`, leaving the due index. */
function endItem(
  db: Db,
  purchase: MarketplacePurchase,
  state: 'renewalState' | 'refundWatch',
  change: { reason: string; now: number; answer?: StoreAnswer },
  read: { condition: string; values: Record<string, unknown> },
): TxItem {
  const answer = noted(change.answer);
  return update(
    db,
    purchaseKey(purchase.tokenDigest),
    `SET ${state} = :ended, endedReason = :reason, endedAt = :now, checkedAt = :now${answer.set} REMOVE gsi1pk, gsi1sk`,
    {
      condition: read.condition,
      values: { ...read.values, ...answer.values, ':ended': 'ended', ':reason': change.reason, ':now': change.now },
    },
  );
}

/** In-app products: the condition that the refund watch of `purchase` is as read (still watched, the same check due). */
const watchedAsRead = (purchase: MarketplacePurchase) => ({
  condition: 'refundWatch = :active AND nextCheckAt = :seen',
  values: { ':active': 'active', ':seen': purchase.nextCheckAt ?? -1 },
});

/**
 * In-app products (marketplaceInappWatch.ts): asks again whether `purchase` was refunded at `nextCheckAt`, noting the
 * `answer` heard at `now`, if any. Errors: ConditionalCheckFailedException (the watch moved since it was read).
 */
export async function rescheduleRefundCheck(
  db: Db,
  purchase: MarketplacePurchase,
  change: { nextCheckAt: number; answer?: StoreAnswer; now: number },
): Promise<void> {
  const read = watchedAsRead(purchase);
  const next = nextCheck(purchase.tokenDigest, change.nextCheckAt);
  const answer = noted(change.answer);
  await updateItem(db, purchaseKey(purchase.tokenDigest), `SET ${next.set}, checkedAt = :now${answer.set}`, {
    condition: read.condition,
    values: { ...read.values, ...next.values, ...answer.values, ':now': change.now },
  });
}

/** In-app products: the transaction item ending the refund watch of `purchase` (as read) for `reason`, with the answer that ended it. */
export const endRefundWatchItem = (
  db: Db,
  purchase: MarketplacePurchase,
  change: { reason: string; now: number; answer?: StoreAnswer },
): TxItem => endItem(db, purchase, 'refundWatch', change, watchedAsRead(purchase));

/** Whether `purchase` still renews from `seen` (its `validUntil` as read), with no renewal order pending. */
export const stillRenewing = (purchase: MarketplacePurchase | undefined, seen: MarketplacePurchase): purchase is MarketplacePurchase =>
  purchase?.renewalState === 'active' && purchase.validUntil === seen.validUntil && purchase.pendingOrderId === undefined;

/** The marketplace subscriptions of `userId`, oldest first (gsi2; eventually consistent). */
export const subscriptionsOfUser = (db: Db, userId: number): Promise<MarketplacePurchase[]> =>
  queryAll(db, { index: 'gsi2', partition: userSubscriptionsPartition(userId) }, MarketplacePurchaseItem);

/** The subscriptions of due partition `partition` (0-23) due in a UTC hour up to `hour` (`YYYY-MM-DDTHH`), however long ago. */
export const dueInPartition = (db: Db, partition: number, hour: string): Promise<MarketplacePurchase[]> =>
  queryAll(db, { index: 'gsi1', partition: duePartition(partition), sortKey: { lte: `${hour}#~` } }, MarketplacePurchaseItem);
