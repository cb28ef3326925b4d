/**
 * Every log line of an invocation carries the Lambda context and the request's correlation id (issue 30 §4): the
 * Powertools Logger's `addContext` adds `function_name`, `function_memory_size`, `function_arn`,
 * `function_request_id` and `cold_start` (what its `injectLambdaContext` middleware does, without resetting the log
 * level a test or the bench set at run time, which that middleware does for log sampling, unused here); `correlation_id` is the request's id, which also goes back to the client
 * as `X-Request-Id` (docs/api.md), so one request's lines (the request line, audit lines, security events, the
 * tutor's lines written while its answer streams) are found together, and a learner's or a staff member's report of
 * a failure leads to them. With active tracing Lambda also sets the X-Ray trace id, which Powertools adds as
 * `xray_trace_id`.
 *
 * The id: API Gateway's request id (`requestContext.requestId`; the function URL's for the tutor, the local
 * runtime's own), else an EventBridge event's `id` (a scheduled job), else the Lambda request id. Both keys are
 * replaced at the start of the next invocation and never reset at the end: a streamed answer goes on after the
 * handler returned and its lines must keep the id (a Lambda worker runs one invocation at a time; the local runtime
 * serves concurrent requests in one process, where a line may carry a concurrent request's id).
 *
 * Must be the outermost middleware: the request line and the response header come after it.
 */
import { logger } from '@mathisland/core';
import type middy from '@middy/core';
import type { Context } from 'aws-lambda';

/** What an event may carry to correlate by: an API Gateway / function URL request id, or an EventBridge event id. */
interface CorrelatedEvent {
  requestContext?: { requestId?: string };
  id?: string;
}

/** The correlation id of an invocation of `event` (see the module doc), or undefined when there is none. */
export const correlationIdOf = (event: unknown, context: Partial<Context> | undefined): string | undefined => {
  const e = (typeof event === 'object' && event !== null ? event : {}) as CorrelatedEvent;
  return e.requestContext?.requestId ?? (typeof e.id === 'string' ? e.id : undefined) ?? context?.awsRequestId;
};

type Response = { headers?: Record<string, unknown> } | undefined | null;

export const logContext = <E, R, C extends Context = Context>(
  options: { responseHeader?: boolean } = {},
): middy.MiddlewareObj<E, R, Error, C> => {
  const answerId = async (request: middy.Request<E, R, Error, C>) => {
    const id = correlationIdOf(request.event, request.context);
    const response = request.response as Response;
    if (id && response && typeof response === 'object') response.headers = { ...response.headers, 'x-request-id': id };
  };
  return {
    before: async (request) => {
      // A job called by hand (a script, a test) has no Lambda context.
      if (request.context?.awsRequestId) logger.addContext(request.context);
      const id = correlationIdOf(request.event, request.context);
      if (id) logger.setCorrelationId(id);
      else logger.removeKeys(['correlation_id']);
    },
    ...(options.responseHeader ? { after: answerId, onError: answerId } : {}),
  };
};
