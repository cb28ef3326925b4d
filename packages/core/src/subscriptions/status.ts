/**
 * `GET /api/subscription/status` (spec Endpoints "subscription status route": "Subscription state; also re-checks
 * the user's pending orders and runs marketplace renewal sync"; spec "Subscription": active, expired — an expired
 * subscription is never reported active).
 */
import { getUser, type User } from '../auth';
import type { Deps } from '../deps';
import { activeSubscription } from './active';
import { recheckOrders } from './checkout';
import { syncMarketplaceRenewals } from './marketplaceRenewal';
import type { OrderStatus } from './order.entity';
import { type SubscriptionSource, sourceOf } from './period';

export interface SubscriptionStatus {
  /** `none`: never subscribed; `expired`: the last period has ended (never reported active). */
  status: 'active' | 'expired' | 'none';
  active: boolean;
  plan: { id: number; title: string } | null;
  /** End of the (last) paid period, epoch ms, or null. */
  expiresAt: number | null;
  /**
   * What set that end (DESIGN §8 "Period truth"): `marketplace`, a marketplace subscription's period (and the days
   * held after it); `gateway`, paid days. Null without a subscription.
   */
  source: SubscriptionSource | null;
  /** While a marketplace subscription runs: its period end as the marketplace says (epoch ms); `expiresAt` is later by the days held. */
  marketplaceValidUntil: number | null;
  /** Tutor questions per Tehran day now: the plan's while active, else the free quota. */
  aiDailyQuota: number;
  freeAiDailyQuota: number;
  /** Orders the re-check verified during this read. */
  recheckedOrders: Array<{ orderId: number; status: OrderStatus }>;
}

/** The subscription of `user` as the status route reports it (no re-check; `recheckedOrders` as given). */
export function statusOf(
  deps: Deps,
  user: Pick<User, 'subscription'>,
  recheckedOrders: SubscriptionStatus['recheckedOrders'] = [],
): SubscriptionStatus {
  const subscription = user.subscription;
  const active = activeSubscription(user, deps.clock.now());
  const free = deps.settings.ai.dailyQuotaFree;
  return {
    status: active ? 'active' : subscription ? 'expired' : 'none',
    active: Boolean(active),
    plan: subscription ? { id: subscription.planId, title: subscription.planTitle } : null,
    expiresAt: subscription?.expiresAt ?? null,
    source: subscription ? sourceOf(subscription) : null,
    marketplaceValidUntil: subscription?.storeUntil ?? null,
    aiDailyQuota: active ? active.aiDailyQuota : free,
    freeAiDailyQuota: free,
    recheckedOrders,
  };
}

/**
 * `GET /api/subscription/status`: re-checks the caller's unpaid gateway orders (checkout.ts), runs the marketplace
 * renewal sync (marketplaceRenewal.ts), then reports the subscription. Neither provider being down fails the read.
 */
export async function subscriptionStatus(deps: Deps, user: User): Promise<SubscriptionStatus> {
  const recheckedOrders = await recheckOrders(deps, user.id);
  const rechecked = recheckedOrders.some((r) => r.status === 'paid') ? ((await getUser(deps.db, user.id)) ?? user) : user;
  return statusOf(deps, await syncMarketplaceRenewals(deps, rechecked), recheckedOrders);
}
