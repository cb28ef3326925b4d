import { describe, expect, it } from 'vitest';
import { canonicalPublicId, newPublicId, PUBLIC_ID_PATTERN } from './publicId';

describe('newPublicId', () => {
  it('draws 6 digits for the first 6 tries, then 7 for 2, then 8 at most, over the whole width', () => {
    const widths = Array.from({ length: 12 }, (_, attempt) => {
      let bound = 0;
      const id = newPublicId(attempt, (min, max) => {
        expect(min).toBe(0);
        bound = max;
        return max - 1;
      });
      expect(id).toBe(`User${String(bound - 1)}`);
      return id.length - 4;
    });
    expect(widths).toEqual([6, 6, 6, 6, 6, 6, 7, 7, 8, 8, 8, 8]);
  });

  it('pads a small draw with zeros, so every width keeps its length', () => {
    expect(newPublicId(0, () => 42)).toBe('User000042');
    expect(newPublicId(6, () => 0)).toBe('User0000000');
    expect(newPublicId(0)).toMatch(/^User\d{6}$/);
  });

  it('recognises what staff type, any case, and nothing else', () => {
    for (const q of ['User000042', 'user0000000', 'USER12345678']) expect(PUBLIC_ID_PATTERN.test(q)).toBe(true);
    for (const q of ['User12345', 'User123456789', 'User12345a', ' User123456', 'Usr123456']) expect(PUBLIC_ID_PATTERN.test(q)).toBe(false);
  });

  it('names the stored publicId of what staff type, whatever its case', () => {
    expect(canonicalPublicId('user000042')).toBe('User000042');
    expect(canonicalPublicId('USER12345678')).toBe('User12345678');
    expect(canonicalPublicId('User12345')).toBeUndefined();
    expect(canonicalPublicId('42')).toBeUndefined();
  });
});
