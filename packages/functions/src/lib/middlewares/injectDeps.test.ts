import { fakeDeps } from '@mathisland/core/testing';
import { describe, expect, it } from 'vitest';
import { runPhase, testRequest } from '../testing';
import { depsOf, injectDeps } from './injectDeps';

describe('injectDeps', () => {
  it('puts the caller’s dependencies on the context, asking for them on every request', async () => {
    const deps = fakeDeps();
    let asked = 0;
    const middleware = injectDeps(async () => {
      asked++;
      return deps;
    });
    const first = await runPhase(middleware, testRequest({ deps: null }));
    const second = await runPhase(middleware, testRequest({ deps: null }));
    expect(depsOf(first.context)).toBe(deps);
    expect(depsOf(second.context)).toBe(deps);
    expect(asked).toBe(2);
  });

  it('depsOf refuses a context it never ran on (a pipeline wiring bug)', () => {
    expect(() => depsOf(testRequest({ deps: null }).context)).toThrow('injectDeps must run before this middleware');
  });
});
