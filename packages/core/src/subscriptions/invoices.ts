/**
 * Invoices (spec "Order": "Invoice number is a fixed prefix, a dash and the order id zero-padded to 6 digits";
 * `GET /api/payment/invoices`). An invoice is an order money changed hands for: paid, or paid and later refunded
 * (a 100% code's order is an invoice of 0 toman). Ids beyond 999999 simply have more digits.
 */
import type { Deps } from '../deps';
import { type Order, orderPricing, ordersOfUser } from './orders';

/** `INVOICE_PREFIX-000042` for order 42. */
export const invoiceNumber = (prefix: string, orderId: number): string => `${prefix}-${String(orderId).padStart(6, '0')}`;

export interface Invoice {
  invoiceNumber: string;
  orderId: number;
  planId: number;
  planTitle: string;
  durationDays: number;
  /** Toman. */
  listPrice: number;
  discountCode: string | null;
  discount: number;
  amount: number;
  status: 'paid' | 'refunded';
  provider: Order['provider'];
  /** Epoch ms. */
  createdAt: number;
  paidAt: number;
  refundedAt: number | null;
  /** The gateway's payment reference, when paid through it. */
  refId: string | null;
}

export function toInvoice(prefix: string, order: Order): Invoice {
  return {
    invoiceNumber: invoiceNumber(prefix, order.id),
    orderId: order.id,
    ...orderPricing(order),
    status: order.status as Invoice['status'],
    provider: order.provider,
    createdAt: order.createdAt,
    paidAt: order.paidAt as number,
    refundedAt: order.refundedAt ?? null,
    refId: order.refId ?? null,
  };
}

/** The user's invoices, newest first. */
export async function invoicesOf(deps: Deps, userId: number): Promise<Invoice[]> {
  const orders = await ordersOfUser(deps, userId);
  return orders.filter((o) => o.status === 'paid' || o.status === 'refunded').map((o) => toInvoice(deps.settings.invoicePrefix, o));
}
