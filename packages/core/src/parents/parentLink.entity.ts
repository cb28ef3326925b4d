/**
 * A learner's parent's number for the weekly report (DESIGN §13): pk `USER#<userId>`, sk `PARENT`; no TTL.
 *
 * | state      | fields                                                   | gsi1 (the job's due index)                              |
 * |------------|----------------------------------------------------------|---------------------------------------------------------|
 * | none       | `pendingPhone` while a code is out, `lastReport`         | none                                                    |
 * | active     | `phone` (confirmed), `verifiedAt`, `dueWeek`             | `PARENTREPORTS#<userId % 8>` / `<dueWeek>#<userId 12>` |
 * | stopped    | `phone`, `stoppedAt`, `stoppedBy: 'parent'`              | none                                                    |
 *
 * Only an `active` link is in the due index, so nothing is ever sent to a number that was not confirmed with its
 * code, nor after the learner removed it or the parent stopped it. `dueWeek` is the Tehran week (its Saturday,
 * YYYY-MM-DD) whose report is due next: the job lists the links due by a week through the index (sort key up to
 * `<week>#~`, never a Scan), and a link whose report is done moves on to the next week's sort key, so it leaves the
 * range and a second run of the same week finds nothing left to send. A send is claimed first (`sendingWeek`,
 * `sendingUntil`: a lease), so two runs never send one report twice. A number changed while active keeps its reports
 * going to the confirmed one until the new one is confirmed (`pendingPhone`).
 *
 * Personal data: deleted with the account (and removed in the deletion's own transaction, account/).
 */
import * as z from 'zod';
import { userKey } from '../auth';
import { addDays } from '../calendar/tehran';
import type { Db } from '../db/client';
import { getItem, type Page, queryPage } from '../db/items';
import { type Key, pad, userPartition } from '../db/keys';
import { check, remove, type TxItem, update } from '../db/transact';
import { lazySchema } from '../lazySchema';

export const PARENT_LINK_SK = 'PARENT';
/** Write shards of the due index (the job reads them one after the other). */
export const PARENT_INDEX_SHARDS = 8;

export const parentLinkKey = (userId: number): Key => ({ pk: userPartition(userId), sk: PARENT_LINK_SK });

const duePartition = (userId: number): string => `PARENTREPORTS#${userId % PARENT_INDEX_SHARDS}`;
const dueSortKey = (week: string, userId: number): string => `${week}#${pad(userId, 12)}`;

export const LastReport = lazySchema(() =>
  z.object({
    /** The Tehran week (its Saturday) the report was for. */
    week: z.string(),
    /** `sent`; `uncertain` (the provider may have sent it: not sent again); `failed` (not sent; tried again next run). */
    status: z.enum(['sent', 'uncertain', 'failed']),
    /** Epoch ms. */
    at: z.number().int(),
    /** The number it went to. */
    phone: z.string(),
    /** The provider's status of a refusal. */
    providerStatus: z.number().int().optional(),
  }),
);
export type LastReport = z.infer<typeof LastReport>;

export const ParentLinkItem = lazySchema(() =>
  z
    .object({
      userId: z.number().int().positive(),
      status: z.enum(['none', 'active', 'stopped']),
      /** The confirmed number (active or stopped), exactly as the learner sent it. */
      phone: z.string().optional(),
      verifiedAt: z.number().int().optional(),
      dueWeek: z.string().optional(),
      /** A number waiting for its code, and when the code was asked for (epoch ms). */
      pendingPhone: z.string().optional(),
      pendingAt: z.number().int().optional(),
      stoppedAt: z.number().int().optional(),
      stoppedBy: z.enum(['parent']).optional(),
      lastReport: LastReport.optional(),
      reportsSent: z.number().int().nonnegative().optional(),
      /** A send in progress: the week, and until when (epoch ms) its claim holds. */
      sendingWeek: z.string().optional(),
      sendingUntil: z.number().int().optional(),
    })
    .describe('parent link'),
);
export type ParentLink = z.infer<typeof ParentLinkItem>;

/** The parent link of learner `userId`, or undefined (strongly consistent). */
export const getParentLink = (db: Db, userId: number): Promise<ParentLink | undefined> =>
  getItem(db, parentLinkKey(userId), ParentLinkItem);

/** Transaction item: `phone` waits for its code since `nowMs` (any earlier pending number is replaced). */
export const pendingItem = (db: Db, userId: number, phone: string, nowMs: number): TxItem =>
  update(db, parentLinkKey(userId), 'SET userId = :u, pendingPhone = :p, pendingAt = :now, #st = if_not_exists(#st, :none)', {
    names: { '#st': 'status' },
    values: { ':u': userId, ':p': phone, ':now': nowMs, ':none': 'none' },
  });

