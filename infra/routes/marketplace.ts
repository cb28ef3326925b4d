/** The routes of endpoint group `marketplace` (`packages/functions/src/groups/marketplace.ts`). */
import type { RouteSpec } from './types';

export const marketplaceRoutes: readonly RouteSpec[] = [
  {
    method: 'POST',
    path: '/api/payment/marketplace/orders/{id}/start',
    group: 'marketplace',
    auth: 'user',
    throttle: 'marketplace_start',
    summary:
      'Start the in-app purchase of a marketplace order: its SKU, the developerPayload binding it, a signed dynamic price when discounted.',
  },
  {
    method: 'POST',
    path: '/api/payment/marketplace/verify',
    group: 'marketplace',
    auth: 'user',
    throttle: 'marketplace_verify',
    summary: 'Verify a marketplace purchase token { orderId, purchaseToken } with the marketplace and grant the plan.',
  },
  {
    method: 'GET',
    path: '/api/payment/marketplace/verify',
    group: 'marketplace',
    auth: 'none',
    throttle: 'marketplace_authorize',
    summary: 'Where the marketplace sends its account owner back (code, state): the one-time OAuth exchange, inside an open window only.',
  },
  {
    method: 'GET',
    path: '/api/admin/marketplace',
    group: 'marketplace',
    auth: 'admin',
    throttle: 'admin_marketplace',
    summary: 'The marketplace connection: credential mode, connected, the authorization window.',
  },
  {
    method: 'POST',
    path: '/api/admin/marketplace/authorize-window',
    group: 'marketplace',
    auth: 'admin',
    throttle: 'admin_marketplace_window',
    summary: 'Open a marketplace authorization window { hours? } and get the consent link for the account owner.',
  },
];
