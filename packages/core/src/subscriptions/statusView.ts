/**
 * The subscription as the learner is told it (spec Endpoints "subscription status route"; spec "Subscription": an
 * expired subscription is never reported active): the answer of `GET /api/subscription/status` (status.ts), and the
 * `subscription` a purchase made free by its discount code answers with (purchase.ts), stored with that answer so
 * a replay repeats it (purchaseKey.entity.ts). Times are epoch ms here; the edge shows them as ISO 8601.
 */
import * as z from 'zod';
import type { User } from '../auth';
import type { Deps } from '../deps';
import { lazySchema } from '../lazySchema';
import { activeSubscription } from './active';
import { OrderStatus } from './order.entity';
import { sourceOf } from './period';

export const SubscriptionStatus = lazySchema(() =>
  z.object({
    /** `none`: never subscribed; `expired`: the last period has ended (never reported active). */
    status: z.enum(['active', 'expired', 'none']),
    active: z.boolean(),
    plan: z.object({ id: z.number().int(), title: z.string() }).nullable(),
    /** End of the (last) paid period, epoch ms, or null. */
    expiresAt: z.number().int().nullable(),
    /**
     * What set that end (DESIGN §8 "Period truth"): `marketplace`, a marketplace subscription's period (and the days
     * held after it); `gateway`, paid days (at the gateway, or a marketplace in-app product). Null without a subscription. Defaults to null in answers stored before it.
     */
    source: z.enum(['gateway', 'marketplace']).nullable().default(null),
    /** While a marketplace subscription runs: its period end as the marketplace says (epoch ms); `expiresAt` is later by the days held. */
    marketplaceValidUntil: z.number().int().nullable().default(null),
    /** Tutor questions per Tehran day now: the plan's while active, else the free quota. */
    aiDailyQuota: z.number().int(),
    freeAiDailyQuota: z.number().int(),
    /** Orders the gateway re-check verified during this read (none outside the status route). */
    recheckedOrders: z.array(z.object({ orderId: z.number().int(), status: OrderStatus })),
  }),
);
export type SubscriptionStatus = z.infer<typeof SubscriptionStatus>;

/** The subscription of `user` as the status route reports it at `deps.clock.now()` (no re-check; `recheckedOrders` as given). */
export function statusOf(
  deps: Pick<Deps, 'clock' | 'settings'>,
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
