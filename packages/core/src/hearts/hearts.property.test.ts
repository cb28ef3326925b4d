/**
 * Properties of hearts (spec "Progress", Limits; issue 3 §1): derived from the stored pair and the time, they
 * stay between 0 and the maximum, never go down with time, come back one per refill period, say truly when the
 * next one comes, and reading them at one time and storing that state changes nothing later (so a write made at
 * any moment keeps the same future). Losing one at any moment costs exactly one.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { loadSettings } from '../config/settings';
import { afterLosingOne, heartsAt } from './hearts';

const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : 20261123;
const numRuns = Number(process.env.FC_RUNS ?? 1000);
const settings = loadSettings({ HEART_REFILL_SECONDS: '14400' });
const MAX = settings.hearts.max;
const REFILL = settings.hearts.refillSeconds * 1000;

const t0 = Date.UTC(2026, 0, 1);
const stored = fc.record({ hearts: fc.integer({ min: 0, max: MAX }), heartsUpdatedAt: fc.integer({ min: t0, max: t0 + 30 * 86_400_000 }) });
const later = fc.integer({ min: 0, max: 3 * 86_400_000 });

describe('hearts', () => {
  test.prop([stored, later], { seed, numRuns })('stay within 0..max and come back one per refill period', (s, dt) => {
    const now = heartsAt(s, s.heartsUpdatedAt + dt, settings);
    expect(now.hearts).toBeGreaterThanOrEqual(0);
    expect(now.hearts).toBeLessThanOrEqual(MAX);
    expect(now.hearts).toBe(Math.min(MAX, s.hearts + Math.floor(dt / REFILL)));
    expect(now.maxHearts).toBe(MAX);
  });

  test.prop([stored, later, later], { seed, numRuns })('never go down as time passes', (s, a, b) => {
    const [early, late] = a <= b ? [a, b] : [b, a];
    expect(heartsAt(s, s.heartsUpdatedAt + late, settings).hearts).toBeGreaterThanOrEqual(
      heartsAt(s, s.heartsUpdatedAt + early, settings).hearts,
    );
  });

  test.prop([stored, later], { seed, numRuns })('say truly when the next one comes back', (s, dt) => {
    const now = heartsAt(s, s.heartsUpdatedAt + dt, settings);
    if (now.hearts === MAX) {
      expect(now.nextHeartAt).toBeNull();
      return;
    }
    const next = now.nextHeartAt as number;
    expect(next).toBeGreaterThan(s.heartsUpdatedAt + dt);
    expect(next - (s.heartsUpdatedAt + dt)).toBeLessThanOrEqual(REFILL);
    expect(heartsAt(s, next - 1, settings).hearts).toBe(now.hearts);
    expect(heartsAt(s, next, settings).hearts).toBe(now.hearts + 1);
  });

  test.prop([stored, later, later], { seed, numRuns })('keep the same future when their state is stored at any moment', (s, a, b) => {
    const at = s.heartsUpdatedAt + a;
    const restored = heartsAt(s, at, settings).stored;
    expect(heartsAt(restored, at + b, settings).hearts).toBe(heartsAt(s, at + b, settings).hearts);
  });

  test.prop([stored, later, later], { seed, numRuns })('cost exactly one when lost, the refill clock running on', (s, a, b) => {
    const at = s.heartsUpdatedAt + a;
    const now = heartsAt(s, at, settings);
    if (now.hearts === 0) return;
    const after = afterLosingOne(now, at);
    expect(heartsAt(after, at, settings).hearts).toBe(now.hearts - 1);
    // Later, the loss shows as exactly one heart fewer than without it, until the refill catches up to full.
    const without = heartsAt(s, at + b, settings).hearts;
    const withLoss = heartsAt(after, at + b, settings).hearts;
    expect(withLoss === without - 1 || (without === MAX && withLoss >= MAX - 1)).toBe(true);
  });

  test.prop([stored, later], { seed, numRuns })('are always full when not enforced', (s, dt) => {
    const off = loadSettings({ HEARTS_ENFORCED: '0' });
    expect(heartsAt(s, s.heartsUpdatedAt + dt, off)).toMatchObject({ hearts: MAX, enforced: false, nextHeartAt: null });
  });
});
