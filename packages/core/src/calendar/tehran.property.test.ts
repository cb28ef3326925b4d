/**
 * Properties of the Tehran calendar (spec "Progress": one streak entry per Tehran day; DESIGN §3: weeks from
 * Saturday 00:00 Tehran): day keys against an independent day count at the fixed +03:30 offset, the day turning
 * exactly at Tehran midnight (20:30 UTC), day arithmetic round trips, and weeks starting on Saturday.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { addDays, daysBetween, lastDays, TEHRAN_OFFSET_MS, tehranDay, tehranDayStart, tehranWeekStart } from './tehran';

const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : 20261123;
const numRuns = Number(process.env.FC_RUNS ?? 500);
const DAY = 86_400_000;
/** Instants from 1990 to 2100. */
const instant = fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2100, 0, 1) });
/** The Tehran day number (days since the epoch) of an instant: an oracle independent of the module. */
const dayNumber = (ms: number) => Math.floor((ms + 3.5 * 3_600_000) / DAY);

describe('Tehran days', () => {
  test.prop([instant], { seed, numRuns })('match the day count at +03:30, and turn exactly at Tehran midnight', (t) => {
    expect(tehranDay(t)).toBe(new Date(dayNumber(t) * DAY).toISOString().slice(0, 10));
    const start = tehranDayStart(t);
    expect(start).toBeLessThanOrEqual(t);
    expect(t - start).toBeLessThan(DAY);
    expect((start + TEHRAN_OFFSET_MS) % DAY).toBe(0); // 20:30:00.000 UTC
    expect(tehranDay(start)).toBe(tehranDay(t));
    expect(tehranDay(start - 1)).toBe(addDays(tehranDay(t), -1));
    expect(tehranDay(start + DAY)).toBe(addDays(tehranDay(t), 1));
  });

  test.prop([instant, instant], { seed, numRuns })('are as far apart as their day numbers', (a, b) => {
    expect(daysBetween(tehranDay(a), tehranDay(b))).toBe(dayNumber(b) - dayNumber(a));
  });

  test.prop([instant, fc.integer({ min: -4000, max: 4000 })], { seed, numRuns })('add and subtract days back and forth', (t, n) => {
    const day = tehranDay(t);
    expect(addDays(addDays(day, n), -n)).toBe(day);
    expect(daysBetween(day, addDays(day, n))).toBe(n);
    expect(addDays(day, n) > day).toBe(n > 0);
  });

  test.prop([instant, fc.integer({ min: 0, max: 40 })], { seed, numRuns })('list the last n days, ending today, one apart', (t, n) => {
    const days = lastDays(t, n);
    expect(days).toHaveLength(n);
    if (n) expect(days.at(-1)).toBe(tehranDay(t));
    for (let i = 1; i < days.length; i++) expect(daysBetween(days[i - 1] as string, days[i] as string)).toBe(1);
  });

  test.prop([instant], { seed, numRuns })('belong to the week that started on the Saturday before', (t) => {
    const week = tehranWeekStart(t);
    expect(new Date(`${week}T00:00:00Z`).getUTCDay()).toBe(6);
    const into = daysBetween(week, tehranDay(t));
    expect(into).toBeGreaterThanOrEqual(0);
    expect(into).toBeLessThan(7);
  });
});
