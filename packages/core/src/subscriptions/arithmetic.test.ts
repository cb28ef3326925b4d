/** Money arithmetic of issue 4 (docs/decisions.md "Payments"): whole toman, rounded down; invoice numbers. */
import { describe, expect, it } from 'vitest';
import { discountFor } from './discounts';
import { invoiceNumber } from './invoices';
import { COMMISSION_PERCENT, commissionFor } from './referral';

describe('discountFor', () => {
  it('takes whole toman, rounding the discount down', () => {
    expect(discountFor(379_000, 10)).toBe(37_900);
    expect(discountFor(99_999, 15)).toBe(14_999);
    expect(discountFor(149_000, 100)).toBe(149_000);
    expect(discountFor(1, 50)).toBe(0);
  });
});

describe('commissionFor', () => {
  it('is COMMISSION_PERCENT of what was paid, rounded down', () => {
    expect(COMMISSION_PERCENT).toBe(10);
    expect(commissionFor(341_100)).toBe(34_110);
    expect(commissionFor(85_005)).toBe(8_500);
    expect(commissionFor(0)).toBe(0);
  });
});

describe('invoiceNumber', () => {
  it('is the prefix, a dash and the order id padded to 6 digits', () => {
    expect(invoiceNumber('INV', 42)).toBe('INV-000042');
    expect(invoiceNumber('MI', 123456)).toBe('MI-123456');
    expect(invoiceNumber('MI', 1234567)).toBe('MI-1234567');
  });
});
