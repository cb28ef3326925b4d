import { logger } from '@mathisland/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runPhase, testRequest } from '../testing';
import { requestLog } from './requestLog';

afterEach(() => vi.restoreAllMocks());

const logged = () => vi.spyOn(logger, 'info').mockImplementation(() => {});

describe('requestLog', () => {
  it('writes one line per request: method, path, final status, duration, userId', async () => {
    const info = logged();
    const middleware = requestLog();
    const request = testRequest({
      method: 'POST',
      path: '/api/questions/1/answer',
      body: '{"answer":"secret"}',
      headers: { authorization: 'Bearer token' },
    });
    await runPhase(middleware, request, 'before');
    request.context.user = { id: 42 } as never;
    request.response = { statusCode: 201, body: '{}' };
    await runPhase(middleware, request, 'after');
    expect(info).toHaveBeenCalledTimes(1);
    const [message, fields] = info.mock.calls[0] as [string, Record<string, unknown>];
    expect(message).toBe('request');
    expect(fields).toMatchObject({ method: 'POST', path: '/api/questions/1/answer', status: 201, userId: 42 });
    expect(fields.durationMs).toBeGreaterThanOrEqual(0);
    expect(Object.keys(fields).sort()).toEqual(['durationMs', 'method', 'path', 'status', 'userId']);
    expect(JSON.stringify(fields)).not.toMatch(/secret|token/);
  });

  it('names the staff member on admin routes, and logs a failure without a response as 500', async () => {
    const info = logged();
    const middleware = requestLog();
    const request = testRequest({ path: '/api/admin/orders', context: { staff: { username: 'support1' } as never } });
    await runPhase(middleware, request, 'before');
    await runPhase(middleware, request, 'onError');
    expect(info.mock.calls[0]?.[1]).toMatchObject({ status: 500, userId: null, staffId: 'support1' });
  });
});
