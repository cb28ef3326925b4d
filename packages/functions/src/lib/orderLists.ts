/**
 * The filters of the orders and payment events lists and their CSV exports (docs/admin-api.md "Resources"): by
 * status, provider, learner (id or public id), number or invoice number (`q`), and creation or event time. Apart
 * from `adminLists.ts` because they name the subscriptions domain's values (its entity modules come with them).
 */
import { ORDER_STATUSES, PaymentEventKind, Provider } from '@mathisland/core/subscriptions';
import * as z from 'zod';
import { byTime } from './adminLists';
import { QueryId } from './adminQuery';

export const ordersFilters = () => ({
  status: z.enum(ORDER_STATUSES).optional(),
  provider: Provider.optional(),
  userId: QueryId.optional(),
  userPublicId: z.string().min(1).max(32).optional(),
  q: z.string().min(1).max(64).optional(),
  ...byTime('createdAt'),
});
export const eventsFilters = () => ({ orderId: QueryId.optional(), kind: PaymentEventKind.optional(), ...byTime('at') });
