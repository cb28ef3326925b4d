import { describe, expect, it } from 'vitest';
import { addDays, daysBetween, lastDays, TEHRAN_OFFSET_MS, tehranDay, tehranDayStart, tehranWeekStart, weekKey } from './tehran';

const utc = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0) => Date.UTC(y, mo - 1, d, h, mi, s, ms);
const hour = 3_600_000;
const day = 24 * hour;

describe('TEHRAN_OFFSET_MS', () => {
  it('is +03:30', () => {
    expect(TEHRAN_OFFSET_MS).toBe(3.5 * hour);
  });
});

describe('tehranDay', () => {
  it('changes day at 20:30:00.000 UTC (Tehran midnight), not at UTC midnight', () => {
    expect(tehranDay(utc(2025, 3, 20, 20, 29, 59, 999))).toBe('2025-03-20');
    expect(tehranDay(utc(2025, 3, 20, 20, 30))).toBe('2025-03-21');
    expect(tehranDay(utc(2025, 3, 20, 23, 59, 59, 999))).toBe('2025-03-21');
    expect(tehranDay(utc(2025, 3, 21, 0, 0))).toBe('2025-03-21');
  });

  it('uses +03:30 in summer too (no DST since 2022)', () => {
    expect(tehranDay(utc(2025, 7, 15, 20, 29, 59, 999))).toBe('2025-07-15');
    expect(tehranDay(utc(2025, 7, 15, 20, 30))).toBe('2025-07-16');
  });

  it.each([
    ['year end', utc(2025, 12, 31, 20, 29, 59, 999), '2025-12-31', '2026-01-01'],
    ['month end (30 days)', utc(2025, 4, 30, 20, 29, 59, 999), '2025-04-30', '2025-05-01'],
    ['month end (31 days)', utc(2025, 1, 31, 20, 29, 59, 999), '2025-01-31', '2025-02-01'],
    ['Feb 28 of a common year', utc(2027, 2, 28, 20, 29, 59, 999), '2027-02-28', '2027-03-01'],
    ['Feb 28 of a leap year', utc(2028, 2, 28, 20, 29, 59, 999), '2028-02-28', '2028-02-29'],
    ['leap day 2028-02-29', utc(2028, 2, 29, 20, 29, 59, 999), '2028-02-29', '2028-03-01'],
  ])('%s: last millisecond and first millisecond of the next Tehran day', (_, lastMs, before, after) => {
    expect(tehranDay(lastMs)).toBe(before);
    expect(tehranDay(lastMs + 1)).toBe(after);
  });

  it('zero-pads so that day keys sort in time order', () => {
    expect(tehranDay(utc(2025, 1, 4, 12))).toBe('2025-01-04');
    const keys = [utc(2025, 9, 30, 12), utc(2025, 10, 1, 12), utc(2025, 12, 9, 12), utc(2026, 1, 1, 12)].map(tehranDay);
    expect([...keys].sort()).toEqual(keys);
  });

  it('rejects instants that are not finite', () => {
    expect(() => tehranDay(Number.NaN)).toThrow(RangeError);
    expect(() => tehranDay(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});

describe('tehranDayStart', () => {
  const start = utc(2025, 3, 20, 20, 30); // 2025-03-21 00:00 Tehran
  it('returns Tehran midnight for every instant of the day', () => {
    expect(tehranDayStart(start)).toBe(start);
    expect(tehranDayStart(start + 1)).toBe(start);
    expect(tehranDayStart(start + 12 * hour)).toBe(start);
    expect(tehranDayStart(start + day - 1)).toBe(start);
  });
  it('moves to the next or previous day at the boundary', () => {
    expect(tehranDayStart(start + day)).toBe(start + day);
    expect(tehranDayStart(start - 1)).toBe(start - day);
  });
  it('agrees with tehranDay', () => {
    for (let ms = utc(2027, 12, 30); ms < utc(2028, 3, 2); ms += 5 * hour + 7) {
      const s = tehranDayStart(ms);
      expect(s).toBeLessThanOrEqual(ms);
      expect(ms - s).toBeLessThan(day);
      expect(tehranDay(s)).toBe(tehranDay(ms));
      expect(tehranDay(s - 1)).toBe(addDays(tehranDay(ms), -1));
    }
  });
});

describe('addDays and daysBetween', () => {
  it.each([
    ['2025-01-31', 1, '2025-02-01'],
    ['2025-02-28', 1, '2025-03-01'],
    ['2028-02-28', 1, '2028-02-29'],
    ['2028-02-29', 1, '2028-03-01'],
    ['2100-02-28', 1, '2100-03-01'],
    ['2000-02-28', 1, '2000-02-29'],
    ['2025-12-31', 1, '2026-01-01'],
    ['2026-01-01', -1, '2025-12-31'],
    ['2025-03-01', -1, '2025-02-28'],
    ['2028-03-01', -1, '2028-02-29'],
    ['2025-04-30', 0, '2025-04-30'],
    ['2025-01-01', 365, '2026-01-01'],
    ['2028-01-01', 366, '2029-01-01'],
    ['2025-01-15', -45, '2024-12-01'],
  ])('addDays(%s, %i) = %s, and daysBetween gives the count back', (from, n, to) => {
    expect(addDays(from, n)).toBe(to);
    expect(daysBetween(from, to)).toBe(n);
    expect(daysBetween(to, from)).toBe(0 - n);
  });

  it('counts February by the leap rule', () => {
    expect(daysBetween('2027-02-01', '2027-03-01')).toBe(28);
    expect(daysBetween('2028-02-01', '2028-03-01')).toBe(29);
    expect(daysBetween('2025-01-01', '2025-12-31')).toBe(364);
  });

  it('rejects malformed or unreal days and non-integer counts', () => {
    for (const bad of [
      '2025-02-29',
      '2025-02-30',
      '2025-13-01',
      '2025-00-10',
      '2025-1-05',
      '25-01-05',
      '2025/01/05',
      '',
      '2025-01-05T00:00',
    ]) {
      expect(() => addDays(bad, 1), bad).toThrow(RangeError);
      expect(() => daysBetween(bad, '2025-01-01'), bad).toThrow(RangeError);
    }
    expect(() => addDays('2025-01-01', 1.5)).toThrow(RangeError);
    expect(() => addDays('2025-01-01', Number.NaN)).toThrow(RangeError);
  });
});

describe('tehranWeekStart and weekKey', () => {
  // 2025-03-21 (1 Farvardin 1404) is a Friday (providers.md §4), so Saturday 2025-03-22 starts a week.
  it('Friday 23:59:59.999 Tehran is still in the old week; Saturday 00:00 Tehran starts the next', () => {
    const saturdayMidnight = utc(2025, 3, 21, 20, 30); // 2025-03-22 00:00 Tehran
    expect(tehranWeekStart(saturdayMidnight - 1)).toBe('2025-03-15');
    expect(tehranWeekStart(saturdayMidnight)).toBe('2025-03-22');
  });

  it('starts the week at Tehran midnight even though it is still Friday in UTC', () => {
    expect(tehranWeekStart(utc(2025, 3, 21, 21, 0))).toBe('2025-03-22');
    expect(tehranWeekStart(utc(2025, 3, 22, 0, 0))).toBe('2025-03-22');
  });

  it('keeps the whole Saturday-to-Friday week under one key', () => {
    const start = utc(2025, 3, 21, 20, 30);
    for (let ms = start; ms < start + 7 * day; ms += hour) expect(weekKey(ms)).toBe('2025-03-22');
    expect(weekKey(start + 7 * day)).toBe('2025-03-29');
  });

  it('crosses the year end (week of Sat 2025-12-27 to Fri 2026-01-02)', () => {
    expect(tehranWeekStart(utc(2026, 1, 1, 12))).toBe('2025-12-27');
    expect(tehranWeekStart(utc(2026, 1, 2, 20, 29, 59, 999))).toBe('2025-12-27');
    expect(tehranWeekStart(utc(2026, 1, 2, 20, 30))).toBe('2026-01-03');
  });

  it('crosses the leap day (week of Sat 2028-02-26 to Fri 2028-03-03)', () => {
    expect(tehranWeekStart(utc(2028, 2, 29, 12))).toBe('2028-02-26');
    expect(tehranWeekStart(utc(2028, 3, 3, 20, 29, 59, 999))).toBe('2028-02-26');
    expect(tehranWeekStart(utc(2028, 3, 3, 20, 30))).toBe('2028-03-04');
  });

  it('always returns a Saturday at most six days back', () => {
    for (let ms = utc(2027, 12, 1); ms < utc(2028, 4, 1); ms += 7 * hour + 13) {
      const start = tehranWeekStart(ms);
      expect(new Date(`${start}T00:00:00Z`).getUTCDay()).toBe(6);
      const back = daysBetween(start, tehranDay(ms));
      expect(back).toBeGreaterThanOrEqual(0);
      expect(back).toBeLessThan(7);
      expect(weekKey(ms)).toBe(start);
    }
  });
});

describe('lastDays', () => {
  it('returns the 7 Tehran days ending today, oldest first, across a month end', () => {
    const ms = utc(2025, 3, 1, 20, 30); // 2025-03-02 00:00 Tehran
    expect(lastDays(ms, 7)).toEqual(['2025-02-24', '2025-02-25', '2025-02-26', '2025-02-27', '2025-02-28', '2025-03-01', '2025-03-02']);
    expect(lastDays(ms - 1, 7)).toEqual(['2025-02-23', '2025-02-24', '2025-02-25', '2025-02-26', '2025-02-27', '2025-02-28', '2025-03-01']);
  });

  it('includes the leap day', () => {
    expect(lastDays(utc(2028, 3, 1, 12), 3)).toEqual(['2028-02-28', '2028-02-29', '2028-03-01']);
  });

  it('handles 1 and 0 days and refuses bad counts', () => {
    const ms = utc(2025, 12, 31, 21);
    expect(lastDays(ms, 1)).toEqual(['2026-01-01']);
    expect(lastDays(ms, 0)).toEqual([]);
    expect(() => lastDays(ms, -1)).toThrow(RangeError);
    expect(() => lastDays(ms, 2.5)).toThrow(RangeError);
  });
});
