/**
 * The learner's subscription as stored on the user item (`keys.user`), read without an extra request by
 * the summary (issue 3 §4), the tutor quota (issue 5 §5) and the status route (issue 4 §5).
 *
 * Writing it belongs to the payments domain: granting a paid order sets or extends
 * `user.subscription` inside the order's conditional transaction; a refund takes the days back. A
 * subscription whose `expiresAt` has passed is expired and never reported active (spec "Subscription").
 */

/** Stored on the user item as `subscription`. */
export interface StoredSubscription {
  /** Plan of the latest paid order. */
  planId: number;
  /** The plan title as snapshotted on that order. */
  planTitle: string;
  /** Tutor questions per Tehran day while active (the plan's aiDailyQuota). */
  aiDailyQuota: number;
  /** End of the paid period, epoch ms. */
  expiresAt: number;
}

export interface ActiveSubscription extends StoredSubscription {
  active: true;
}

/** The subscription of `user` if it is active at `nowMs` (epoch ms), else null. */
export function activeSubscription(user: { subscription?: StoredSubscription }, nowMs: number): ActiveSubscription | null {
  const subscription = user.subscription;
  if (!subscription || subscription.expiresAt <= nowMs) return null;
  return { ...subscription, active: true };
}
