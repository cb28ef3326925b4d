/**
 * The learner's active subscription, read from the user item without an extra request by the summary (issue 3
 * §4), the tutor quota (issue 5 §5) and the status route (issue 4 §5). Its stored shape is auth's
 * `StoredSubscription` (user.entity.ts).
 *
 * Writing it belongs to this domain: granting a paid order sets or extends `user.subscription` inside the
 * order's conditional transaction (grant.ts); a refund takes the days back (staffActions.ts). A subscription
 * whose `expiresAt` has passed is expired and never reported active (spec "Subscription").
 */
import type { StoredSubscription, User } from '../auth';

export type { StoredSubscription };

export interface ActiveSubscription extends StoredSubscription {
  active: true;
}

/** The subscription of `user` if it is active at `nowMs` (epoch ms), else null. */
export function activeSubscription(user: Pick<User, 'subscription'>, nowMs: number): ActiveSubscription | null {
  const subscription = user.subscription;
  if (!subscription || subscription.expiresAt <= nowMs) return null;
  return { ...subscription, active: true };
}
