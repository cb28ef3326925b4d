/**
 * `GET /api/subscription/status` (spec Endpoints "subscription status route": "Subscription state; also re-checks
 * the user's pending orders and runs marketplace renewal sync"; spec "Subscription": active, expired — an expired
 * subscription is never reported active).
 */
import { getUser, type User } from '../auth';
import type { Deps } from '../deps';
import { recheckOrders } from './checkout';
import { syncMarketplaceRenewals } from './marketplaceRenewal';
import { type SubscriptionStatus, statusOf } from './statusView';

export { type SubscriptionStatus, statusOf };

/**
 * `GET /api/subscription/status`: re-checks the caller's orders (checkout.ts: expired unstarted checkouts failed,
 * unpaid gateway orders verified), runs the marketplace
 * renewal sync (marketplaceRenewal.ts), then reports the subscription. Neither provider being down fails the read.
 */
export async function subscriptionStatus(deps: Deps, user: User): Promise<SubscriptionStatus> {
  const recheckedOrders = await recheckOrders(deps, user.id);
  const rechecked = recheckedOrders.some((r) => r.status === 'paid') ? ((await getUser(deps.db, user.id)) ?? user) : user;
  return statusOf(deps, await syncMarketplaceRenewals(deps, rechecked), recheckedOrders);
}
