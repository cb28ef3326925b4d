/**
 * Referral commission (spec "Ticket, offer, affiliate, discount code"; issue 4 §7): one row per order that earned
 * the referrer a commission (the invitee's first real payment), written inside that order's grant transaction
 * (settle.ts) and marked reversed by its refund (staffActions.ts). A payment record: never deleted with an
 * account.
 *
 * | item       | pk                | sk                     | notes                                   |
 * |------------|-------------------|------------------------|-----------------------------------------|
 * | commission | USER#<referrerId> | COMMISSION#<orderId 12> | toman earned; `reversedAt` after a refund |
 */
import * as z from 'zod';
import type { Db } from '../db/client';
import { queryAll } from '../db/items';
import { type Key, pad, userPartition } from '../db/keys';
import { put, type TxItem, update } from '../db/transact';
import { lazySchema } from '../lazySchema';

const COMMISSION_PREFIX = 'COMMISSION#';

const commissionKey = (referrerId: number, orderId: number): Key => ({
  pk: userPartition(referrerId),
  sk: `${COMMISSION_PREFIX}${pad(orderId, 12)}`,
});

const CommissionItem = lazySchema(() =>
  z
    .object({
      orderId: z.number().int().positive(),
      inviteeId: z.number().int().positive(),
      /** Toman. */
      amount: z.number().int().nonnegative(),
      /** Epoch ms. */
      earnedAt: z.number().int(),
      /** Epoch ms of the refund that reversed it. */
      reversedAt: z.number().int().optional(),
    })
    .describe('commission'),
);
export type Commission = z.infer<typeof CommissionItem>;

/** The commissions `referrerId` earned, by order id. */
export const commissionsOf = (db: Db, referrerId: number): Promise<Commission[]> =>
  queryAll(db, { partition: userPartition(referrerId), sortKey: { beginsWith: COMMISSION_PREFIX } }, CommissionItem);

/** The transaction item that records `commission` for `referrerId` (condition: the order earned none yet). */
export const earnCommission = (db: Db, referrerId: number, commission: Omit<Commission, 'reversedAt'>): TxItem =>
  put(db, { ...commissionKey(referrerId, commission.orderId), ...commission }, { condition: 'attribute_not_exists(pk)' });

/** The transaction item that marks the commission of `orderId` reversed at `now` (condition: earned, not yet reversed). */
export const reverseCommission = (db: Db, referrerId: number, orderId: number, now: number): TxItem =>
  update(db, commissionKey(referrerId, orderId), 'SET reversedAt = :now', {
    condition: 'attribute_exists(pk) AND attribute_not_exists(reversedAt)',
    values: { ':now': now },
  });
