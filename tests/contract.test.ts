/**
 * Contract: the route manifest, the handler modules and the local runtime agree. Every route of
 * `infra/routes.ts` has an implementation in its endpoint group's module, every group has a module that
 * exports a handler, and the local runtime routes each manifest entry to its group. (That every route is
 * deployed is asserted by the stack tests in stacks/test/.) The staff panel's own copy of the admin API's contract
 * (packages/admin/src/contract.ts: permissions, choices, each resource's list filters and actions) matches the
 * service, so no screen offers an action, a filter or a permission the API does not have, nor misses one it has.
 * The staff docs (docs/admin-api.md "Permissions", docs/admin.md's permission table) name exactly the server's
 * permissions, each in its kind (grantable or superuser-only).
 */

import { readFileSync } from 'node:fs';
import { STAFF_PERMISSIONS, SUPERUSER_PERMISSIONS } from '@mathisland/core/admin';
import { MarketplaceProductType, ORDER_STATUSES, PaymentEventKind } from '@mathisland/core/subscriptions';
import { describe, expect, it } from 'vitest';
import { endpointGroups, isStreamedGroup, routeKey, routes, streamedGroups, throttleScopes } from '../infra/routes';
import * as panel from '../packages/admin/src/contract';
import { apiDocument } from '../packages/local/src/apiDocs';
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

describe('the staff panel’s contract ↔ the admin API', () => {
  type Verb = 'view' | 'add' | 'change' | 'delete';
  /** The permission verb a route of a resource at `base` stands for (reads view; a POST under an item changes it). */
  const verbOf = (method: string, path: string, base: string): Verb | undefined => {
    const item = path !== base;
    if (method === 'GET') return 'view';
    if (method === 'POST') return item ? 'change' : 'add';
    if (method === 'PATCH' && item) return 'change';
    if (method === 'DELETE' && item) return 'delete';
    return undefined;
  };

  it('knows the same permissions, order statuses, payment event kinds and product types as the service', () => {
    expect([...panel.ALL_PERMISSIONS]).toEqual([...STAFF_PERMISSIONS]);
    expect([...panel.SUPERUSER_PERMISSIONS]).toEqual([...SUPERUSER_PERMISSIONS]);
    expect([...panel.ORDER_STATUSES].sort()).toEqual([...ORDER_STATUSES].sort());
    expect([...panel.PAYMENT_EVENT_KINDS]).toEqual(PaymentEventKind.options);
    expect([...panel.MARKETPLACE_PRODUCT_TYPES].sort()).toEqual([...MarketplaceProductType.options].sort());
  });

  it('offers on each resource exactly the actions the API has routes for, and sends only the list filters it reads', async () => {
    const paths = (await apiDocument()).paths as Record<string, Record<string, { parameters?: { in: string; name: string }[] }>>;
    for (const [name, contract] of Object.entries(panel.RESOURCES) as [string, panel.ResourceContract][]) {
      const base = `/api/admin/${contract.path}`;
      const own = routes.filter(
        (r) => r.path === base || (r.path.startsWith(`${base}/{`) && !r.path.slice(base.length + 1).includes('/{')),
      );
      const verbs = new Set(own.map((r) => verbOf(r.method, r.path, base)));
      expect([...verbs].sort(), name).toEqual([...contract.verbs].sort());
      const listQuery = paths[base]?.get?.parameters?.filter((p) => p.in === 'query').map((p) => p.name) ?? [];
      expect(listQuery.filter((q) => q !== 'cursor' && q !== 'limit').sort(), `filters of ${name}`).toEqual([...contract.filters].sort());
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
