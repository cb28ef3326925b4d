/**
 * fast-check arbitraries for the route fuzz (tests/fuzz.test.ts): request bodies shaped by a route's own zod
 * schema (through its JSON Schema), the same bodies mutated (a field missing, a wrong type, an unknown or
 * prototype-named key), hostile bodies (malformed JSON, deep nesting, huge strings, odd numbers, non-objects),
 * path ids, query strings and header values of every kind an attacker or a buggy app sends.
 */
import { fc } from '@fast-check/vitest';

type JsonSchema = {
  type?: string | string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
};

/** Ids that exist in the seed (grade, node, lesson, question) and edge numbers. */
export const interestingNumbers = [0, 1, 2, 3, 4, 5, 99, 4001, 4002, 40011, 40012, 400121, 400132, 5001, 2 ** 31, 2 ** 53 - 1];

/** Strings of every kind: empty, long, unicode (Persian, RTL marks, emoji), control characters, markup. */
export const anyText = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      'سلام ۱۲۳',
      '۴۰۰۱',
      '\u200f\u202e',
      '\u0000',
      '<script>alert(1)</script>',
      "' OR 1=1 --",
      ['$', '{7*7}'].join(''),
      '../../etc/passwd',
      '%00',
      'null',
      'undefined',
      '__proto__',
      'constructor',
      '09121234567',
      'WELCOME10',
      'gateway',
      'marketplace',
      'weekly',
      'overall',
      'up',
      'down',
      '1392/05/17',
      '۱۳۹۲/۰۵/۱۷',
      'x'.repeat(6000),
    ),
  },
);

const integerIn = (s: JsonSchema) => {
  const min = s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : (s.minimum ?? -1_000_000);
  const max = Math.min(s.maximum ?? 10_000_000, Number.MAX_SAFE_INTEGER);
  return fc.oneof(
    fc.integer({ min, max: Math.max(min, Math.min(max, 50)) }),
    fc.integer({ min, max }),
    fc.constantFrom(...interestingNumbers.filter((n) => n >= min && n <= max).concat([min])),
  );
};

/** Values that satisfy `schema` (most of the time: patterns and lengths are honoured, ranges too). */
export function fromJsonSchema(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return fc.oneof(...union.map((s) => fromJsonSchema(s, depth)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string': {
      if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern));
      const minLength = schema.minLength ?? 0;
      const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? 60, 300));
      return fc.oneof(fc.string({ minLength, maxLength }), fc.string({ unit: 'grapheme', minLength, maxLength }));
    }
    case 'integer':
      return integerIn(schema);
    case 'number':
      return fc.oneof(integerIn(schema), fc.double({ noNaN: true, noDefaultInfinity: true }));
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return depth > 3
        ? fc.constant([])
        : fc.array(fromJsonSchema(schema.items ?? {}, depth + 1), {
            minLength: schema.minItems ?? 0,
            maxLength: Math.min(schema.maxItems ?? 5, 5),
          });
    case 'object': {
      const props = Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, s]) => [k, fromJsonSchema(s, depth + 1)]));
      return fc.record(props, { requiredKeys: (schema.required ?? []).filter((k) => k in props) });
    }
    default:
      return depth > 2 ? fc.constant(null) : jsonValue;
  }
}

/** Any JSON value, small. */
export const jsonValue: fc.Arbitrary<unknown> = fc.jsonValue({ maxDepth: 3 });

/** A valid-shaped object made wrong in one way: a required field gone, a field of another type, an extra key. */
export function mutated(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc
    .tuple(
      valid,
      fc.nat(),
      jsonValue,
      fc.constantFrom('extra', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'score', 'userId'),
    )
    .map(([value, pick, other, key]) => {
      if (!value || typeof value !== 'object' || Array.isArray(value)) return other;
      const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
      const keys = Object.keys(copy);
      const mode = pick % 3;
      if (mode === 0 && keys.length) delete copy[keys[pick % keys.length] as string];
      else if (mode === 1 && keys.length) copy[keys[pick % keys.length] as string] = other;
      else Object.defineProperty(copy, key, { value: other, enumerable: true, writable: true, configurable: true });
      return copy;
    });
}

/** Raw bodies no schema expects: malformed JSON, deep nesting, huge, odd numbers, other encodings. */
export const hostileBody: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '{',
    '{"a":',
    '[1,2',
    'nul',
    '"unterminated',
    '{"a":1}}',
    "{'a':1}",
    '{"a":NaN}',
    '{"a":1e99999}',
    '{"a":-0}',
    '{"a":123456789012345678901234567890}',
    '\u0000',
    '\ufeff{}',
    '[]',
    'null',
    'true',
    '0',
    '"text"',
    '{"__proto__":{"polluted":true}}',
    '{"constructor":{"prototype":{"polluted":true}}}',
    '{"a":"\\ud800"}',
    'a=1&b=2',
    '<xml/>',
    `{"text":"${'x'.repeat(70 * 1024)}"}`,
    `${'['.repeat(5000)}${']'.repeat(5000)}`,
    `{"a":${'{"a":'.repeat(500)}1${'}'.repeat(500)}}`,
  ),
  fc.string({ maxLength: 80 }),
  jsonValue.map((v) => JSON.stringify(v)),
);

/** Path ids: real ones, numbers of any size and sign, other digit systems, encodings, junk. */
export function pathId(known: number[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...known.concat(interestingNumbers)).map(String) },
    { weight: 2, arbitrary: fc.nat({ max: 100_000 }).map(String) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '-1',
        '0',
        '00001',
        '1e3',
        '1.5',
        '0x10',
        '۴۰۰۱',
        '٤٠٠١',
        '४',
        '99999999999999999999999',
        '%2e%2e',
        '%252F',
        'null',
        '__proto__',
        'constructor',
        '%F0%9F%98%80',
        'x'.repeat(300),
      ),
    },
    { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 12 }).map(encodeURIComponent) },
  );
}

/** A query string (without `?`): the schema's parameters with any values, prototype names, junk encodings. */
export function queryString(names: string[]): fc.Arbitrary<string> {
  const pair = fc.tuple(
    fc.constantFrom(...names, '__proto__', 'constructor', 'toString', 'userId', 'limit', 'cursor', 'gradeId', 'period', 'status', 'x'),
    fc.oneof(anyText, fc.integer({ min: -5, max: 200 }).map(String), fc.constantFrom(...interestingNumbers.map(String))),
  );
  return fc.oneof(
    { weight: 5, arbitrary: fc.array(pair, { maxLength: 4 }).map((pairs) => new URLSearchParams(pairs).toString()) },
    { weight: 1, arbitrary: fc.constantFrom('', '%%%', 'a=%ZZ', '&&&=', '=', 'a=1&a=2&a=3', 'limit=%E0%A4%A', `q=${'x'.repeat(3000)}`) },
  );
}

/** A header value a client may send (visible ASCII and spaces; HTTP forbids control characters). */
export const headerValue = fc.oneof(
  fc.stringMatching(/^[\x20-\x7e]{0,80}$/),
  fc.constantFrom('', ' ', 'null', '%E0%A4%A', 'x'.repeat(4000)),
);
