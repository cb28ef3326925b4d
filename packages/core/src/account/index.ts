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
 *    leaderboard entries) is then deleted in batches. Only the prefixes in {@link PERSONAL_PREFIXES} are
 *    deleted, so payment records (orders, invoices, payment events) stay, as the spec requires. If this
 *    step is cut short, what remains is unreachable: user ids are never reused.
 */
import { paginateQuery } from '@aws-sdk/lib-dynamodb';
import { getUser, type User } from '../auth';
import { verifyOtp } from '../auth/otp';
import { deleteAll } from '../db/batch';
import { isConditionFailure } from '../db/conditions';
import { keys } from '../db/keys';
import { remove, transact } from '../db/transact';
import type { Deps } from '../deps';
import { DomainError } from '../errors';
import { leaveBoards } from '../leaderboard/board';

/** Sort-key prefixes of the learner's partition that are personal data and go with the account. */
export const PERSONAL_PREFIXES = [
  keys.nodeProgressPrefix,
  keys.lessonCompletionPrefix,
  keys.allAnswersPrefix,
  keys.attemptPrefix,
  keys.dayActivityPrefix,
  keys.boardEntryPrefix,
  keys.notificationPrefix,
  keys.ticketPrefix,
  keys.wrongAnswerPrefix,
  keys.aiQuotaPrefix,
  keys.aiMessagePrefix,
] as const;

/**
 * Deletes the signed-in learner's account after checking `otp`, a fresh code sent to their phone.
 * Errors: `permission_denied` (403) for a demo account; `otp_invalid` (401) for a wrong, used or dead code;
 * `token_invalid` (401) when the session ended meanwhile (e.g. deleted twice at once).
 */
export async function deleteAccount(deps: Deps, user: User, otp: string): Promise<void> {
  if (deps.settings.fixedOtpLogins.has(user.phone)) {
    throw new DomainError('permission_denied', 'Demo accounts (fixed-code test logins) cannot be deleted');
  }
  await verifyOtp(deps, user.phone, otp);
  let current: User | undefined = user;
  for (let attempt = 0; ; attempt++) {
    if (!current || current.sessionId !== user.sessionId || attempt === 8) {
      throw new DomainError('token_invalid', 'The session has ended; sign in again');
    }
    try {
      await transact(deps.db, [
        // Pinned to the XP the board items below were computed from: a grant landing meanwhile retries.
        remove(deps.db, keys.user(user.id), {
          condition: 'attribute_exists(pk) AND sessionId = :sid AND xp = :xp',
          values: { ':sid': user.sessionId, ':xp': current.xp },
        }),
        remove(deps.db, keys.phone(user.phone), { condition: 'userId = :id', values: { ':id': user.id } }),
        remove(deps.db, keys.publicId(user.publicId)),
        ...leaveBoards(deps.db, current, deps.clock.now()),
      ]);
      break;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      current = await getUser(deps.db, user.id);
    }
  }
  await purgePersonalData(deps, user.id);
}

async function purgePersonalData(deps: Deps, userId: number): Promise<void> {
  for (const prefix of PERSONAL_PREFIXES) {
    const pages = paginateQuery(
      { client: deps.db.doc },
      {
        TableName: deps.db.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': keys.userPartition(userId), ':prefix': prefix },
        ProjectionExpression: 'pk, sk',
      },
    );
    for await (const page of pages) {
      await deleteAll(deps.db, (page.Items ?? []) as { pk: string; sk: string }[]);
    }
  }
}
