import { describe, expect, it } from 'vitest';
import { jalaliDate, jalaliDateTime } from './jalali';

describe('Jalali renderings of Tehran times', () => {
  it('renders a Tehran day as its Jalali date', () => {
    expect(jalaliDate('2026-11-20')).toBe('1405/08/29');
    expect(jalaliDate('2025-03-21')).toBe('1404/01/01');
    expect(() => jalaliDate('2025-3-21')).toThrow(RangeError);
  });

  it('renders an instant as the Jalali date and Tehran time, the day turning at 20:30 UTC', () => {
    expect(jalaliDateTime(Date.UTC(2026, 10, 20, 8, 0, 0))).toBe('1405/08/29 11:30:00');
    expect(jalaliDateTime(Date.UTC(2025, 2, 20, 20, 29, 59))).toBe('1403/12/30 23:59:59');
    expect(jalaliDateTime(Date.UTC(2025, 2, 20, 20, 30, 0))).toBe('1404/01/01 00:00:00');
  });
});
