/**
 * Account self-deletion (`POST /api/user/delete` `{ otp }`; issue 3 §6; spec Endpoints: "a fresh code
 * verified as at login; deletes the account; payment records are kept; demo accounts are refused").
 *
 * 1. Demo accounts (phones in FIXED_OTP_LOGINS) are refused with 403 `permission_denied`: they are shared
 *    test logins, and deleting one would break every tester using it.
 * 2. The code is checked by the same function as login (`verifyOtp`: 6 digits, single use, 5 wrong guesses
 *    kill it); the learner asks for it with `POST /api/auth/otp/request` as at login.
 * 3. One conditional transaction removes the user item and its phone and publicId constraint items and takes
 *    the learner off the leaderboards. From that moment every token of the account is dead (the session check
 *    finds no user) and a login with that phone creates a new user with a new id.
 * 4. The learner's own data in their partition (progress, answers, daily activity, notifications, tickets,
 *    leaderboard entries, tutor messages and quotas) is then deleted in batches. Each domain names the sort-key
 *    prefixes of its personal items in its front (`PERSONAL_ITEM_PREFIXES`); only those are deleted, so payment
 *    records (orders, invoices, payment events, purchase keys, commissions) stay, as the spec requires. If this
 *    step is cut short, what remains is unreachable: user ids are never reused. A domain that adds a personal
 *    item to the learner's partition adds its prefix to its front and to {@link PERSONAL_PREFIXES}.
 */
import { getUser, phoneKey, publicIdKey, removeDirectoryEntry, type User, userKey, verifyOtp } from '../auth';
import { deleteAll } from '../db/batch';
import { retryOptimistic } from '../db/conditions';
import { ItemKey, queryAll } from '../db/items';
import { userPartition } from '../db/keys';
import { remove, transact } from '../db/transact';
import type { Deps } from '../deps';
import { PERSONAL_ITEM_PREFIXES as BOARD_ITEMS, leaveBoards } from '../leaderboard';
import { PERSONAL_ITEM_PREFIXES as NOTIFICATION_ITEMS } from '../notifications';
import { deleteLinkItem, PERSONAL_ITEM_PREFIXES as PARENT_ITEMS } from '../parents';
import { PERSONAL_ITEM_PREFIXES as PROGRESS_ITEMS } from '../progress';
import { PERSONAL_ITEM_PREFIXES as TICKET_ITEMS } from '../support';
import { PERSONAL_ITEM_PREFIXES as TUTOR_ITEMS } from '../tutor';
import { accountErrors } from './errors';

/** Sort-key prefixes of the learner's partition that are personal data and go with the account. */
export const PERSONAL_PREFIXES: readonly string[] = [
  ...PROGRESS_ITEMS,
  ...BOARD_ITEMS,
  ...NOTIFICATION_ITEMS,
  ...TICKET_ITEMS,
  ...TUTOR_ITEMS,
  ...PARENT_ITEMS,
];

/**
 * Deletes the account of `user` after checking a fresh sign-in code `otp`. Errors: `permission_denied` (403)
 * for a demo account, `otp_invalid` (401), `token_invalid` (401) when the session ended meanwhile.
 */
export async function deleteAccount(deps: Deps, user: User, otp: string): Promise<void> {
  if (deps.settings.fixedOtpLogins.has(user.phone)) {
    throw accountErrors.demoAccount();
  }
  await verifyOtp(deps, user.phone, otp);
  let current: User | undefined = user;
  await retryOptimistic(
    async () => {
      if (!current || current.sessionId !== user.sessionId) throw accountErrors.sessionEnded();
      await transact(deps.db, [
        // Pinned to the XP the board items below were computed from: a grant landing meanwhile retries.
        remove(deps.db, userKey(user.id), {
          condition: 'attribute_exists(pk) AND sessionId = :sid AND xp = :xp',
          values: { ':sid': user.sessionId, ':xp': current.xp },
        }),
        remove(deps.db, phoneKey(user.phone), { condition: 'userId = :id', values: { ':id': user.id } }),
        remove(deps.db, publicIdKey(user.publicId)),
        removeDirectoryEntry(deps.db, user.id),
        ...leaveBoards(deps.db, current, deps.clock.now()),
        // No parent report is sent for an account from the moment it is deleted (its job claims check the user).
        deleteLinkItem(deps.db, user.id),
      ]);
    },
    async () => {
      current = await getUser(deps.db, user.id);
      return undefined;
    },
    { busy: accountErrors.sessionEnded },
  );
  await purgePersonalData(deps, user.id);
}

async function purgePersonalData(deps: Deps, userId: number): Promise<void> {
  for (const prefix of PERSONAL_PREFIXES) {
    const items = await queryAll(
      deps.db,
      { partition: userPartition(userId), sortKey: { beginsWith: prefix }, projection: ['pk', 'sk'] },
      ItemKey,
    );
    await deleteAll(deps.db, items);
  }
}
