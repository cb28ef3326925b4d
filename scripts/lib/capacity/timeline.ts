/**
 * When the capacity model's simulated learners act (simulate.ts; DESIGN §14): the school day and the surge, and how
 * a sample of learners is spread over them (quantiles of the day's sessions and of the surge's grants).
 */

/** Wednesday 2026-11-18 00:00 Tehran, and the Saturday after it, 10:00 Tehran. */
export const DAY_START = Date.UTC(2026, 10, 17, 20, 30);
export const SURGE_START = Date.UTC(2026, 10, 21, 6, 30);
export const SURGE_SECONDS = 600;
export const HOUR = 3_600_000;

/** Time in the day (ms from 00:00 Tehran) at quantile `u` of the sessions' start. */
export function dayQuantile(u: number): number {
  if (u < 0.6) return 16 * HOUR + (u / 0.6) * 4 * HOUR;
  if (u < 0.85) return 7 * HOUR + ((u - 0.6) / 0.25) * 9 * HOUR;
  return 20 * HOUR + ((u - 0.85) / 0.15) * 3 * HOUR;
}

/**
 * Seconds into the surge at quantile `u` of its grants: 500 a second on average over ten minutes, bursts of 1,000 a
 * second for 30 seconds from 120 s and from 400 s, about 444 a second between.
 */
export function surgeQuantile(u: number): number {
  const base = (300_000 - 60_000) / 540; // grants a second outside the bursts
  const segments: Array<[number, number, number]> = [
    [0, 120, base],
    [120, 150, 1000],
    [150, 400, base],
    [400, 430, 1000],
    [430, 600, base],
  ];
  let remaining = u * 300_000;
  for (const [from, to, rate] of segments) {
    const n = (to - from) * rate;
    if (remaining <= n) return from + remaining / rate;
    remaining -= n;
  }
  return SURGE_SECONDS;
}

/** The day; the surge's ten minutes; the hour after it, when its learners come back to the board. */
export type Phase = 'day' | 'surge' | 'after';
