import { describe, expect, it } from 'vitest';
import { loadSettings } from '../config/settings';
import { afterLosingOne, heartsAt } from '../hearts';
import { checkAnswer, starsFor } from './rules';

describe('starsFor', () => {
  it.each([
    [5, 5, 3],
    [9, 10, 3],
    [8, 10, 2],
    [6, 10, 2],
    [5, 10, 1],
    [0, 4, 1],
    [0, 0, 0],
  ])('%i of %i → %i stars', (correct, total, stars) => {
    expect(starsFor(correct, total)).toBe(stars);
  });
});

describe('checkAnswer', () => {
  const choice = { type: 'choice' as const, answer: 'b', choices: [{ id: 'a' }, { id: 'b' }, { id: 'c' }] };
  const number = { type: 'number' as const, answer: '2.5' };
  it('compares choice ids and refuses unknown ones', () => {
    expect(checkAnswer(choice, 'b')).toBe(true);
    expect(checkAnswer(choice, ' a ')).toBe(false);
    expect(checkAnswer(choice, 'z')).toBeUndefined();
  });
  it('compares numbers by value in ASCII, Persian and Arabic-Indic digits', () => {
    expect(checkAnswer(number, '2.50')).toBe(true);
    expect(checkAnswer(number, '۲٫۵')).toBe(true);
    expect(checkAnswer(number, '٢.٥')).toBe(true);
    expect(checkAnswer(number, '3')).toBe(false);
    expect(checkAnswer({ type: 'number', answer: '-7' }, '−7')).toBe(true);
    for (const bad of ['', 'abc', '1e3', '2,5', '..']) expect(checkAnswer(number, bad)).toBeUndefined();
  });
});

describe('hearts', () => {
  const settings = loadSettings({});
  const hour = 3600_000;
  it('refills one heart every 4 hours up to the maximum, from stored time', () => {
    const t0 = Date.UTC(2026, 0, 1);
    const stored = { hearts: 2, heartsUpdatedAt: t0 };
    expect(heartsAt(stored, t0, settings)).toMatchObject({ hearts: 2, nextHeartAt: t0 + 4 * hour });
    expect(heartsAt(stored, t0 + 4 * hour - 1, settings).hearts).toBe(2);
    expect(heartsAt(stored, t0 + 4 * hour, settings)).toMatchObject({ hearts: 3, nextHeartAt: t0 + 8 * hour });
    expect(heartsAt(stored, t0 + 11 * hour, settings)).toMatchObject({ hearts: 4, nextHeartAt: t0 + 12 * hour });
    expect(heartsAt(stored, t0 + 100 * hour, settings)).toMatchObject({ hearts: 5, nextHeartAt: null });
  });
  it('starts the refill clock when a full learner loses a heart, and keeps it running otherwise', () => {
    const t0 = Date.UTC(2026, 0, 1);
    const full = heartsAt({ hearts: 5, heartsUpdatedAt: t0 - 100 * hour }, t0, settings);
    expect(afterLosingOne(full, t0)).toEqual({ hearts: 4, heartsUpdatedAt: t0 });
    const partial = heartsAt({ hearts: 3, heartsUpdatedAt: t0 - hour }, t0, settings);
    expect(afterLosingOne(partial, t0)).toEqual({ hearts: 2, heartsUpdatedAt: t0 - hour });
  });
  it('never reports below 0 or above the maximum', () => {
    expect(heartsAt({ hearts: -3, heartsUpdatedAt: 0 }, 0, settings).hearts).toBe(0);
    expect(heartsAt({ hearts: 9, heartsUpdatedAt: 0 }, 0, settings).hearts).toBe(5);
  });
  it('reports full hearts when not enforced', () => {
    expect(heartsAt({ hearts: 0, heartsUpdatedAt: 0 }, 0, loadSettings({ HEARTS_ENFORCED: '0' }))).toMatchObject({
      hearts: 5,
      enforced: false,
    });
  });
});
