/**
 * Zod schemas built at their first use instead of when their module loads (issue 30 §5: a Lambda's cold start).
 *
 * A zod schema costs its construction, about 30 µs an instance on a cold process, and an endpoint group bundles
 * every entity schema its routes might read: the learning group built about 450 of them at import, though a request
 * parses two or three items. Wrapped in {@link lazySchema}, each is built when something first parses with it (or
 * reads it to build another), so a cold start builds only what its first request reads.
 *
 * The wrapper is a `z.lazy` whose builder runs once: it parses, infers (`z.infer`) and renders in JSON Schema as
 * the built schema, and it can be `.optional()`, `.nullable()`, an array item or a union member. What only an
 * object has (`.extend`, `.pick`, `.shape`, `.keyof`) is on `X.unwrap()`, used inside another lazySchema so that
 * nothing is built at import. The built schema's `.describe()` (an entity's name in {@link StoredItemError}
 * messages) is read through {@link schemaDescription}.
 */
import * as z from 'zod';

/** `build()`'s schema, built at its first use, once. */
export function lazySchema<T extends z.ZodType>(build: () => T): z.ZodLazy<T> {
  let built: T | undefined;
  return z.lazy(() => {
    built ??= build();
    return built;
  });
}

/** A schema's `.describe()` text: its own, else (a {@link lazySchema}) the built schema's. */
export function schemaDescription(schema: z.ZodType): string | undefined {
  if (schema.description !== undefined) return schema.description;
  return schema instanceof z.ZodLazy ? schemaDescription(schema.unwrap() as z.ZodType) : undefined;
}
