import { describe, expect, it } from 'vitest';
import { safeEqual, safeEqualAny } from './crypto';

describe('safeEqualAny', () => {
  it('accepts exactly the listed values, every time the same list is asked', () => {
    const accepted = ['current-origin-secret', 'previous-origin-secret'];
    for (let i = 0; i < 3; i++) {
      expect(safeEqualAny('current-origin-secret', accepted)).toBe(true);
      expect(safeEqualAny('previous-origin-secret', accepted)).toBe(true);
      expect(safeEqualAny('current-origin-secre', accepted)).toBe(false);
      expect(safeEqualAny('current-origin-secret ', accepted)).toBe(false);
      expect(safeEqualAny('', accepted)).toBe(false);
    }
    expect(safeEqualAny('anything', [])).toBe(false);
  });

  it('judges another list by its own values, and agrees with safeEqual', () => {
    expect(safeEqualAny('a', ['a'])).toBe(true);
    expect(safeEqualAny('a', ['b'])).toBe(false);
    for (const [a, b] of [
      ['x', 'x'],
      ['x', 'y'],
      ['', ''],
      ['long value', 'long valu'],
    ] as const) {
      expect(safeEqualAny(a, [b])).toBe(safeEqual(a, b));
    }
  });
});
