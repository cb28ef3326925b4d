/**
 * Error codes of plans, orders and payments (DESIGN §3; spec Errors). The HTTP status of each code is chosen
 * only at the edge (`packages/functions/src/lib/errors.ts`).
 */
import { commonErrors, DomainError } from '../errors';

/** Seconds a client should wait before retrying a payment step the gateway could not serve. */
export const GATEWAY_RETRY_AFTER_SECONDS = 60;

const gatewayUnavailable = (detail: string) => new DomainError('gateway_unavailable', detail, { retryAfter: GATEWAY_RETRY_AFTER_SECONDS });

export const paymentErrors = {
  /** 400: a marketplace purchase of a plan without a marketplace SKU (spec Errors; DESIGN §8). */
  skuMissing: () =>
    new DomainError(
      'marketplace_sku_missing',
      "This plan cannot be bought through the marketplace (it has no marketplace SKU); use paymentMethod 'gateway'",
      {
        fields: { paymentMethod: ['this plan has no marketplace SKU'] },
      },
    ),
  /** 400: the marketplace did not confirm the purchase, or no credential to ask it (fail closed; DESIGN §8). */
  purchaseInvalid: (detail: string, fields?: Record<string, string[]>) =>
    new DomainError('purchase_invalid', detail, fields ? { fields } : {}),
  /** 409: the purchase token already paid another order (DESIGN §8). */
  purchaseTokenUsed: () => new DomainError('purchase_token_used', 'This purchase token has already paid another order'),
  /** 400: a marketplace step on an order that is not a marketplace order (or has no plan to buy there; spec Errors). */
  notMarketplaceOrder: () =>
    commonErrors.validation('This order was not created for the marketplace', { orderId: ['not a marketplace order'] }),
  /** 400 (spec Errors): a discount on a marketplace order without the dynamic-price key, or after the start step. */
  marketplaceDiscountRefused: (detail: string) => new DomainError('discount_not_allowed', detail, { reason: 'marketplace' }),
  planNotOnSale: () => commonErrors.validation('No plan on sale has this id', { planId: ['No plan on sale has this id'] }),
  idempotencyConflict: () =>
    new DomainError(
      'idempotency_conflict',
      'This Idempotency-Key was already used for a different purchase (plan, payment method or discount code); use a new key',
    ),
  /** 503: GATEWAY_MERCHANT_ID unset or empty (spec Authentication 7: fail closed). */
  gatewayNotConfigured: () => gatewayUnavailable('Payments are unavailable: the payment gateway is not configured'),
  gatewayUnavailable,
  /** 503 for the gateway's -14 (spec Errors): the fix is on the gateway's side, so the message names it. */
  callbackDomainMismatch: (host: string) =>
    gatewayUnavailable(
      `The payment gateway refused our callback address (code -14, callback domain mismatch): register the API domain ${host} in the gateway panel`,
    ),
  orderNotFound: () => commonErrors.notFound('Order'),
  unknownAuthority: () => new DomainError('not_found', 'No payment has this authority'),
  alreadyPaid: () => new DomainError('already_paid', 'This order is already paid'),
  orderStatusConflict: (status: string, rule: string) => new DomainError('order_status_conflict', `The order is ${status}: ${rule}`),
  discountInvalid: (detail: string) => new DomainError('discount_invalid', detail, { fields: { code: [detail] } }),
  discountNotAllowed: (detail: string) => new DomainError('discount_not_allowed', detail),
  referralInvalid: (detail: string) => commonErrors.validation(detail, { code: [detail] }),
  referrerAlreadySet: () => new DomainError('referrer_already_set', 'You already have a referrer; it cannot be changed'),
  refundNotConfirmed: () =>
    commonErrors.validation('Refunding takes the subscription days back and undoes commission: send { "confirm": true }', {
      confirm: ['must be true'],
    }),
  planNotFound: () => commonErrors.notFound('Plan'),
  /** 409: another plan holds this marketplace SKU (spec "Plan": unique across plans). */
  skuTaken: (sku: string) =>
    new DomainError('sku_taken', `Another plan has the marketplace SKU ${sku}`, {
      fields: { marketplaceSku: ['Another plan has this SKU'] },
    }),
  /** 409: a plan that was ordered is kept (orders and invoices name it). */
  planHasOrders: () => new DomainError('plan_has_orders', 'This plan has orders and cannot be deleted; take it off sale instead'),
  discountCodeNotFound: () => commonErrors.notFound('Discount code'),
  /** 409: a code with this name exists. */
  discountCodeTaken: (code: string) =>
    new DomainError('code_taken', `The discount code ${code} exists already`, { fields: { code: ['exists already'] } }),
  /** 409: a code that was used is kept (orders name it); deactivate it instead. */
  discountCodeUsed: () =>
    new DomainError('discount_code_used', 'This discount code has been used and cannot be deleted; deactivate it instead'),
  busy: () => new DomainError('database_busy', 'Too many changes at once; try again', { retryAfter: 1 }),
};
