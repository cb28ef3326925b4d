/**
 * JSON request bodies: refuses bodies over `maxBytes` with 413 `body_too_large`, leaves an empty body as
 * `undefined`, and otherwise parses with `@middy/http-json-body-parser` (prototype-pollution safe) whatever
 * the content type; malformed JSON becomes 400 `invalid_json` (mapped in `../errors.ts`).
 */
import { DomainError } from '@mathisland/core';
import type middy from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

export const jsonBody = (options: { maxBytes?: number } = {}): middy.MiddlewareObj<APIGatewayProxyEventV2> => {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BODY_BYTES;
  const parser = httpJsonBodyParser({ disableContentTypeCheck: true });
  return {
    before: async (request) => {
      const { body, isBase64Encoded } = request.event;
      if (body === undefined || body === null || body === '') {
        (request.event as { body?: unknown }).body = undefined;
        return;
      }
      const bytes = isBase64Encoded ? Math.floor((body.length * 3) / 4) : Buffer.byteLength(body);
      if (bytes > maxBytes) {
        throw new DomainError('body_too_large', `The request body is larger than ${maxBytes} bytes`);
      }
      await parser.before?.(request as never);
    },
  };
};
