import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { adminPage, Plan, responseShape } from './shapes';

describe('responseShape', () => {
  it('builds its shape at the first read, once, and parses as the shape', () => {
    const build = vi.fn(() => z.object({ id: z.number() }).meta({ id: 'Probe' }));
    const Probe = responseShape(build);
    expect(build).not.toHaveBeenCalled();
    expect(Probe.parse({ id: 1 })).toEqual({ id: 1 });
    expect(() => Probe.parse({ id: 'x' })).toThrow();
    expect(Probe.unwrap()).toBe(Probe.unwrap());
    expect(build).toHaveBeenCalledTimes(1);
  });

  it('renders as the built shape in JSON Schema, with its component id', () => {
    const schema = z.toJSONSchema(adminPage(Plan), { io: 'output' }) as {
      $defs?: Record<string, unknown>;
      properties?: Record<string, unknown>;
    };
    expect(Object.keys(schema.properties ?? {})).toEqual(['items', 'nextCursor', 'total']);
    expect(Object.keys(schema.$defs ?? {})).toContain('Plan');
  });
});
