/**
 * Contract: the route manifest, the handler modules and the local runtime agree. Every route of
 * `infra/routes.ts` has an implementation in its endpoint group's module, every group has a module that
 * exports a handler, and the local runtime routes each manifest entry to its group. (That every route is
 * deployed is asserted by the stack tests in stacks/test/.) The staff panel keeps no copy of the admin API: its
 * types, permissions, choices and list filters are generated from the API description when it is built
 * (packages/admin/scripts/generate.ts). The staff docs (docs/admin-api.md "Permissions", docs/admin.md's permission table) name exactly the server's
 * permissions, each in its kind (grantable or superuser-only).
 */

import { readFileSync } from 'node:fs';
import { STAFF_PERMISSIONS, SUPERUSER_PERMISSIONS } from '@mathisland/core/admin';
import { describe, expect, it } from 'vitest';
import { endpointGroups, isStreamedGroup, routeKey, routes, streamedGroups, throttleScopes } from '../infra/routes';
import { apiDocument, loadRouteDefinitions } from '../packages/local/src/apiDocs';
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
    expect([...streamedGroups].sort()).toEqual(['adminexport', 'tutor']);
    // The tutor's answer and the staff's CSV exports (issue 25).
    expect(
      routes
        .filter((r) => r.stream)
        .map(routeKey)
        .every((k) => k === 'POST /api/ai/ask' || /^GET \/api\/admin\/[a-z/-]+\/export\.csv$/.test(k)),
    ).toBe(true);
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

describe('the staff panel ↔ the API description', () => {
  it("names each admin route's permission as x-permission, which the panel's build reads for its access control", async () => {
    const definitions = Object.assign({}, ...Object.values(await loadRouteDefinitions())) as Record<string, { permission?: string }>;
    const paths = (await apiDocument()).paths as Record<string, Record<string, { 'x-permission'?: string }>>;
    const admin = routes.filter((r) => r.auth === 'admin');
    expect(admin.length).toBeGreaterThan(40);
    for (const r of admin) {
      expect(paths[r.path]?.[r.method.toLowerCase()]?.['x-permission'], routeKey(r)).toBe(definitions[routeKey(r)]?.permission);
    }
  });
});

describe('permissions ↔ the staff docs', () => {
  const permissionNames = (text: string) => [...text.matchAll(/`((?:view|add|change|delete)_[a-z]+)`/g)].map((m) => m[1] as string);
  const section = (doc: string, heading: string) => {
    const start = doc.indexOf(`\n## ${heading}\n`);
    expect(start, heading).toBeGreaterThanOrEqual(0);
    const end = doc.indexOf('\n## ', start + 1);
    return doc.slice(start, end < 0 ? undefined : end);
  };

  it('docs/admin-api.md lists every grantable and every superuser-only permission of the server, and no other', () => {
    const text = section(readFileSync('docs/admin-api.md', 'utf8'), 'Permissions');
    const grantable = /Grantable[^:]*:([\s\S]*?)Superuser-only/.exec(text)?.[1] ?? '';
    const superuserOnly = /Superuser-only[^:]*:([\s\S]*?)Granting any other/.exec(text)?.[1] ?? '';
    expect(permissionNames(grantable).sort()).toEqual([...STAFF_PERMISSIONS].sort());
    expect(permissionNames(superuserOnly).sort()).toEqual([...SUPERUSER_PERMISSIONS].sort());
    // Every model a permission names is among the models the section lists.
    const models = new Set([...STAFF_PERMISSIONS, ...SUPERUSER_PERMISSIONS].map((p) => p.slice(p.indexOf('_') + 1)));
    const modelsSentence = /Models:([\s\S]*?)\n\n/.exec(text)?.[1] ?? '';
    for (const model of models) expect(modelsSentence, model).toContain(`\`${model}\``);
  });

  it('docs/admin.md explains every grantable permission', () => {
    const text = section(readFileSync('docs/admin.md', 'utf8'), 'Permissions');
    const table = text.split('\n').filter((line) => line.startsWith('| `'));
    expect(permissionNames(table.join('\n')).sort()).toEqual([...STAFF_PERMISSIONS].sort());
  });
});
