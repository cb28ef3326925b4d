import { DomainError, logger } from '@mathisland/core';
import { describe, expect, it, vi } from 'vitest';
import { runPhase, testRequest } from '../testing';
import { errorBody } from './errorBody';

describe('errorBody', () => {
  it('turns a DomainError into its JSON error with the status of its code, Retry-After and fields kept', async () => {
    const request = testRequest();
    request.error = new DomainError('throttled', 'Too many requests', { retryAfter: 7, fields: { phone: ['slow down'] } });
    await runPhase(errorBody(), request, 'onError');
    expect(request.response?.statusCode).toBe(429);
    expect(request.response?.headers?.['retry-after']).toBe('7');
    expect(JSON.parse(request.response?.body as string)).toEqual({
      code: 'throttled',
      detail: 'Too many requests',
      fields: { phone: ['slow down'] },
    });
  });

  it('answers anything else with 500 server_error and no detail of the failure, which goes to the log', async () => {
    const logged = vi.spyOn(logger, 'error').mockImplementation(() => {});
    const request = testRequest();
    request.error = new Error('secret table name in a stack trace');
    await runPhase(errorBody(), request, 'onError');
    expect(request.response?.statusCode).toBe(500);
    expect(request.response?.body).not.toContain('secret');
    expect(JSON.parse(request.response?.body as string).code).toBe('server_error');
    expect(logged).toHaveBeenCalledWith('unhandled error', request.error);
    logged.mockRestore();
  });

  it('leaves a successful request alone', async () => {
    const request = await runPhase(errorBody(), testRequest(), 'before');
    expect(request.response).toBeNull();
  });
});
