/**
 * Subscriptions and payments (spec "Plan", "Order", "Payment event", "Subscription"; issues 4 and 17): plans,
 * purchase with Idempotency-Key, the gateway pay link and callback (ZarinPal v4), marketplace purchases (start,
 * verify, auto-renewal; Cafe Bazaar), granting and settling, the status re-check, discount codes and offers,
 * referral commission, invoices, and the staff actions cancel and refund.
 * Money is whole toman (the gateway is sent rial); times are epoch ms. Every money change is one conditional
 * TransactWriteItems.
 *
 * The front: what the edge (billing, payment, marketplace and admin groups, the renewal job), other domains
 * (migrations: seeding; progress and tutor: the active subscription; tutor: the renewal sync of its paywall) and the
 * tests use.
 */

export { activeSubscription, type StoredSubscription } from './active';
export { backfillSubscriptionIndexes } from './backfill';
export {
  handleCallback,
  hasRecheckWork,
  RECHECK_WINDOW_HOURS,
  recheckOrders,
  startPayment,
  unpaidAtGateway,
  unverifiedAuthorities,
} from './checkout';
export { MARKETPLACE_START_EXPIRY_HOURS, UNSTARTED_EXPIRY_MINUTES } from './checkoutExpiry';
export {
  createDiscountCode,
  type DiscountInput,
  deleteDiscountCode,
  getDiscountCodeForStaff,
  getOfferForStaff,
  listDiscountCodes,
  listOffersForStaff,
  setCodeSwitch,
  updateDiscountCode,
  updateOffer,
} from './discountAdmin';
export { getDiscount, saveDiscountCode } from './discounts';
export { paymentErrors } from './errors';
export { listOrderEvents, listUnmatchedEvents } from './events';
export { invoiceNumber, invoicesOf } from './invoices';
export {
  type MarketplaceJobCounts,
  type RenewalOutcome,
  renewDueMarketplaceSubscriptions,
  syncMarketplaceRenewals,
} from './marketplaceRenewal';
export { type MarketplaceStart, startMarketplacePurchase } from './marketplaceStart';
export { verifyMarketplacePurchase } from './marketplaceVerify';
export { listOffers } from './offers';
export type { Order } from './order.entity';
export { ORDER_STATUSES, Provider } from './order.entity';
export {
  cancelOrderForStaff,
  listOrdersForStaff,
  listPaymentEvents,
  orderForStaff,
  refundConfirmation,
  refundOrderForStaff,
  staffOrderView,
  userWithOrders,
} from './orderAdmin';
export { getOrder, orderPricing, paymentUrl } from './orders';
export type { PaymentEvent } from './paymentEvent.entity';
export { PaymentEventKind } from './paymentEvent.entity';
export { backfillMarketplacePeriods } from './periodBackfill';
export { MarketplaceProductType } from './plan.entity';
export { createPlan, deletePlan, getPlanForStaff, listPlansForStaff, type PlanInput, updatePlan } from './planAdmin';
export { getPlan, plansOnSale, savePlan, seedPlans } from './plans';
export { purchase } from './purchase';
export { redeemDiscount } from './redeem';
export { readRedemption } from './redemption.entity';
export { affiliateOf, bindReferrer } from './referral';
export { cancelOrder, listOrders, refundOrder } from './staffActions';
export { type SubscriptionStatus, statusOf, subscriptionStatus } from './status';
