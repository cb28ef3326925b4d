import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { lazySchema, schemaDescription } from './lazySchema';

describe('lazySchema', () => {
  it('builds nothing until first used, then once', () => {
    const build = vi.fn(() => z.object({ xp: z.number().int() }).describe('probe'));
    const Probe = lazySchema(build);
    const List = z.array(Probe).optional();
    expect(build).not.toHaveBeenCalled();
    expect(List.parse([{ xp: 1, extra: true }])).toEqual([{ xp: 1 }]);
    expect(Probe.safeParse({ xp: 1.5 }).success).toBe(false);
    expect(Probe.unwrap().shape.xp).toBeDefined();
    expect(build).toHaveBeenCalledTimes(1);
  });

  it('builds on another through unwrap, and reads the description of the built schema unless its own is set', () => {
    const Base = lazySchema(() => z.object({ id: z.number() }).describe('base'));
    const Extended = lazySchema(() => Base.unwrap().extend({ name: z.string() }).describe('extended'));
    expect(Extended.parse({ id: 1, name: 'a' })).toEqual({ id: 1, name: 'a' });
    expect(schemaDescription(Base)).toBe('base');
    expect(schemaDescription(Extended)).toBe('extended');
    expect(schemaDescription(Base.describe('renamed'))).toBe('renamed');
    expect(schemaDescription(z.string())).toBeUndefined();
  });
});
