/** The routes of endpoint group `billing` (`packages/functions/src/groups/billing.ts`). */
import type { RouteSpec } from './types';

export const billingRoutes: readonly RouteSpec[] = [
  {
    method: 'GET',
    path: '/api/plans',
    group: 'billing',
    auth: 'none',
    throttle: 'plans',
    summary: 'Subscription plans on sale and freeAiDailyQuota.',
  },
  {
    method: 'GET',
    path: '/api/offers',
    group: 'billing',
    auth: 'none',
    throttle: 'offers',
    summary: 'Advertised discount codes valid now.',
  },
  {
    method: 'POST',
    path: '/api/subscription/purchase',
    group: 'billing',
    auth: 'user',
    throttle: 'purchase',
    summary: 'Create a pending order for a plan (Idempotency-Key header); answers orderId and paymentUrl.',
  },
  {
    method: 'GET',
    path: '/api/subscription/status',
    group: 'billing',
    auth: 'user',
    throttle: 'subscription_status',
    summary: 'Subscription state, after re-checking the caller’s unpaid orders with the gateway.',
  },
  {
    method: 'POST',
    path: '/api/discounts/redeem',
    group: 'billing',
    auth: 'user',
    throttle: 'discount_redeem',
    summary: 'Apply a discount code to one of the caller’s pending orders before the gateway step.',
  },
  {
    method: 'GET',
    path: '/api/affiliate',
    group: 'billing',
    auth: 'user',
    throttle: 'affiliate_read',
    summary: 'The caller’s referral code, invitees and commission.',
  },
  {
    method: 'POST',
    path: '/api/affiliate/referrer',
    group: 'billing',
    auth: 'user',
    throttle: 'affiliate_bind',
    summary: 'Bind the caller to a referrer by referral code (once).',
  },
  {
    method: 'GET',
    path: '/api/payment/invoices',
    group: 'billing',
    auth: 'user',
    throttle: 'invoices',
    summary: 'The caller’s invoices (paid and refunded orders).',
  },
];
