/**
 * The panel's providers against a stubbed `fetch`: cursor pages for react-admin's page numbers, only the
 * contract's filters sent, changed fields only in a PATCH, API errors as form field errors, and the permission
 * model of `canAccess`.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { messagesOf } from '../i18n';

const fa = messagesOf('fa') as any;
const en = messagesOf('en') as any;

import { can, permissionsOf } from './authProvider';
import { asciiDigits, changedFields, createDataProvider, exportUrl, filterParams, MAX_FOLLOW, sortParams } from './dataProvider';
import { toHttpError } from './http';

interface Call {
  url: URL;
  method: string;
  body: unknown;
}

/** Stubs fetch with `answer(call)` → [status, json]; returns the calls made. */
function stubFetch(answer: (call: Call) => [number, unknown]): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const call = {
      url: new URL(url, 'http://panel.test'),
      method: init.method ?? 'GET',
      body: init.body ? JSON.parse(String(init.body)) : undefined,
    };
    calls.push(call);
    const [status, json] = answer(call);
    return new Response(json === undefined ? null : JSON.stringify(json), { status });
  });
  return calls;
}

afterEach(() => vi.unstubAllGlobals());

describe('lists', () => {
  /** Orders 1..n newest first, pages of `limit` with cursors `c<offset>`. */
  const pages =
    (n: number) =>
    (call: Call): [number, unknown] => {
      const limit = Number(call.url.searchParams.get('limit'));
      const offset = Number(call.url.searchParams.get('cursor')?.slice(1) ?? 0);
      const ids = Array.from({ length: n }, (_, i) => n - i).slice(offset, offset + limit);
      const next = offset + limit < n ? { nextCursor: `c${offset + limit}` } : {};
      return [200, { items: ids.map((id) => ({ id, status: 'paid' })), ...next }];
    };

  it('asks page 1 without a cursor and says there is more (no total from the API)', async () => {
    const calls = stubFetch(pages(60));
    const result = await createDataProvider().getList('orders', {
      pagination: { page: 1, perPage: 25 },
      sort: { field: 'id', order: 'DESC' },
      filter: {},
    });
    expect(calls.map((c) => `${c.url.pathname}?${c.url.searchParams}`)).toEqual(['/api/admin/orders?limit=25']);
    expect(result.data).toHaveLength(25);
    expect(result.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: false });
    expect(result.total).toBeUndefined();
  });

  it('follows nextCursor to the next page and knows the total on the last one', async () => {
    const calls = stubFetch(pages(60));
    const provider = createDataProvider();
    const params = { sort: { field: 'id', order: 'DESC' as const }, filter: {} };
    await provider.getList('orders', { ...params, pagination: { page: 1, perPage: 25 } });
    const second = await provider.getList('orders', { ...params, pagination: { page: 2, perPage: 25 } });
    expect(calls[1]!.url.searchParams.get('cursor')).toBe('c25');
    expect(second.data[0]!.id).toBe(35);
    const third = await provider.getList('orders', { ...params, pagination: { page: 3, perPage: 25 } });
    expect(third.data).toHaveLength(10);
    expect(third.total).toBe(60);
  });

  it('walks to a page whose cursor is not known yet (a deep link to page 3)', async () => {
    const calls = stubFetch(pages(60));
    const result = await createDataProvider().getList('orders', {
      pagination: { page: 3, perPage: 25 },
      sort: { field: 'id', order: 'DESC' },
      filter: {},
    });
    expect(calls.map((c) => c.url.searchParams.get('cursor'))).toEqual([null, 'c25', 'c50']);
    expect(result.data.map((o) => o.id)).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
  });

  it('uses the total when the API gives one, and caps the page size at 100', async () => {
    const calls = stubFetch(() => [200, { items: [{ id: 1 }], total: 1 }]);
    const result = await createDataProvider().getList('plans', {
      pagination: { page: 1, perPage: 500 },
      sort: { field: 'id', order: 'ASC' },
      filter: {},
    });
    expect(result.total).toBe(1);
    expect(calls[0]!.url.searchParams.get('limit')).toBe('100');
  });

  it('reads on after a short page of a filtered list, asking only for the items still missing', async () => {
    // A search the API filters inside its index: 2 matches, then none, then 30 (cursors s1, s2, s3).
    const answers: Record<string, unknown> = {
      '': { items: [{ id: 1 }, { id: 2 }], nextCursor: 's1' },
      s1: { items: [], nextCursor: 's2' },
      s2: { items: Array.from({ length: 23 }, (_, i) => ({ id: 10 + i })), nextCursor: 's3' },
      s3: { items: [{ id: 99 }] },
    };
    const calls = stubFetch((call) => [200, answers[call.url.searchParams.get('cursor') ?? '']]);
    const provider = createDataProvider();
    const result = await provider.getList('users', {
      pagination: { page: 1, perPage: 25 },
      sort: { field: 'id', order: 'DESC' },
      filter: { q: 'x' },
    });
    expect(calls.map((c) => [c.url.searchParams.get('cursor'), c.url.searchParams.get('limit')])).toEqual([
      [null, '25'],
      ['s1', '23'],
      ['s2', '23'],
    ]);
    expect(result.data).toHaveLength(25);
    expect(result.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: false });
    await provider.getList('users', { pagination: { page: 2, perPage: 25 }, sort: { field: 'id', order: 'DESC' }, filter: { q: 'x' } });
    expect(calls.at(-1)!.url.searchParams.get('cursor')).toBe('s3');
  });

  it('stops reading on after a bounded number of requests and says there is more', async () => {
    const calls = stubFetch(() => [200, { items: [], nextCursor: 'more' }]);
    const result = await createDataProvider().getList('orders', {
      pagination: { page: 1, perPage: 25 },
      sort: { field: 'id', order: 'DESC' },
      filter: { status: 'refunded' },
    });
    expect(calls).toHaveLength(1 + MAX_FOLLOW);
    expect(result.data).toEqual([]);
    expect(result.pageInfo?.hasNextPage).toBe(true);
  });

  it('sends Persian and Arabic digits as ASCII digits', () => {
    expect(String(filterParams('users', { q: '۰۹۱۲۱۲۳۴۵۶۷' }))).toBe('q=09121234567');
    expect(String(filterParams('orders', { userId: '٤٢' }))).toBe('userId=42');
    expect(asciiDigits('User۱۲۳')).toBe('User123');
  });

  it('sends only the filters of the contract, without empty ones', () => {
    expect(String(filterParams('orders', { status: 'paid', provider: '', userId: 7, phone: 'x', sort: 'id' }))).toBe(
      'status=paid&userId=7',
    );
    expect(String(filterParams('users', { q: ' User123456 ' }))).toBe('q=User123456');
    expect(String(filterParams('plans', { onSale: false }))).toBe('onSale=false');
    expect(String(filterParams('notifications', { q: 'x' }))).toBe('');
  });

  it('gives tutor usage days an id (the API lists them per day)', async () => {
    stubFetch(() => [200, { items: [{ day: '2026-11-20', answers: 3 }] }]);
    const result = await createDataProvider().getList('tutor-usage', {
      pagination: { page: 1, perPage: 25 },
      sort: { field: 'id', order: 'ASC' },
      filter: {},
    });
    expect(result.data[0]!.id).toBe('2026-11-20');
    expect(result.total).toBe(1);
  });
});

