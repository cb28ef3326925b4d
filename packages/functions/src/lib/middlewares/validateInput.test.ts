import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { runPhase, testRequest } from '../testing';
import { validateInput, zodFields } from './validateInput';

const withBody = (body: unknown, query?: Record<string, string>) => {
  const request = testRequest({ ...(query ? { query } : {}) });
  (request.event as { body?: unknown }).body = body; // as jsonBody leaves it
  return request;
};

describe('validateInput', () => {
  const schemas = { body: z.strictObject({ phone: z.string().length(11) }), query: z.strictObject({ page: z.coerce.number().optional() }) };

  it('puts the parsed body and query on the context', async () => {
    const request = await runPhase(validateInput(schemas), withBody({ phone: '09121234567' }, { page: '2' }));
    expect(request.context.body).toEqual({ phone: '09121234567' });
    expect(request.context.query).toEqual({ page: 2 });
  });

  it('refuses a bad field and an unknown one with 400 validation_error naming each', async () => {
    const failed = runPhase(validateInput(schemas), withBody({ phone: '0912', extra: 1 }));
    await expect(failed).rejects.toMatchObject({ code: 'validation_error' });
    const error = await failed.catch((e) => e);
    expect(Object.keys(error.extra.fields).sort()).toEqual(['extra', 'phone']);
    expect(error.extra.fields.extra).toEqual(['Unknown field']);
  });

  it('refuses a bad query under its field', async () => {
    const error = await runPhase(validateInput(schemas), withBody({ phone: '09121234567' }, { page: 'x', other: '1' })).catch((e) => e);
    expect(error.code).toBe('validation_error');
    expect(Object.keys(error.extra.fields).sort()).toEqual(['other', 'page']);
  });

  it('without a body schema accepts only no body or {}', async () => {
    await expect(runPhase(validateInput({}), withBody(undefined))).resolves.toBeDefined();
    await expect(runPhase(validateInput({}), withBody({}))).resolves.toBeDefined();
    await expect(runPhase(validateInput({}), withBody({ a: 1 }))).rejects.toMatchObject({ code: 'validation_error' });
  });

  it('reports a field named __proto__ or constructor as an ordinary unknown field', () => {
    const result = z.strictObject({}).safeParse(JSON.parse('{"__proto__":1,"constructor":2}'));
    expect(result.success).toBe(false);
    const fields = zodFields((result as { error: z.ZodError }).error);
    expect(fields).toEqual({ ['__proto__']: ['Unknown field'], constructor: ['Unknown field'] });
  });
});
