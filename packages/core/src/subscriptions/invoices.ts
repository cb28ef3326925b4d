/**
 * Invoices (spec "Order": "Invoice number is a fixed prefix, a dash and the order id zero-padded to 6 digits";
 * `GET /api/payment/invoices`). An invoice is an order money changed hands for: paid; paid and later refunded; or
 * paid and later cancelled by the marketplace (it ended the subscription before the period paid for, DESIGN §8
 * "Period truth": the money was not returned through us). A 100% code's order is an invoice of 0 toman. Ids beyond
 * 999999 simply have more digits.
 */
import type { Deps } from '../deps';
import { type Order, ordersOfUser } from './order.entity';
import { orderPricing } from './orders';

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
  status: 'paid' | 'refunded' | 'cancelled';
  provider: Order['provider'];
  /** Epoch ms. */
  createdAt: number;
  paidAt: number;
  refundedAt: number | null;
  /** Epoch ms the marketplace's early end was recorded (status `cancelled`). */
  cancelledAt: number | null;
  /** The gateway's payment reference, when paid through it. */
  refId: string | null;
}

type InvoicedOrder = Order & { status: Invoice['status']; paidAt: number };

/** Whether money changed hands for `order`: it was paid (`paidAt`), whatever happened to it after. */
const invoiced = (order: Order): order is InvoicedOrder =>
  (order.status === 'paid' || order.status === 'refunded' || order.status === 'cancelled') && order.paidAt !== undefined;

function toInvoice(prefix: string, order: InvoicedOrder): Invoice {
  const { id, status, provider, createdAt, paidAt, refundedAt, cancelledAt, refId } = order;
  return {
    invoiceNumber: invoiceNumber(prefix, id),
    orderId: id,
    ...orderPricing(order),
    status,
    provider,
    createdAt,
    paidAt,
    refundedAt: refundedAt ?? null,
    cancelledAt: status === 'cancelled' ? (cancelledAt ?? null) : null,
    refId: refId ?? null,
  };
}

/** The user's invoices, newest first (INVOICE_PREFIX from the settings). */
export async function invoicesOf(deps: Deps, userId: number): Promise<Invoice[]> {
  const orders = await ordersOfUser(deps.db, userId);
  return orders.filter(invoiced).map((o) => toInvoice(deps.settings.invoicePrefix, o));
}
