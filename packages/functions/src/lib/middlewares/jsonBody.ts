/**
 * JSON request bodies: refuses bodies over `maxBytes` with 413 `body_too_large`, leaves an empty body as
 * `undefined`, and otherwise parses the body as JSON whatever the content type; malformed JSON is 400
 * `invalid_json`.
 *
 * Any JSON key is just data (DESIGN §11): `{"__proto__": …}`, `constructor`, `toString` reach the route's zod
 * schema as ordinary keys, which refuses them as unknown fields (400 `validation_error`). Prototype safety comes
 * from the parse itself: `JSON.parse` defines every key as an own data property (it never calls the `__proto__`
 * setter), and {@link parseJsonBody} rebuilds every object with a null prototype, so no parsed value inherits
 * from (or can reach) `Object.prototype`, whatever code later copies it.
 */
import { DomainError } from '@mathisland/core';
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

/** Rebuilds a parsed JSON object with a null prototype; own `__proto__` keys stay own data properties. */
const nullPrototype = (_key: string, value: unknown): unknown => {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const copy: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(value)) {
    Object.defineProperty(copy, key, {
      value: (value as Record<string, unknown>)[key],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy;
};

/**
 * Parses a request body as JSON into values whose objects have a null prototype (see the module doc).
 * Errors: 400 `invalid_json` when `text` is not JSON.
 */
export function parseJsonBody(text: string): unknown {
  try {
    return JSON.parse(text, nullPrototype);
  } catch {
    throw new DomainError('invalid_json', 'The request body is not valid JSON');
  }
}

export const jsonBody = (options: { maxBytes?: number } = {}): middy.MiddlewareObj<APIGatewayProxyEventV2> => {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BODY_BYTES;
  return {
    before: async (request) => {
      const { body, isBase64Encoded } = request.event;
      const event = request.event as { body?: unknown };
      if (body === undefined || body === null || body === '') {
        event.body = undefined;
        return;
      }
      const bytes = isBase64Encoded ? Math.floor((body.length * 3) / 4) : Buffer.byteLength(body);
      if (bytes > maxBytes) {
        throw new DomainError('body_too_large', `The request body is larger than ${maxBytes} bytes`);
      }
      event.body = parseJsonBody(isBase64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body);
    },
  };
};