/**
 * Transaction item: the pending number `phone` is confirmed at `nowMs`; its reports are due from `dueWeek`
 * (condition: it is still the pending number).
 */
export const activateItem = (db: Db, userId: number, phone: string, dueWeek: string, nowMs: number): TxItem =>
  update(
    db,
    parentLinkKey(userId),
    'SET #st = :active, phone = :p, verifiedAt = :now, dueWeek = :week, gsi1pk = :gpk, gsi1sk = :gsk ' +
      'REMOVE pendingPhone, pendingAt, stoppedAt, stoppedBy, sendingWeek, sendingUntil',
    {
      condition: 'pendingPhone = :p',
      names: { '#st': 'status' },
      values: {
        ':active': 'active',
        ':p': phone,
        ':now': nowMs,
        ':week': dueWeek,
        ':gpk': duePartition(userId),
        ':gsk': dueSortKey(dueWeek, userId),
      },
    },
  );

/** Transaction item: the learner removes the parent's number (and any pending one); the history of reports stays. */
export const removeItem = (db: Db, userId: number): TxItem =>
  update(
    db,
    parentLinkKey(userId),
    'SET #st = :none REMOVE phone, verifiedAt, dueWeek, pendingPhone, pendingAt, stoppedAt, stoppedBy, sendingWeek, sendingUntil, gsi1pk, gsi1sk',
    { condition: 'attribute_exists(pk)', names: { '#st': 'status' }, values: { ':none': 'none' } },
  );

/** Transaction item: the parent of `phone` stops the reports at `nowMs` (condition: that number, still active). */
export const stopItem = (db: Db, userId: number, phone: string, nowMs: number): TxItem =>
  update(
    db,
    parentLinkKey(userId),
    'SET #st = :stopped, stoppedAt = :now, stoppedBy = :by REMOVE gsi1pk, gsi1sk, sendingWeek, sendingUntil',
    {
      condition: 'phone = :p AND #st = :active',
      names: { '#st': 'status' },
      values: { ':stopped': 'stopped', ':now': nowMs, ':by': 'parent', ':p': phone, ':active': 'active' },
    },
  );

/** Transaction item: the link goes with its account (account deletion's transaction). */
export const deleteLinkItem = (db: Db, userId: number): TxItem => remove(db, parentLinkKey(userId));

/** One page of the active links of `shard` whose report is due by Tehran week `week`, from `cursor` (gsi1). */
export const dueLinks = (db: Db, shard: number, week: string, cursor?: string, limit = 100): Promise<Page<ParentLink>> =>
  queryPage(db, { index: 'gsi1', partition: `PARENTREPORTS#${shard}`, sortKey: { lte: `${week}#~` }, limit }, ParentLinkItem, cursor);

/**
 * Transaction items claiming the send of `week`'s report of learner `userId` to `phone` until `untilMs`: the
 * learner still exists, the link is active, still `phone` and due by `week`, and no claim of that week is there (a claim of the week that
 * lapsed means an earlier run may have sent it).
 */
export const claimItems = (db: Db, userId: number, phone: string, week: string, untilMs: number): TxItem[] => [
  check(db, userKey(userId), { condition: 'attribute_exists(pk)' }),
  update(db, parentLinkKey(userId), 'SET sendingWeek = :w, sendingUntil = :until', {
    condition: '#st = :active AND phone = :p AND dueWeek <= :w AND (attribute_not_exists(sendingWeek) OR sendingWeek <> :w)',
    names: { '#st': 'status' },
    values: { ':w': week, ':until': untilMs, ':active': 'active', ':p': phone },
  }),
];

/**
 * Transaction item: `week`'s report of learner `userId` is done (`sent`, or `uncertain`: never sent again): the
 * link's report is due from the next week (it leaves the index range of `week`). Condition: `week`'s claim.
 */
export const reportDoneItem = (db: Db, userId: number, week: string, report: LastReport): TxItem => {
  const next = addDays(week, 7);
  return update(
    db,
    parentLinkKey(userId),
    `SET dueWeek = :next, gsi1sk = :gsk, lastReport = :report${report.status === 'sent' ? ' ADD reportsSent :one' : ''} REMOVE sendingWeek, sendingUntil`,
    {
      condition: 'sendingWeek = :w',
      values: {
        ':w': week,
        ':next': next,
        ':gsk': dueSortKey(next, userId),
        ':report': report,
        ...(report.status === 'sent' ? { ':one': 1 } : {}),
      },
    },
  );
};

/** Transaction item: `week`'s report of learner `userId` was not sent (`failed`): the claim is let go, it stays due. */
export const releaseItem = (db: Db, userId: number, week: string, report: LastReport): TxItem =>
  update(db, parentLinkKey(userId), 'SET lastReport = :report REMOVE sendingWeek, sendingUntil', {
    condition: 'sendingWeek = :w',
    values: { ':w': week, ':report': report },
  });
