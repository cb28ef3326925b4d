import { logger } from '@mathisland/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runPhase, testRequest } from '../testing';
import { correlationIdOf, logContext } from './logContext';

afterEach(() => {
  vi.restoreAllMocks();
  logger.removeKeys(['correlation_id']);
});

const lambdaContext = { awsRequestId: 'lambda-req-1', functionName: 'mathisland-test-learning', memoryLimitInMB: '512' };

describe('logContext', () => {
  it('takes the correlation id from API Gateway, else an EventBridge event, else the Lambda request', () => {
    expect(correlationIdOf({ requestContext: { requestId: 'apigw-1' }, id: 'ev-1' }, lambdaContext)).toBe('apigw-1');
    expect(correlationIdOf({ id: 'ev-1' }, lambdaContext)).toBe('ev-1');
    expect(correlationIdOf({}, lambdaContext)).toBe('lambda-req-1');
    expect(correlationIdOf(null, undefined)).toBeUndefined();
  });

  it('adds the Lambda context and the request id to the log lines, and the id to the answer', async () => {
    const addContext = vi.spyOn(logger, 'addContext');
    const setCorrelationId = vi.spyOn(logger, 'setCorrelationId');
    const middleware = logContext({ responseHeader: true });
    const request = testRequest({ context: lambdaContext as never });
    (request.event.requestContext as { requestId?: string }).requestId = 'apigw-7';
    await runPhase(middleware, request, 'before');
    expect(addContext).toHaveBeenCalledWith(expect.objectContaining({ awsRequestId: 'lambda-req-1' }));
    expect(setCorrelationId).toHaveBeenCalledWith('apigw-7');
    request.response = { statusCode: 200, headers: { 'content-type': 'application/json' }, body: '{}' };
    await runPhase(middleware, request, 'after');
    expect(request.response.headers).toEqual({ 'content-type': 'application/json', 'x-request-id': 'apigw-7' });
  });

  it('answers the id on an error response too, and leaves the header off unless asked', async () => {
    const failing = testRequest();
    (failing.event.requestContext as { requestId?: string }).requestId = 'apigw-8';
    await runPhase(logContext({ responseHeader: true }), failing, 'before');
    failing.response = { statusCode: 500, body: '{}' };
    await runPhase(logContext({ responseHeader: true }), failing, 'onError');
    expect(failing.response.headers).toEqual({ 'x-request-id': 'apigw-8' });

    const plain = testRequest();
    plain.response = { statusCode: 200, body: '{}' };
    await runPhase(logContext(), plain, 'after');
    expect(plain.response.headers).toBeUndefined();
  });

  it('drops the previous invocation’s id when the next has none, and adds no Lambda context to a job run by hand', async () => {
    const addContext = vi.spyOn(logger, 'addContext');
    logger.setCorrelationId('earlier');
    const removeKeys = vi.spyOn(logger, 'removeKeys');
    await runPhase(logContext() as never, { event: {}, context: {}, response: null, error: null, internal: {} } as never, 'before');
    expect(removeKeys).toHaveBeenCalledWith(['correlation_id']);
    expect(addContext).not.toHaveBeenCalled();
  });
});
