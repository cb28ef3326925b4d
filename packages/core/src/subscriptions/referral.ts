/**
 * Referral (affiliate) program (spec "Ticket, offer, affiliate, discount code"; issue 4 §7).
 *
 * - Every user has a referral code: 8 characters of an unambiguous alphabet, unique through a constraint item
 *   (referralCode.entity.ts). It is assigned on the user's first `GET /api/affiliate` (the only place it is
 *   shown, and binding needs a code someone was shown), so learners who never open it cost nothing.
 * - An invitee binds once (`POST /api/affiliate/referrer`): `referredBy` on the invitee's user item and an
 *   invitee row in the referrer's partition (invitee.entity.ts), in one transaction. No self-referral. Repeating
 *   the same code is answered as before; another code is 409 `referrer_already_set`.
 * - Commission: {@link COMMISSION_PERCENT} % of what the invitee actually paid (toman, rounded down), paid to the
 *   referrer on the invitee's first real payment: the first paid order with an amount above 0 (a 100% code is not
 *   a real payment). It is written inside that order's grant transaction (grant.ts); a refund marks it reversed.
 *   A first real payment made before binding means no commission ever; a refund does not re-arm it.
 */
import { randomInt } from 'node:crypto';
import { getUser, type User, updateUser, userCondition } from '../auth';
import { failedItems, isConditionFailure, retryOptimistic } from '../db/conditions';
import { transact } from '../db/transact';
import type { Deps } from '../deps';
import { type Commission, commissionsOf } from './commission.entity';
import { paymentErrors } from './errors';
import { addInvitee, inviteesOf } from './invitee.entity';
import { claimReferralCode, userIdOfReferralCode } from './referralCode.entity';

/** Referral commission, percent of the invitee's first real payment (docs/decisions.md "Payments"). */
export const COMMISSION_PERCENT = 10;

/** Commission of a payment of `amountToman`: whole toman, rounded down. */
export const commissionFor = (amountToman: number): number => Math.floor((amountToman * COMMISSION_PERCENT) / 100);

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const CODE_LENGTH = 8;
const newCode = () => Array.from({ length: CODE_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');

/** A code as typed: trimmed, upper case. */
const normalizeReferralCode = (code: string): string => code.trim().toUpperCase();

/**
 * The user's referral code, assigned on first use: a new code's constraint item and the user's `referralCode`
 * (condition: none yet) in one transaction. A taken code is drawn again; a code assigned by a parallel request
 * is returned. Errors: a plain Error after 10 draws in a row that lost.
 */
async function ensureReferralCode(deps: Deps, user: User): Promise<string> {
  if (user.referralCode) return user.referralCode;
  return retryOptimistic(
    async () => {
      const code = newCode();
      await transact(deps.db, [
        claimReferralCode(deps.db, code, user.id),
        updateUser(
          deps.db,
          user.id,
          { set: { referralCode: code } },
          userCondition.all(userCondition.exists(), userCondition.lacks('referralCode')),
        ),
      ]);
      return code;
    },
    async (error) => {
      if (!failedItems(error).includes(1)) return undefined; // the code was taken: draw another
      const fresh = await getUser(deps.db, user.id); // another request assigned one first
      return fresh?.referralCode ? { result: fresh.referralCode } : undefined;
    },
    { attempts: 10, busy: () => new Error('Could not allocate a unique referral code') },
  );
}

/**
 * Binds `user` to the owner of referral `code`, once. Returns the referrer's publicId and when the binding was
 * made (epoch ms). Errors: `validation_error` (unknown code, own code), `referrer_already_set` (409, bound to
 * someone else before).
 */
export async function bindReferrer(deps: Deps, user: User, rawCode: string): Promise<{ referrer: string; boundAt: number }> {
  const code = normalizeReferralCode(rawCode);
  const referrerId = /^[A-Z0-9]{4,16}$/.test(code) ? await userIdOfReferralCode(deps.db, code) : undefined;
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
      updateUser(
        deps.db,
        user.id,
        { set: { referredBy: referrerId, referredAt: now } },
        userCondition.all(userCondition.exists(), userCondition.lacks('referredBy')),
      ),
      addInvitee(deps.db, referrerId, { inviteeId: user.id, publicId: user.publicId, boundAt: now }),
    ]);
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const fresh = await getUser(deps.db, user.id);
    if (fresh?.referredBy === referrerId) return { referrer: referrer.publicId, boundAt: fresh.referredAt ?? now };
    throw paymentErrors.referrerAlreadySet();
  }
  return { referrer: referrer.publicId, boundAt: now };
}

export interface AffiliateView {
  code: string;
  commissionPercent: number;
  /** Whether the caller is bound to a referrer. */
  hasReferrer: boolean;
  /** Epoch ms `boundAt`; toman `commission` (earned, not reversed). */
  invitees: Array<{ publicId: string; boundAt: number; commission: number }>;
  /** Toman: earned (not reversed), reversed by refunds. */
  commission: { earned: number; reversed: number };
}

const total = (rows: Commission[]) => rows.reduce((sum, c) => sum + c.amount, 0);

/** `GET /api/affiliate`: the caller's code (assigned on first call), invitees and commission (toman). */
export async function affiliateOf(deps: Deps, user: User): Promise<AffiliateView> {
  const [code, invitees, commissions] = await Promise.all([
    ensureReferralCode(deps, user),
    inviteesOf(deps.db, user.id),
    commissionsOf(deps.db, user.id),
  ]);
  const live = commissions.filter((c) => c.reversedAt === undefined);
  return {
    code,
    commissionPercent: COMMISSION_PERCENT,
    hasReferrer: user.referredBy !== undefined,
    invitees: invitees.map((i) => ({
      publicId: i.publicId,
      boundAt: i.boundAt,
      commission: total(live.filter((c) => c.inviteeId === i.inviteeId)),
    })),
    commission: { earned: total(live), reversed: total(commissions.filter((c) => c.reversedAt !== undefined)) },
  };
}
