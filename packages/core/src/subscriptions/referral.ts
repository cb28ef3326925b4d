/**
 * Referral (affiliate) program (spec "Ticket, offer, affiliate, discount code"; issue 4 §7).
 *
 * - Every user has a referral code: 8 characters of an unambiguous alphabet, unique through a constraint item
 *   `REFCODE#<code>`. It is assigned on the user's first `GET /api/affiliate` (the only place it is shown, and
 *   binding needs a code someone was shown), so learners who never open it cost nothing.
 * - An invitee binds once (`POST /api/affiliate/referrer`): `referredBy` on the invitee's user item and an
 *   `INVITEE#` row in the referrer's partition, in one transaction. No self-referral. Repeating the same code is
 *   answered as before; another code is 409 `referrer_already_set`.
 * - Commission: {@link COMMISSION_PERCENT} % of what the invitee actually paid (toman, rounded down), paid to the
 *   referrer on the invitee's first real payment: the first paid order with an amount above 0 (a 100% code is not
 *   a real payment). It is written inside that order's grant transaction (grant.ts); a refund marks it reversed.
 *   A first real payment made before binding means no commission ever; a refund does not re-arm it.
 */
import { randomInt } from 'node:crypto';
import { GetCommand, paginateQuery } from '@aws-sdk/lib-dynamodb';
import type { User } from '../auth';
import { getUser } from '../auth';
import { failedItems, isConditionFailure } from '../db/conditions';
import { keys } from '../db/keys';
import { put, transact, update } from '../db/transact';
import type { Deps } from '../deps';
import { paymentErrors } from './errors';

/** Referral commission, percent of the invitee's first real payment (docs/decisions.md "Payments"). */
export const COMMISSION_PERCENT = 10;

/** Commission of a payment of `amountToman`: whole toman, rounded down. */
export const commissionFor = (amountToman: number): number => Math.floor((amountToman * COMMISSION_PERCENT) / 100);

/** Referral fields this domain keeps on the user item. */
export interface ReferralFields {
  referralCode?: string;
  /** User id of the referrer. */
  referredBy?: number;
  referredAt?: number;
  /** The first paid order with an amount above 0; set inside that order's grant transaction. */
  firstRealPaymentOrderId?: number;
}