describe('writes', () => {
  it('PATCHes only the fields the form changed, an emptied one as null', async () => {
    const calls = stubFetch((call) => [200, { id: 1, ...(call.body as object) }]);
    const previous = { id: 1, title: 'A', price: 100, marketplaceSku: 'sku_a', features: ['x'] };
    await createDataProvider().update('plans', {
      id: 1,
      data: { ...previous, price: 120, marketplaceSku: '', features: ['x'] },
      previousData: previous,
    });
    expect(calls[0]).toMatchObject({ method: 'PATCH', body: { price: 120, marketplaceSku: null } });
    expect(calls[0]!.url.pathname).toBe('/api/admin/plans/1');
    expect(changedFields({ id: 1, a: 1 }, { id: 1, a: 1 })).toEqual({});
  });

  it('POSTs a new item without its empty optional fields', async () => {
    const calls = stubFetch(() => [201, { id: 'SPRING', code: 'SPRING' }]);
    await createDataProvider().create('discount-codes', {
      data: { code: 'SPRING', title: 'Spring', percent: 10, maxUses: null, validUntil: '' },
    });
    expect(calls[0]!.body).toEqual({ code: 'SPRING', title: 'Spring', percent: 10 });
  });

  it('refunds with { confirm: true } and encodes ids in paths', async () => {
    const calls = stubFetch(() => [200, { id: 5, status: 'refunded', daysTakenBack: 90, commissionReversed: 0 }]);
    const provider = createDataProvider();
    expect((await provider.refundOrder(5)).daysTakenBack).toBe(90);
    await provider.delete('staff', { id: 'a b', previousData: { id: 'a b' } });
    expect(calls.map((c) => [c.method, c.url.pathname, c.body])).toEqual([
      ['POST', '/api/admin/orders/5/refund', { confirm: true }],
      ['DELETE', '/api/admin/staff/a%20b', undefined],
    ]);
  });
});

