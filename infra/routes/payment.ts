/** The routes of endpoint group `payment` (`packages/functions/src/groups/payment.ts`). */
import type { RouteSpec } from './types';

export const paymentRoutes: readonly RouteSpec[] = [
  {
    method: 'GET',
    path: '/api/payment/orders/{id}/pay',
    group: 'payment',
    auth: 'none',
    throttle: 'payment_pay',
    summary: 'Redirect to the gateway’s start page (authority requested on first visit), or to the frontend for a finished order.',
  },
  {
    method: 'GET',
    path: '/api/payment/gateway/callback',
    group: 'payment',
    auth: 'none',
    throttle: 'payment_callback',
    summary: 'Where the gateway sends the browser back: verifies server to server, then redirects to the frontend.',
  },
];
