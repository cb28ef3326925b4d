/**
 * Validates the parsed JSON body and the query string with the route's zod schemas (DESIGN §3, §7): failures
 * are 400 `validation_error` with `fields: { <field>: [messages] }`; unknown body fields are refused by the
 * routes' strict schemas and reported under their own names. Without a body schema only an empty body or
 * `{}` is accepted.
 */
import { DomainError } from '@mathisland/core';
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import * as z from 'zod';
import type { AppContext } from '../types';

const emptyBody = z.union([z.undefined(), z.strictObject({})]);

/**
 * Names of Object.prototype members. As body keys they are unknown fields on every route (DESIGN §11: any JSON key is
 * just data): the strict schemas refuse them as they refuse any unknown key, and so does a body whose schema takes
 * free fields (the completions' score data), where a parsed `__proto__` would otherwise vanish into the prototype.
 */
const PROTOTYPE_KEYS = new Set(Object.getOwnPropertyNames(Object.prototype));

/** The top-level keys of a JSON object body named like Object.prototype members (its own keys, as JSON.parse made them). */
function prototypeKeys(body: unknown): string[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return [];
  return Object.keys(body).filter((key) => PROTOTYPE_KEYS.has(key));
}

/**
 * Zod issues → `{ field: [messages] }`; unknown keys are reported under their own names. A null-prototype
 * map, so a field named `constructor` or `__proto__` is just a field (DESIGN §11).
 */
export function zodFields(error: z.ZodError): Record<string, string[]> {
  const fields: Record<string, string[]> = Object.create(null);
  const add = (key: string, message: string) => {
    if (!Object.hasOwn(fields, key)) fields[key] = [];
    fields[key]?.push(message);
  };
  const collect = (issues: readonly z.core.$ZodIssue[], prefix: PropertyKey[]) => {
    for (const issue of issues) {
      const path = [...prefix, ...issue.path];
      const branches = issue.code === 'invalid_union' ? unionBranchesOfType(issue.errors) : [];
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) add([...path, key].join('.'), 'Unknown field');
      } else if (branches.length === 1) {
        collect(branches[0] as z.core.$ZodIssue[], path); // e.g. `undefined | { confirm }` sent an object
      } else {
        add(path.length ? path.join('.') : '_', issue.message);
      }
    }
  };
  collect(error.issues, []);
  return { ...fields };
}

/**
 * The branches of a failed union whose type the input had (their issues are not a type mismatch of the value
 * itself), so that `undefined | { confirm }` given `{ constructor: 1 }` reports `constructor` as unknown.
 */
const unionBranchesOfType = (branches: readonly (readonly z.core.$ZodIssue[])[]) =>
  branches.filter((issues) => !issues.some((i) => i.code === 'invalid_type' && i.path.length === 0));

function parse<T>(schema: z.ZodType<T>, value: unknown, where: string): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new DomainError('validation_error', `The ${where} is not valid`, { fields: zodFields(result.error) });
  return result.data;
}

export const validateInput = (schemas: {
  body?: z.ZodType;
  query?: z.ZodType;
}): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, AppContext> => ({
  before: async ({ event, context }) => {
    const refused = prototypeKeys(event.body);
    if (refused.length) {
      const fields = Object.fromEntries(refused.map((key) => [key, ['Unknown field']]));
      throw new DomainError('validation_error', 'The request body is not valid', { fields });
    }
    context.body = parse(schemas.body ?? emptyBody, event.body, 'request body');
    context.query = schemas.query ? parse(schemas.query, event.queryStringParameters ?? {}, 'query') : (event.queryStringParameters ?? {});
  },
});