describe('errors', () => {
  it('turns { code, detail, fields } into an HttpError whose body.errors marks the form fields', async () => {
    stubFetch(() => [400, { code: 'validation_error', detail: 'price must be whole toman', fields: { price: ['whole toman'] } }]);
    const error = await createDataProvider()
      .create('plans', { data: { price: 1.5 } })
      .catch((e) => e);
    expect(error.status).toBe(400);
    expect(error.message).toBe('price must be whole toman');
    expect(error.body.errors).toEqual({ price: 'whole toman', root: { serverError: 'price must be whole toman' } });
  });

  it("puts a taken SKU, discount code or username under its input, in the panel's words", () => {
    const error = toHttpError(409, { code: 'sku_taken', detail: 'marketplace SKU x is taken' });
    expect(error.body.errors).toEqual({ marketplaceSku: 'app.errors.sku_taken', root: { serverError: 'app.errors.sku_taken' } });
    expect(toHttpError(409, { code: 'code_taken', detail: 'taken' }).body.errors.code).toBe('app.errors.code_taken');
    const username = toHttpError(409, { code: 'username_taken', detail: 'taken', fields: { username: ['taken'] } });
    expect(username.body.errors.username).toBe('app.errors.username_taken');
    // A refusal that is no form field's (deleting a plan with orders) is a message of its own.
    const refusal = toHttpError(409, { code: 'plan_has_orders', detail: 'plan 1 has orders' });
    expect([refusal.message, refusal.body.errors]).toEqual(['app.errors.plan_has_orders', {}]);
    for (const code of ['sku_taken', 'code_taken', 'username_taken', 'plan_has_orders', 'discount_code_used']) {
      expect(fa.app.errors).toHaveProperty(code);
      expect(en.app.errors).toHaveProperty(code);
    }
  });

  it('keeps the status of a 403 so the auth provider stays on the page, worded by the permission it names', () => {
    const error = toHttpError(403, { code: 'permission_denied', detail: 'This action needs the change_order permission' });
    expect([error.status, error.message]).toEqual([403, 'app.errors.permission_denied.change_order']);
    expect(fa.app.errors.permission_denied.change_order).toBe('برای این کار مجوز «change_order» لازم است.');
    expect(en.app.errors.permission_denied.view_staff).toBe('This needs the “view_staff” permission.');
    const foreign = toHttpError(403, { code: 'permission_denied', detail: 'cross-origin request refused' });
    expect(foreign.message).toBe('cross-origin request refused');
  });

  it("words the platform's refusals of any route (busy database, throttle, server error) in the staff member's language", () => {
    const busy = toHttpError(503, { code: 'database_busy', detail: 'The database is busy; try again shortly' });
    expect([busy.status, busy.message, busy.body.errors]).toEqual([503, 'app.errors.database_busy', {}]);
    expect(toHttpError(429, { code: 'throttled', detail: 'Too many requests' }).message).toBe('app.errors.throttled');
    expect(toHttpError(500, { code: 'server_error', detail: 'Internal error' }).message).toBe('app.errors.server_error');
    for (const code of ['database_busy', 'throttled', 'server_error']) {
      expect(fa.app.errors).toHaveProperty(code);
      expect(en.app.errors).toHaveProperty(code);
    }
  });
});

