/**
 * A Lambda's cold start builds no route's zod schema and no response shape (issue 30 §5, docs/performance.md): each
 * is built at its first use (`lazySchema`, core lazySchema.ts) or first read (`responseShape`). Importing every
 * endpoint group, as a cold start does, must leave them unbuilt; a schema someone declares plainly at a module's top
 * level fails here.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { isResponseSpec, type ResponseDoc } from '../packages/functions/src/lib/responses';
import { loadRouteDefinitions } from '../packages/local/src/apiDocs';

/** Whether `schema` is a lazy schema whose builder has not run (zod caches the built schema on first use). */
const unbuilt = (schema: z.ZodType): boolean =>
  schema instanceof z.ZodLazy && typeof Object.getOwnPropertyDescriptor(schema._zod, 'innerType')?.get === 'function';

/** Nothing to defer: an empty strict object (`NoQuery`) or a bare string (a text body: CSV, HTML). */
const trivial = (schema: z.ZodType): boolean =>
  (schema instanceof z.ZodObject && Object.keys(schema.shape).length === 0) || schema instanceof z.ZodString;

const bodyOf = (doc: ResponseDoc): z.ZodType | undefined => (isResponseSpec(doc) ? (doc.body as z.ZodType | undefined) : doc);

describe('cold import', () => {
  it('importing every endpoint group builds no route input schema and no response shape', async () => {
    const groups = await loadRouteDefinitions();
    const built: string[] = [];
    for (const routes of Object.values(groups)) {
      for (const [key, def] of Object.entries(routes)) {
        for (const [part, schema] of [
          ['body', def.body],
          ['query', def.query],
        ] as const) {
          if (schema && !trivial(schema as z.ZodType) && !unbuilt(schema as z.ZodType)) built.push(`${key} ${part}`);
        }
        for (const [status, doc] of Object.entries(def.responses)) {
          const body = bodyOf(doc);
          if (body && !trivial(body) && !unbuilt(body)) built.push(`${key} ${status}`);
        }
      }
    }
    expect(built).toEqual([]);
    // The components given an id by a schema built at import: only the small shared ones of lib/shapes.ts.
    const ids = [...(z.globalRegistry as unknown as { _idmap: Map<string, unknown> })._idmap.keys()].sort();
    expect(ids).toEqual(['Error', 'IsoTime', 'OrderStatus', 'TehranDay']);
  });
});
