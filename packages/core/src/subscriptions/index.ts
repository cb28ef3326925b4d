/**
 * Subscriptions and payments (spec "Plan", "Order", "Payment event", "Subscription"; issue 4): plans, purchase
 * with Idempotency-Key, the gateway pay link and callback (ZarinPal v4), granting and re-checking, discount
 * codes and offers, referral commission, invoices, and the staff actions cancel and refund. Money is whole
 * toman; the gateway is sent rial. Every money change is one conditional TransactWriteItems.
 */

export { RIAL_PER_TOMAN } from '../providers/zarinpal';
export { type ActiveSubscription, activeSubscription, type StoredSubscription } from './active';
export {
  handleCallback,
  type PayLink,
  RECHECK_MAX_ORDERS,
  recheckOrders,
  type SubscriptionStatus,
  startPayment,
  subscriptionStatus,
} from './checkout';
export { type DiscountCode, discountFor, listOffers, type Offer, redeemDiscount, saveDiscountCode } from './discounts';
export { GATEWAY_RETRY_AFTER_SECONDS, paymentErrors } from './errors';
export { listOrderEvents, listUnmatchedEvents, type PaymentEvent, type PaymentEventKind } from './events';
export { DAY_MS, markPaid } from './grant';
export { type Invoice, invoiceNumber, invoicesOf, toInvoice } from './invoices';
export { getOrder, getOwnOrder, type Order, type OrderStatus, orderPricing, ordersOfUser, type Provider, paymentUrl } from './orders';
export { getPlan, listPlans, type Plan, type PublicPlan, plansOnSale, publicPlan, savePlan, seedPlans } from './plans';
export { type PurchaseRequest, type PurchaseResponse, purchase } from './purchase';
export { type AffiliateView, affiliateOf, bindReferrer, COMMISSION_PERCENT, commissionFor } from './referral';
export { cancelOrder, listOrders, type RefundResult, refundOrder } from './staffActions';
