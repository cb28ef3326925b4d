/**
 * The `changes` of a history entry (DESIGN §9): for each field whose value differs, `[before, after]` (null where
 * the field is absent: a creation has only afters, a deletion only befores), and for a secret field just `"changed"`,
 * never a value (passwords, hashes, codes, tokens). Values are compared as JSON, so arrays and objects (a plan's
 * features, an order's grant) count as changed only when their content differs.
 */
import type { Changes } from './entry.entity';

type Fields = Readonly<Record<string, unknown>>;

/** Options of {@link fieldChanges}. */
export interface ChangeOptions {
  /** Fields recorded only as `"changed"` (their values never reach the entry). */
  secret?: readonly string[];
  /** Fields left out (ids, index keys, times the change itself sets). */
  omit?: readonly string[];
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * What changed from `before` to `after` (either undefined: created, deleted). Undefined values count as absent
 * (null). A secret field that changed is `"changed"`; one that did not is left out.
 */
export function fieldChanges(before: Fields | undefined, after: Fields | undefined, options: ChangeOptions = {}): Changes {
  const omit = new Set(options.omit ?? []);
  const secret = new Set(options.secret ?? []);
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])].filter((f) => !omit.has(f));
  const changes: Changes = {};
  for (const field of fields) {
    const was = before?.[field] ?? null;
    const is = after?.[field] ?? null;
    if (same(was, is)) continue;
    changes[field] = secret.has(field) ? 'changed' : [was, is];
  }
  return changes;
}