describe('permissions', () => {
  const viewer = permissionsOf({
    username: 'v',
    isSuperuser: false,
    permissions: ['view_order', 'view_plan', 'delete_discountcode', 'view_discountcode'],
  });
  const superuser = permissionsOf({ username: 's', isSuperuser: true, permissions: [] });

  it('maps resources and actions to Django-style permissions', () => {
    expect(can(viewer, 'orders', 'list')).toBe(true);
    expect(can(viewer, 'orders', 'show')).toBe(true);
    expect(can(viewer, 'orders', 'refund')).toBe(false);
    expect(can(viewer, 'orders', 'cancel')).toBe(false);
    expect(can(viewer, 'plans', 'edit')).toBe(false);
    expect(can(viewer, 'users', 'list')).toBe(false);
    expect(can(viewer, 'dashboard', 'list')).toBe(true);
    // The API docs link: view_apidocs (or a superuser).
    expect(can(viewer, 'apidocs', 'show')).toBe(false);
    expect(can(permissionsOf({ username: 'd', isSuperuser: false, permissions: ['view_apidocs'] }), 'apidocs', 'show')).toBe(true);
    expect(can(superuser, 'apidocs', 'show')).toBe(true);
  });

  it('keeps staff, sessions and OTP records, and adding or changing discount codes, to superusers', () => {
    for (const resource of ['staff', 'sessions', 'otp-records']) {
      expect(can(viewer, resource, 'list')).toBe(false);
      expect(can(superuser, resource, 'list')).toBe(true);
    }
    expect(can(viewer, 'discount-codes', 'delete')).toBe(true);
    expect(can(viewer, 'discount-codes', 'create')).toBe(false);
    expect(can(superuser, 'discount-codes', 'edit')).toBe(true);
  });

  it('offers nobody, not even a superuser, an action the API has no route for', () => {
    expect(can(superuser, 'offers', 'edit')).toBe(true);
    expect(can(superuser, 'offers', 'delete')).toBe(false);
    expect(can(superuser, 'orders', 'delete')).toBe(false);
    expect(can(superuser, 'tickets', 'create')).toBe(false);
    expect(can(superuser, 'sessions', 'edit')).toBe(false);
    expect(can(superuser, 'sessions', 'delete')).toBe(true);
    expect(can(superuser, 'notifications', 'create')).toBe(true);
  });
});

describe('the tools of the API description', () => {
  const viewer = permissionsOf({ username: 'v', isSuperuser: false, permissions: ['view_ticket', 'change_ticket', 'view_plan'] });
  const superuser = permissionsOf({ username: 's', isSuperuser: true, permissions: [] });

  it("offers the history, bulk actions and exports to whoever holds their route's permission", () => {
    expect(can(viewer, 'history', 'list')).toBe(false);
    expect(can(permissionsOf({ username: 'h', isSuperuser: false, permissions: ['view_logentry'] }), 'history', 'list')).toBe(true);
    expect(can(viewer, 'tickets', 'bulk')).toBe(true);
    expect(can(viewer, 'discount-codes', 'bulk')).toBe(false);
    expect(can(superuser, 'discount-codes', 'bulk')).toBe(true);
    expect(can(superuser, 'plans', 'bulk')).toBe(false);
    expect(can(viewer, 'plans', 'export')).toBe(true);
    expect(can(viewer, 'orders', 'export')).toBe(false);
  });

  it("sends react-admin's sort only where the route sorts by that field", () => {
    expect(String(sortParams('history', { field: 'at', order: 'ASC' }))).toBe('sort=at&order=asc');
    expect(String(sortParams('history', { field: 'staff', order: 'ASC' }))).toBe('');
    expect(String(sortParams('offers', { field: 'id', order: 'DESC' }))).toBe('');
  });

  it('exports a list with its filters and order, and nothing the export does not take', () => {
    expect(exportUrl('history', { model: 'plan', action: 'change', page: 3 }, { field: 'at', order: 'ASC' })).toBe(
      '/api/admin/history/export.csv?model=plan&action=change&sort=at&order=asc',
    );
    expect(exportUrl('orders', { status: 'paid', userId: '۴۲' })).toBe('/api/admin/orders/export.csv?status=paid&userId=42');
    expect(exportUrl('marketplace')).toBeUndefined();
  });

  it('sends a bulk action with its ids and reads a result per row', async () => {
    const answer = {
      results: [
        { id: 1, ok: true, changed: true },
        { id: 2, ok: false, code: 'not_found', detail: 'No such ticket' },
      ],
      summary: { changed: 1, unchanged: 0, failed: 1 },
    };
    const calls = stubFetch(() => [200, answer]);
    expect(await createDataProvider().bulk('tickets', [1, 2], 'close')).toEqual(answer);
    expect(calls.map((c) => [c.method, c.url.pathname, c.body])).toEqual([
      ['POST', '/api/admin/tickets/bulk', { ids: [1, 2], action: 'close' }],
    ]);
  });
});