export type ReferralUser = User & ReferralFields;

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const CODE_LENGTH = 8;
const newCode = () => Array.from({ length: CODE_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');

/** A code as typed: trimmed, upper case. */
export const normalizeReferralCode = (code: string): string => code.trim().toUpperCase();

/** The user's referral code, assigned (uniquely) on first use. */
export async function ensureReferralCode(deps: Deps, user: ReferralUser): Promise<string> {
  if (user.referralCode) return user.referralCode;
  for (let attempt = 0; attempt < 10; attempt++) {
    const code = newCode();
    try {
      await transact(deps.db, [
        put(deps.db, { ...keys.referralCode(code), userId: user.id }, { condition: 'attribute_not_exists(pk)' }),
        update(deps.db, keys.user(user.id), 'SET referralCode = :code', {
          condition: 'attribute_exists(pk) AND attribute_not_exists(referralCode)',
          values: { ':code': code },
        }),
      ]);
      return code;
    } catch (error) {
      const failed = failedItems(error);
      if (failed.includes(1)) {
        // Another request assigned one first.
        const fresh = (await getUser(deps.db, user.id)) as ReferralUser | undefined;
        if (fresh?.referralCode) return fresh.referralCode;
      }
      if (!failed.length && !isConditionFailure(error)) throw error;
    }
  }
  throw new Error('Could not allocate a unique referral code');
}

async function userIdOfCode(deps: Deps, code: string): Promise<number | undefined> {
  const result = await deps.db.doc.send(
    new GetCommand({ TableName: deps.db.tableName, Key: keys.referralCode(code), ConsistentRead: true }),
  );
  return result.Item ? Number(result.Item.userId) : undefined;
}

/**
 * Binds `user` to the owner of referral `code`, once. Errors: `validation_error` (unknown code, own code),
 * `referrer_already_set` (409, bound to someone else before).
 */
export async function bindReferrer(deps: Deps, user: ReferralUser, rawCode: string): Promise<{ referrer: string; boundAt: number }> {
  const code = normalizeReferralCode(rawCode);
  const referrerId = /^[A-Z0-9]{4,16}$/.test(code) ? await userIdOfCode(deps, code) : undefined;
  if (referrerId === undefined) throw paymentErrors.referralInvalid('No user has this referral code');
  if (referrerId === user.id) throw paymentErrors.referralInvalid('You cannot use your own referral code');
  const referrer = await getUser(deps.db, referrerId);
  if (!referrer) throw paymentErrors.referralInvalid('No user has this referral code');
  if (user.referredBy !== undefined) {
    if (user.referredBy === referrerId) return { referrer: referrer.publicId, boundAt: user.referredAt ?? 0 };
    throw paymentErrors.referrerAlreadySet();
  }
  const now = deps.clock.now();
  try {
    await transact(deps.db, [
      update(deps.db, keys.user(user.id), 'SET referredBy = :ref, referredAt = :at', {
        condition: 'attribute_exists(pk) AND attribute_not_exists(referredBy)',
        values: { ':ref': referrerId, ':at': now },
      }),
      put(
        deps.db,
        { ...keys.invitee(referrerId, user.id), inviteeId: user.id, publicId: user.publicId, boundAt: now },
        { condition: 'attribute_not_exists(pk)' },
      ),
    ]);
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const fresh = (await getUser(deps.db, user.id)) as ReferralUser | undefined;
    if (fresh?.referredBy === referrerId) return { referrer: referrer.publicId, boundAt: fresh.referredAt ?? now };
    throw paymentErrors.referrerAlreadySet();
  }
  return { referrer: referrer.publicId, boundAt: now };
}

interface CommissionRow {
  orderId: number;
  inviteeId: number;
  amount: number;
  earnedAt: number;
  reversedAt?: number;
}

async function queryPrefix<T>(deps: Deps, userId: number, prefix: string): Promise<T[]> {
  const items: T[] = [];
  const pages = paginateQuery(
    { client: deps.db.doc },
    {
      TableName: deps.db.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.userPartition(userId), ':prefix': prefix },
    },
  );
  for await (const page of pages) items.push(...((page.Items ?? []) as T[]));
  return items;
}

export interface AffiliateView {
  code: string;
  commissionPercent: number;
  /** Whether the caller is bound to a referrer. */
  hasReferrer: boolean;
  invitees: Array<{ publicId: string; boundAt: number; commission: number }>;
  /** Toman: earned (not reversed), reversed by refunds. */
  commission: { earned: number; reversed: number };
}

/** `GET /api/affiliate`: the caller's code (assigned on first call), invitees and commission (toman). */
export async function affiliateOf(deps: Deps, user: ReferralUser): Promise<AffiliateView> {
  const [code, invitees, commissions] = await Promise.all([
    ensureReferralCode(deps, user),
    queryPrefix<{ inviteeId: number; publicId: string; boundAt: number }>(deps, user.id, keys.inviteePrefix),
    queryPrefix<CommissionRow>(deps, user.id, keys.commissionPrefix),
  ]);
  const live = (c: CommissionRow) => c.reversedAt === undefined;
  return {
    code,
    commissionPercent: COMMISSION_PERCENT,
    hasReferrer: user.referredBy !== undefined,
    invitees: invitees.map((i) => ({
      publicId: i.publicId,
      boundAt: i.boundAt,
      commission: commissions.filter((c) => c.inviteeId === i.inviteeId && live(c)).reduce((sum, c) => sum + c.amount, 0),
    })),
    commission: {
      earned: commissions.filter(live).reduce((sum, c) => sum + c.amount, 0),
      reversed: commissions.filter((c) => !live(c)).reduce((sum, c) => sum + c.amount, 0),
    },
  };
}
