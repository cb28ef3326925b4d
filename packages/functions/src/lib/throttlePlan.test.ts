import { describe, expect, it } from 'vitest';
import { routes } from '../../../../infra/routes';
import { throttlePlan } from './throttlePlan';

const spec = (auth: 'none' | 'user' | 'admin', throttle?: 'answer' | 'login' | 'home') =>
  ({ method: 'POST', path: '/api/x', auth, ...(throttle ? { throttle } : {}) }) as const;

describe('throttlePlan: one place per route', () => {
  it('counts a flagged route in its transaction, whatever its scope counts by', () => {
    expect(throttlePlan(spec('user', 'answer'), { throttleInTransaction: true })).toEqual({ at: 'transaction', scope: 'answer' });
    expect(throttlePlan(spec('none', 'login'), { throttleInTransaction: true })).toEqual({ at: 'transaction', scope: 'login' });
  });

  it("counts a learner's per-learner scope on the user item, anything else in the middleware", () => {
    expect(throttlePlan(spec('user', 'home'), {})).toEqual({ at: 'user item', scope: 'home' });
    expect(throttlePlan(spec('user', 'login'), {})).toEqual({ at: 'middleware', scope: 'login' });
    expect(throttlePlan(spec('admin', 'home'), {})).toEqual({ at: 'middleware', scope: 'home' });
    expect(throttlePlan(spec('none'), {})).toEqual({ at: 'nowhere' });
  });

  it('refuses a flag on a route without a scope (its use case would count nothing)', () => {
    expect(() => throttlePlan(spec('user'), { throttleInTransaction: true })).toThrow('has no throttle scope');
  });

  it('gives every throttled route of the manifest a place', () => {
    for (const r of routes) expect(throttlePlan(r, {}).at === 'nowhere', `${r.method} ${r.path}`).toBe(!r.throttle);
  });
});
