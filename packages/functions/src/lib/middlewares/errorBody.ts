/** Turns any thrown error into the service's JSON error response (see `../errors.ts`). */
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { toErrorResponse } from '../errors';

export const errorBody = (): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2> => ({
  onError: async (request) => {
    request.response = toErrorResponse(request.error);
  },
});
