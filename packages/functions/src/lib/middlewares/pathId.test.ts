import { describe, expect, it } from 'vitest';
import { runPhase, testRequest } from '../testing';
import { parseId, pathId } from './pathId';

describe('pathId', () => {
  it('puts an ASCII decimal id on the context', async () => {
    const request = await runPhase(pathId(), testRequest({ pathParameters: { id: '4001' } }));
    expect(request.context.pathId).toBe(4001);
    expect(parseId('000000000000042')).toBe(42);
  });

  it.each([['۱۲'], ['12a'], ['-1'], ['1.5'], [''], ['1234567890123456'], [' 1']])('refuses %j with 400 invalid_id', (id) => {
    expect(() => parseId(id)).toThrow(expect.objectContaining({ code: 'invalid_id' }));
  });

  it('refuses a route without the parameter', async () => {
    await expect(runPhase(pathId(), testRequest())).rejects.toMatchObject({ code: 'invalid_id' });
  });
});
