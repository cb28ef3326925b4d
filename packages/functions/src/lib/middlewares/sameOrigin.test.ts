import { describe, expect, it } from 'vitest';
import { runPhase, testRequest } from '../testing';
import { originOf, sameOrigin } from './sameOrigin';

const OWN = 'https://learn.example.com';
const run = (method: string, origin: string | undefined, env: Record<string, string> = { PUBLIC_BASE_URL: OWN }) =>
  runPhase(sameOrigin(), testRequest({ method, env, headers: origin === undefined ? {} : { Origin: origin } }));

describe('sameOrigin', () => {
  it('lets unsafe methods from the service’s own origin through, and those without Origin (no browser)', async () => {
    await expect(run('POST', OWN)).resolves.toBeDefined();
    await expect(run('DELETE', undefined)).resolves.toBeDefined();
  });

  it.each(['POST', 'PATCH', 'PUT', 'DELETE'])('refuses %s from another origin or Origin: null with 403', async (method) => {
    await expect(run(method, 'https://evil.example')).rejects.toMatchObject({ code: 'permission_denied' });
    await expect(run(method, 'null')).rejects.toMatchObject({ code: 'permission_denied' });
    await expect(run(method, 'http://learn.example.com')).rejects.toMatchObject({ code: 'permission_denied' });
  });

  it('does not look at safe methods', async () => {
    await expect(run('GET', 'https://evil.example')).resolves.toBeDefined();
  });

  it('refuses every Origin when PUBLIC_BASE_URL is unset (fail closed)', async () => {
    await expect(run('POST', OWN, {})).rejects.toMatchObject({ code: 'permission_denied' });
  });

  it('originOf takes scheme, host and port', () => {
    expect(originOf('https://learn.example.com:8443/api/x?y')).toBe('https://learn.example.com:8443');
    expect(originOf('not a url')).toBeUndefined();
  });
});
