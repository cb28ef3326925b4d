/**
 * The response shape of the marketplace purchase that paid an order, on a staff order's page (endpoint group
 * `adminsales`; core `staffPurchaseView`): a subscription's renewals or an in-app product's refund watch, and the
 * marketplace's last answer. Times are ISO strings or null.
 */
import * as z from 'zod';
import { Id, IsoTime, responseShape } from './shapes';

const count = z.number().int().min(0);
const time = IsoTime.nullable();

/** The marketplace purchase that paid an order (issue 23; DESIGN §8): never the token, only its digest's prefix. */
export const StaffMarketplacePurchase = responseShape(() =>
  z
    .object({
      tokenDigestPrefix: z.string().meta({ description: 'The first 12 hex characters of the purchase token’s SHA-256' }),
      productType: z.enum(['subscription', 'inapp']),
      firstOrderId: Id,
      lastOrderId: Id.meta({ description: 'The order of its current period' }),
      periods: count,
      validUntil: time.meta({ description: 'Subscriptions: the end of its current period, as the marketplace said' }),
      autoRenewing: z.boolean().nullable(),
      renewalState: z.enum(['active', 'ended']).nullable().meta({ description: 'Subscriptions: whether it is still asked for renewals' }),
      refundWatch: z
        .enum(['active', 'ended'])
        .nullable()
        .meta({ description: 'In-app products: whether the marketplace is still asked whether it refunded the purchase' }),
      nextCheckAt: time.meta({ description: 'When the marketplace is asked again (renewal, daily re-check, in-app refund check)' }),
      checkedAt: time,
      endedAt: time,
      endedReason: z
        .string()
        .nullable()
        .meta({
          description:
            'Subscriptions: `not_found` (404: refunded), `cancelled`, `not_renewed`, `token_unreadable`, `staff_refund`; ' +
            'in-app products: `refunded`, `not_found`, `watch_over`, `order_closed`, `token_unreadable`, `staff_refund`',
        }),
      lastAnswer: z
        .object({
          at: time,
          outcome: z.enum(['valid', 'refunded', 'not_found']),
          httpStatus: z.number().int(),
          validUntil: time,
          autoRenewing: z.boolean().nullable(),
        })
        .nullable()
        .meta({ description: 'What the marketplace last answered about it' }),
    })
    .meta({ id: 'StaffMarketplacePurchase' }),
);
