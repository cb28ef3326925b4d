/**
 * One JSON log line per request (DESIGN §7; spec Events): method, path, status, durationMs, userId, and on
 * admin routes staffId (the staff member's username; DESIGN §9: every admin write names its staff member).
 * Never the body, a header, a code or a token. Must be the outermost middleware so it sees the final status.
 */
import { logger } from '@mathisland/core';
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { AppContext } from '../types';

type Request = middy.Request<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, AppContext>;

export const requestLog = (): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, AppContext> => {
  const started = new WeakMap<object, number>();
  const write = async (request: Request) => {
    const t0 = started.get(request) ?? performance.now();
    logger.info('request', {
      method: request.event.requestContext?.http?.method,
      path: request.event.rawPath,
      status: request.response?.statusCode ?? 500,
      durationMs: Math.round((performance.now() - t0) * 10) / 10,
      userId: request.context.user?.id ?? null,
      ...(request.context.staff ? { staffId: request.context.staff.username } : {}),
    });
  };
  return {
    before: async (request) => {
      started.set(request, performance.now());
    },
    after: write,
    onError: write,
  };
};
