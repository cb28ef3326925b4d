/**
 * The pickers' Tehran wall clock (tehranTime.ts) in browsers of other zones: what is typed is saved as that Tehran
 * time, and a saved time comes back as it was typed, in UTC, in New York (daylight saving) and in Tehran.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { dayToWallClock, fromWallClock, tehranDay, toWallClock, wallClockToDay } from './tehranTime';

const zone = process.env.TZ;
afterEach(() => {
  process.env.TZ = zone;
});

describe.each(['UTC', 'America/New_York', 'Asia/Tehran', 'Pacific/Kiritimati'])('a browser in %s', (tz) => {
  it('saves 23:59 on 21 December 2026 typed in the picker as 23:59 Tehran time, and shows it back as typed', () => {
    process.env.TZ = tz;
    const typed = new Date(2026, 11, 21, 23, 59);
    const saved = fromWallClock(typed) as string;
    expect(new Date(saved).toISOString()).toBe('2026-12-21T20:29:00.000Z');
    expect(saved).toMatch(/\+03:30$/);
    const shown = toWallClock(saved) as Date;
    expect([shown.getFullYear(), shown.getMonth(), shown.getDate(), shown.getHours(), shown.getMinutes()]).toEqual([2026, 11, 21, 23, 59]);
  });

  it('reads a Tehran day as a day, and today as Tehran sees it', () => {
    process.env.TZ = tz;
    expect(wallClockToDay(dayToWallClock('2026-11-20'))).toBe('2026-11-20');
    // 21:00 UTC on 20 November is already 21 November in Tehran (00:30).
    expect(tehranDay(Date.UTC(2026, 10, 20, 21, 0))).toBe('2026-11-21');
  });
});

it('gives null for no time and for a picker value it cannot read', () => {
  expect(toWallClock(null)).toBeNull();
  expect(toWallClock('not a time')).toBeNull();
  expect(fromWallClock(new Date(Number.NaN))).toBeNull();
  expect(dayToWallClock('2026-11')).toBeNull();
});
