/**
 * The `heart_refilled` notification (issue 3 §8), created lazily: nothing runs on a timer, so the list checks,
 * when it is read, whether the learner ran out of hearts (`heartsEmptyAt` on the user item, set by the answer
 * that took the last heart) and at least one has come back since.
 */
import { type User, updateUser, userCondition } from '../auth';
import { isConditionFailure } from '../db/conditions';
import { transact } from '../db/transact';
import type { Deps } from '../deps';
import { heartsAt } from '../hearts';
import { newNotificationId, notificationItem } from './notification.entity';

/** The user fields the notification reads use. */
export type ReadFields = Pick<User, 'id' | 'notificationsReadUpTo' | 'heartsEmptyAt' | 'hearts' | 'heartsUpdatedAt'>;

/**
 * Creates the `heart_refilled` notification when the learner ran out of hearts and at least one has come back
 * by now, dated when the first heart came back (epoch ms; never later than now). One transaction that also
 * clears `heartsEmptyAt`, conditional on it, so two reads at once create one notification (the loser does
 * nothing).
 */
export async function materializeHeartRefill(deps: Deps, user: ReadFields): Promise<void> {
  if (user.heartsEmptyAt === undefined) return;
  const now = deps.clock.now();
  const hearts = heartsAt(user, now, deps.settings);
  if (hearts.enforced && hearts.hearts === 0) return;
  const refillMs = deps.settings.hearts.refillSeconds * 1000;
  const refilledAt = user.hearts === 0 ? user.heartsUpdatedAt + refillMs : user.heartsEmptyAt + refillMs;
  const id = newNotificationId(now);
  try {
    await transact(deps.db, [
      notificationItem(deps.db, user.id, id, 'heart_refilled', { hearts: hearts.hearts }, Math.min(now, refilledAt)),
      updateUser(deps.db, user.id, { remove: ['heartsEmptyAt'] }, userCondition.is({ heartsEmptyAt: user.heartsEmptyAt })),
    ]);
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}
