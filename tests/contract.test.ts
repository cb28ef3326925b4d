/**
 * Contract: the route manifest, the handler modules and the local runtime agree. Every route of
 * `infra/routes.ts` has an implementation in its endpoint group's module, every group has a module that
 * exports a handler, and the local runtime routes each manifest entry to its group. (That every route is
 * deployed is asserted by the stack tests in stacks/test/.)
 */
import { describe, expect, it } from 'vitest';
import { endpointGroups, isStreamedGroup, routeKey, routes, streamedGroups, throttleScopes } from '../infra/routes';
import { isStreamingHandler } from '../packages/local/src/awslambda';
import { matchRoute } from '../packages/local/src/server';

describe('route manifest ↔ handlers', () => {
  it('has an implementation for every route, in the group the manifest names', async () => {
    for (const group of endpointGroups) {
      const mod = await import(`../packages/functions/src/groups/${group}.ts`);
      expect(typeof mod.handler, `${group}.handler`).toBe('function');
      const expected = routes
        .filter((r) => r.group === group)
        .map(routeKey)
        .sort();
      expect(Object.keys(mod.routes).sort(), `routes of ${group}`).toEqual(expected);
    }
  });

  it('has unique route keys, /api/ paths without a version segment, and known throttle scopes', () => {
    const keys = routes.map(routeKey);
    expect(new Set(keys).size).toBe(keys.length);
    for (const r of routes) {
      expect(r.path).toMatch(/^\/api\//);
      expect(r.path).not.toMatch(/\/v\d+\//);
    }
  });

  it('gives every throttled route its own throttle scope (spec Limits), and uses every scope', () => {
    const scoped = routes.filter((r) => r.throttle !== undefined);
    const byScope = new Map<string, string[]>();
    for (const r of scoped) byScope.set(r.throttle as string, [...(byScope.get(r.throttle as string) ?? []), routeKey(r)]);
    // A second scope counted by the body's username (the admin login) is the route's own too.
    for (const r of routes.filter((r) => r.usernameThrottle)) {
      byScope.set(r.usernameThrottle as string, [...(byScope.get(r.usernameThrottle as string) ?? []), routeKey(r)]);
    }
    const shared = [...byScope].filter(([, list]) => list.length > 1);
    expect(shared).toEqual([]);
    expect(Object.keys(throttleScopes).sort()).toEqual([...byScope.keys()].sort());
  });

  it('routes every manifest entry to its group in the local runtime', () => {
    for (const r of routes) {
      const path = r.path.replace(/\{[^}]+\}/g, '123');
      expect(matchRoute(r.method, path)?.routeKey).toBe(routeKey(r));
      expect(matchRoute(r.method, path)?.group).toBe(r.group);
    }
  });

  it('streams exactly the routes marked stream: true, whose groups hold only streamed routes and export streaming handlers', async () => {
    expect(streamedGroups).toEqual(['tutor']);
    expect(routes.filter((r) => r.stream).map(routeKey)).toEqual(['POST /api/ai/ask']);
    for (const group of endpointGroups) {
      const groupRoutes = routes.filter((r) => r.group === group);
      if (isStreamedGroup(group))
        expect(
          groupRoutes.every((r) => r.stream),
          group,
        ).toBe(true);
      const mod = await import(`../packages/functions/src/groups/${group}.ts`);
      expect(isStreamingHandler(mod.handler), `${group} handler is wrapped with awslambda.streamifyResponse`).toBe(isStreamedGroup(group));
    }
  });
});
