/**
 * An example on every JSON success body of the document that its route gave none: sampled from the body's schema by
 * openapi-sampler (Redoc's own sampler), which takes each field's `example` (the shapes of `lib/shapes.ts` and the
 * groups give them), else its first enum value, format or type. Deterministic: the same schemas give the same
 * examples. tests/openapi.test.ts checks every example against its schema.
 */
import { sample } from 'openapi-sampler';

type Media = { schema?: object; example?: unknown; examples?: Record<string, unknown> };

/** The summary of a sampled example. */
export const SAMPLED_EXAMPLE = 'A typical answer (sampled from the schema)';

/**
 * `document` as the sampler reads it: without the bounds zod gives every integer (±Number.MAX_SAFE_INTEGER), which the
 * sampler would otherwise take as the example (`-9007199254740991` for a count).
 */
const withoutSafeIntegerBounds = <D>(document: D): D =>
  JSON.parse(
    JSON.stringify(document, (key, value) =>
      (key === 'minimum' && value === Number.MIN_SAFE_INTEGER) || (key === 'maximum' && value === Number.MAX_SAFE_INTEGER)
        ? undefined
        : value,
    ),
  );

/** Adds the sampled example to each JSON success body of `document` without one; returns `document`. */
export function withSuccessExamples<D extends { paths?: object }>(document: D): D {
  const sampled = withoutSafeIntegerBounds(document);
  type Operation = { responses?: Record<string, { content?: Record<string, Media> }> };
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item as Record<string, Operation>)) {
      if (typeof operation !== 'object' || !operation.responses) continue;
      for (const [status, response] of Object.entries(operation.responses)) {
        const media = response.content?.['application/json'];
        if (Number(status) >= 400 || !media?.schema || media.example !== undefined || media.examples) continue;
        const twin = ((sampled.paths as Record<string, unknown> | undefined)?.[path] ?? {}) as Record<string, Operation>;
        const schema = twin[method]?.responses?.[status]?.content?.['application/json']?.schema;
        media.examples = { sample: { summary: SAMPLED_EXAMPLE, value: sample(schema as never, { skipReadOnly: false }, sampled) } };
      }
    }
  }
  return document;
}
