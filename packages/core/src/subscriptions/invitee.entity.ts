/**
 * The invitees of a referrer (spec "Ticket, offer, affiliate, discount code"; issue 4 §7): one row per learner
 * who bound to the referrer's code (`POST /api/affiliate/referrer`), written in the transaction that sets
 * `referredBy` on the invitee's user item.
 *
 * | item    | pk                | sk                       | notes                                 |
 * |---------|-------------------|--------------------------|---------------------------------------|
 * | invitee | USER#<referrerId> | INVITEE#<inviteeId 12>   | the invitee's publicId, bound at (ms) |
 *
 * Kept when either account is deleted today (account deletion purges only listed personal prefixes).
 */
import * as z from 'zod';
import type { Db } from '../db/client';
import { queryAll } from '../db/items';
import { type Key, pad, userPartition } from '../db/keys';
import { put, type TxItem } from '../db/transact';
import { lazySchema } from '../lazySchema';

const INVITEE_PREFIX = 'INVITEE#';

const inviteeKey = (referrerId: number, inviteeId: number): Key => ({
  pk: userPartition(referrerId),
  sk: `${INVITEE_PREFIX}${pad(inviteeId, 12)}`,
});

const InviteeItem = lazySchema(() =>
  z
    .object({
      inviteeId: z.number().int().positive(),
      publicId: z.string(),
      /** Epoch ms. */
      boundAt: z.number().int(),
    })
    .describe('invitee'),
);
export type Invitee = z.infer<typeof InviteeItem>;

/** The invitees of `referrerId`, by invitee id. */
export const inviteesOf = (db: Db, referrerId: number): Promise<Invitee[]> =>
  queryAll(db, { partition: userPartition(referrerId), sortKey: { beginsWith: INVITEE_PREFIX } }, InviteeItem);

/** The transaction item that records `invitee` under `referrerId` (condition: not recorded yet). */
export const addInvitee = (db: Db, referrerId: number, invitee: Invitee): TxItem =>
  put(db, { ...inviteeKey(referrerId, invitee.inviteeId), ...invitee }, { condition: 'attribute_not_exists(pk)' });
