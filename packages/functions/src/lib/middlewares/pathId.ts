/**
 * The `{id}` path parameter of routes that have one: ASCII decimal, up to 15 digits (spec Curriculum: ids
 * with non-ASCII digits are rejected); anything else, Persian `۱۲` included, is 400 `invalid_id`.
 */
import { DomainError } from '@mathisland/core';
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { AppContext } from '../types';

/** `raw` as an id. Errors: `invalid_id`. */
export function parseId(raw: string | undefined): number {
  if (raw === undefined || !/^[0-9]{1,15}$/.test(raw)) {
    throw new DomainError('invalid_id', 'Ids are ASCII decimal numbers');
  }
  return Number(raw);
}

export const pathId = (): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, AppContext> => ({
  before: async (request) => {
    request.context.pathId = parseId(request.event.pathParameters?.id);
  },
});
