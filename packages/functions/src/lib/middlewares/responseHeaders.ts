/**
 * Headers every `/api/` response carries, errors included (spec "What the service does" 9; DESIGN §3):
 * `Cache-Control: private, no-store`, a JSON content type unless the route set another, `nosniff`.
 */
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

type Request = middy.Request<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>;

export const responseHeaders = (): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2> => {
  const apply = async (request: Request) => {
    const response = request.response;
    if (!response) return;
    const headers = Object.fromEntries(Object.entries(response.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
    headers['cache-control'] = 'private, no-store';
    headers['x-content-type-options'] = 'nosniff';
    if (!headers['content-type'] && response.body !== undefined && response.body !== '') {
      headers['content-type'] = 'application/json; charset=utf-8';
    }
    response.headers = headers;
  };
  return { after: apply, onError: apply };
};
