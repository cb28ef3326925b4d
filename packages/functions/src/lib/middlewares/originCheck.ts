/**
 * The edge check (DESIGN §12), before any route runs: a request must carry the secret origin header
 * `x-origin-verify` with one of the values the settings accept (ORIGIN_VERIFY_SECRET, or ORIGIN_VERIFY_PREVIOUS
 * during a rotation; compared in constant time); otherwise it reached the function around CloudFront (the
 * execute-api or lambda-url host) and is 403 `forbidden_origin`. With no value configured every request is refused
 * (fail closed). Only then is `CloudFront-Viewer-Address` trusted: it becomes `context.viewer`, the address every
 * per-IP throttle counts and the route input's `clientIp`. A request through the edge whose viewer address is
 * missing or malformed (a misconfigured origin request policy) counts as `unknown`, never as the edge's own address.
 */
import { DomainError } from '@mathisland/core';
import { safeEqualAny } from '@mathisland/core/auth';
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER } from '../../../../../infra/edge';
import { header } from '../http';
import type { AppContext } from '../types';
import { viewerOf } from '../viewer';
import { depsOf } from './injectDeps';

/** 403 `forbidden_origin`: the request did not come through the stage's public address. */
export const forbiddenOrigin = (): DomainError =>
  new DomainError('forbidden_origin', 'Requests reach this service only through its public address');

/** Whether `event` carries an origin header the settings accept. */
export function fromTheEdge(event: APIGatewayProxyEventV2, accepted: readonly string[]): boolean {
  const given = header(event, ORIGIN_VERIFY_HEADER);
  // Every accepted value is compared, so the time taken says nothing about which one (or how much) matched.
  return given !== undefined && safeEqualAny(given, accepted);
}

export const originCheck = (): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, AppContext> => ({
  before: async ({ event, context }) => {
    if (!fromTheEdge(event, depsOf(context).settings.originVerify)) throw forbiddenOrigin();
    context.viewer = viewerOf(header(event, VIEWER_ADDRESS_HEADER));
  },
});
