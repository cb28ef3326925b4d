/**
 * The data provider on the admin API's lists `{ items, nextCursor?, total? }`.
 *
 * - Pages: react-admin asks for page N; the API pages by cursor. The cursor that opens each page is kept per
 *   list query (resource, filters, page size); page 1 needs none, page N+1's is page N's `nextCursor`. A page
 *   whose cursor is not known yet (a deep link to page 3) is reached by walking from the last known page.
 *   With `total` react-admin gets the total; without it `pageInfo` (partial pagination: "1-25 of more than 25"),
 *   except on the last page, whose position tells the total.
 *   A filtered list may answer a short page with a `nextCursor` (the API filters inside an index a bounded number
 *   of reads at a time): the provider reads on, asking only for the items still missing, so a search that matches
 *   late in the list still fills the page instead of reading "no results" (at most `MAX_FOLLOW` more requests).
 * - Filters: only the query parameters the API description lists for the resource are sent (`contract.ts`); the API
 *   refuses any other. Empty values are left out; booleans are sent as `true`/`false`; Persian and Arabic digits
 *   (a Persian keyboard types them) are sent as ASCII digits, which is what the API reads in ids, phones and
 *   public ids. A list whose route takes `sort` gets react-admin's sort when the field is one it sorts by (`sort`,
 *   `order` asc/desc); any other list is in the API's own order (newest first) and no sort is sent.
 * - Writes: `create` POSTs the form's values without empty optional fields; `update` PATCHes only the fields
 *   the form changed (the API refuses unknown fields, and read-only ones like `uses` or `createdAt` are never
 *   changed by a form); a field emptied by the form is sent as `null`.
 * - Staff actions that are not CRUD (refund, cancel, reply, close, authorize window, dashboard, end sessions, sign out
 *   everywhere) are extra methods, called through `useDataProvider()`.
 */
import type { DataProvider, GetListResult, Identifier, RaRecord } from 'react-admin';
import {
  type Answer,
  API_BASE,
  DEFAULT_LIMIT,
  listFilters,
  MAX_LIMIT,
  operationOf,
  type ResourceContract,
  resourceContract,
  sortableFields,
} from './contract';
import { api } from './http';

interface Page {
  items: Record<string, unknown>[];
  nextCursor?: string;
  total?: number;
}

function contractOf(resource: string): ResourceContract {
  const contract = resourceContract(resource);
  if (!contract) throw new Error(`unknown resource ${resource}`);
  return contract;
}

/** The item with react-admin's `id` (typed `any`: react-admin's methods are generic in the record type). */
const withId = (contract: ResourceContract, item: Record<string, unknown>): any => ({
  ...item,
  id: (item.id ?? (contract.idField ? item[contract.idField] : undefined)) as Identifier,
});

const itemPath = (contract: ResourceContract, id: Identifier) => `${contract.path}/${encodeURIComponent(String(id))}`;

/** `text` with Persian (۰-۹) and Arabic-Indic (٠-٩) digits as ASCII digits. */
export const asciiDigits = (text: string): string =>
  text.replace(/[\u06F0-\u06F9\u0660-\u0669]/g, (d) => String((d.charCodeAt(0) & 0xf) % 10));

/** The query parameters `names` of `filter`, without empty ones, digits in ASCII. */
function queryOf(names: readonly string[], filter: Record<string, unknown>): URLSearchParams {
  const query = new URLSearchParams();
  for (const name of names) {
    const value = filter[name];
    if (name === 'sort' || value === undefined || value === null || value === '') continue;
    query.set(name, typeof value === 'string' ? asciiDigits(value.trim()) : String(value));
  }
  return query;
}

/** The list query parameters of `filter` the API description allows for the resource. */
export function filterParams(resource: string, filter: Record<string, unknown> = {}): URLSearchParams {
  contractOf(resource);
  return queryOf(Object.keys(listFilters(resource)), filter);
}

/**
 * The CSV export of a list with its current filters and sort (`GET /api/admin/<resource>/export.csv`, every matching
 * row), or undefined when the API has no export for it.
 */
export function exportUrl(
  resource: string,
  filter: Record<string, unknown> = {},
  sort?: { field: string; order: string },
): string | undefined {
  const operation = operationOf(resource, 'export');
  if (!operation) return undefined;
  const query = queryOf(Object.keys(operation.query), filter);
  if ('sort' in operation.query) for (const [name, value] of sortParams(resource, sort)) query.set(name, value);
  const search = String(query);
  return `${API_BASE}/${contractOf(resource).path}/export.csv${search ? `?${search}` : ''}`;
}

/** The sort query of react-admin's `sort` when the list's route sorts by that field (else none: the API's order). */
export function sortParams(resource: string, sort?: { field: string; order: string }): URLSearchParams {
  const query = new URLSearchParams();
  if (sort && sortableFields(resource).includes(sort.field)) {
    query.set('sort', sort.field);
    query.set('order', sort.order === 'ASC' ? 'asc' : 'desc');
  }
  return query;
}

/** Extra requests a short page of a filtered list may take to fill up (on top of the first). */
export const MAX_FOLLOW = 4;

const emptyToNull = (value: unknown) => (value === '' || value === undefined ? null : value);

/** The fields of `data` that differ from `previous` (deep compare through JSON), emptied ones as `null`. */
export function changedFields(data: Record<string, unknown>, previous: Record<string, unknown> = {}): Record<string, unknown> {
  const changed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if (key === 'id') continue;
    if (JSON.stringify(emptyToNull(value)) !== JSON.stringify(emptyToNull(previous[key]))) changed[key] = emptyToNull(value);
  }
  return changed;
}

/** The form values of a new item without empty optional fields. */
export function createBody(data: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).filter(([key, v]) => key !== 'id' && v !== undefined && v !== null && v !== ''));
}

export interface AdminDataProvider extends DataProvider {
  dashboard(): Promise<Dashboard>;
  orderEvents(id: Identifier): Promise<RaRecord[]>;
  cancelOrder(id: Identifier): Promise<RaRecord>;
  refundPreview(id: Identifier): Promise<RefundPreview>;
  refundOrder(id: Identifier): Promise<RefundDone>;
  replyTicket(id: Identifier, text: string): Promise<RaRecord>;
  closeTicket(id: Identifier): Promise<RaRecord>;
  marketplace(): Promise<Marketplace>;
  openAuthorizeWindow(hours?: number): Promise<AuthorizeWindow>;
  /** Ends every session of staff member `username` (superuser). */
  endStaffSessions(username: Identifier): Promise<void>;
  /** Ends every session of the signed-in staff member, this one included ("sign out everywhere"). */
  signOutEverywhere(): Promise<void>;
  /** The day counters of the last `days` Tehran days, oldest first (the dashboard's charts). */
  stats(days: number): Promise<Stats>;
  /** Changes the signed-in staff member's own password; their other sessions end. */
  changePassword(oldPassword: string, newPassword: string): Promise<void>;
  /** `action` on each of `ids` of `resource` (`POST …/bulk`): a result per row. */
  bulk(resource: string, ids: Identifier[], action: string): Promise<BulkResult>;
}

/** `GET /api/admin/dashboard`: today's figures (Tehran day). */
export type Dashboard = Answer<'/api/admin/dashboard', 'get'>;
/** `GET /api/admin/orders/{id}/refund`: what the refund will take back (days, commission), the expiry before and after. */
export type RefundPreview = Answer<'/api/admin/orders/{id}/refund', 'get'>;
/** `GET /api/admin/marketplace` (DESIGN §8). */
export type Marketplace = Answer<'/api/admin/marketplace', 'get'>;
/** `POST /api/admin/marketplace/authorize-window`: the window just opened. */
export type AuthorizeWindow = Answer<'/api/admin/marketplace/authorize-window', 'post'>;
/** `GET /api/admin/stats?days=`: the day counters of the last Tehran days, oldest first. */
export type Stats = Answer<'/api/admin/stats', 'get'>;
/** `POST /api/admin/<resource>/bulk`: a result per row and a summary. */
export type BulkResult = Answer<'/api/admin/tickets/bulk', 'post'>;
/** `POST /api/admin/orders/{id}/refund`: the order refunded, with what was taken back. */
export type RefundDone = Answer<'/api/admin/orders/{id}/refund', 'post'>;

const totalOf = (page: Page) => (typeof page.total === 'number' ? { total: page.total } : {});

export function createDataProvider(): AdminDataProvider {
  /** Cursors that open each page, per list query. */
  const cursors = new Map<string, Map<number, string>>();

  async function fetchOne(contract: ResourceContract, query: URLSearchParams, limit: number, cursor?: string): Promise<Page> {
    const q = new URLSearchParams(query);
    q.set('limit', String(limit));
    if (cursor) q.set('cursor', cursor);
    const { json } = await api<Page>(contract.path, { query: q });
    return json;
  }

  /** Up to `limit` items from `cursor`: a short page with a `nextCursor` is read on, asking only for what is missing. */
  async function fetchPage(contract: ResourceContract, query: URLSearchParams, limit: number, cursor?: string): Promise<Page> {
    const page = await fetchOne(contract, query, limit, cursor);
    const items = [...page.items];
    let next = page.nextCursor;
    for (let follow = 0; next && items.length < limit && follow < MAX_FOLLOW; follow++) {
      const more = await fetchOne(contract, query, limit - items.length, next);
      items.push(...more.items);
      next = more.nextCursor;
    }
    return { ...page, items, nextCursor: next };
  }

  async function getList(
    resource: string,
    params: { pagination?: { page: number; perPage: number }; filter?: any; sort?: { field: string; order: string } },
  ): Promise<GetListResult> {
    const contract = contractOf(resource);
    const page = Math.max(1, params.pagination?.page ?? 1);
    const limit = Math.min(MAX_LIMIT, Math.max(1, params.pagination?.perPage ?? DEFAULT_LIMIT));
    const query = filterParams(resource, params.filter);
    for (const [name, value] of sortParams(resource, params.sort)) query.set(name, value);
    const key = `${resource}?${query}&limit=${limit}`;
    let known = cursors.get(key);
    if (!known || page === 1) {
      known = new Map();
      cursors.set(key, known);
    }
    // Walk from the nearest page whose cursor is known (page 1 needs none).
    let from = page;
    while (from > 1 && !known.has(from)) from--;
    let result = await fetchPage(contract, query, limit, known.get(from));
    while (from < page) {
      if (!result.nextCursor) return { data: [], pageInfo: { hasNextPage: false, hasPreviousPage: true }, ...totalOf(result) };
      known.set(from + 1, result.nextCursor);
      from++;
      result = await fetchPage(contract, query, limit, result.nextCursor);
    }
    if (result.nextCursor) known.set(page + 1, result.nextCursor);
    const data = result.items.map((item) => withId(contract, item));
    if (typeof result.total === 'number') return { data, total: result.total };
    // The last page tells the total; before it, only that there is more.
    if (!result.nextCursor) return { data, total: (page - 1) * limit + data.length };
    return { data, pageInfo: { hasNextPage: true, hasPreviousPage: page > 1 } };
  }

  async function getOne(resource: string, id: Identifier) {
    const contract = contractOf(resource);
    const { json } = await api(itemPath(contract, id));
    return withId(contract, json);
  }

  return {
    getList: (resource, params) => getList(resource, params),
    getOne: async (resource, params) => ({ data: await getOne(resource, params.id) }),
    getMany: async (resource, params) => ({ data: await Promise.all(params.ids.map((id) => getOne(resource, id))) }),
    getManyReference: (resource, params) =>
      getList(resource, { pagination: params.pagination, sort: params.sort, filter: { ...params.filter, [params.target]: params.id } }),
    create: async (resource, params) => {
      const contract = contractOf(resource);
      const { json } = await api(contract.path, { method: 'POST', body: createBody(params.data) });
      return { data: withId(contract, json ?? params.data) };
    },
    update: async (resource, params) => {
      const contract = contractOf(resource);
      const body = changedFields(params.data, params.previousData);
      if (Object.keys(body).length === 0) return { data: params.previousData };
      const { json } = await api(itemPath(contract, params.id), { method: 'PATCH', body });
      return { data: withId(contract, json ?? { ...params.previousData, ...body }) };
    },
    updateMany: () => Promise.reject(new Error('the admin API has no bulk update')),
    delete: async (resource, params) => {
      const contract = contractOf(resource);
      await api(itemPath(contract, params.id), { method: 'DELETE' });
      return { data: (params.previousData ?? { id: params.id }) as any };
    },
    deleteMany: async (resource, params) => {
      const contract = contractOf(resource);
      for (const id of params.ids) await api(itemPath(contract, id), { method: 'DELETE' });
      return { data: params.ids };
    },

    dashboard: async () => (await api<Dashboard>('dashboard')).json,
    orderEvents: async (id) => {
      // Every event of the order (a handful; pages of 100, newest first).
      const events: Record<string, unknown>[] = [];
      let cursor: string | undefined;
      do {
        const query = new URLSearchParams({ limit: String(MAX_LIMIT) });
        if (cursor) query.set('cursor', cursor);
        const { json } = await api<Page>(`orders/${encodeURIComponent(String(id))}/events`, { query });
        events.push(...json.items);
        cursor = json.nextCursor;
      } while (cursor && events.length < 10 * MAX_LIMIT);
      return events.map((e, i) => ({ ...e, id: (e.id as Identifier) ?? i }) as RaRecord);
    },
    cancelOrder: async (id) => (await api(`orders/${encodeURIComponent(String(id))}/cancel`, { method: 'POST' })).json,
    refundPreview: async (id) => (await api<RefundPreview>(`orders/${encodeURIComponent(String(id))}/refund`)).json,
    refundOrder: async (id) =>
      (await api(`orders/${encodeURIComponent(String(id))}/refund`, { method: 'POST', body: { confirm: true } })).json,
    replyTicket: async (id, text) =>
      (await api(`tickets/${encodeURIComponent(String(id))}/messages`, { method: 'POST', body: { text } })).json,
    closeTicket: async (id) => (await api(`tickets/${encodeURIComponent(String(id))}/close`, { method: 'POST' })).json,
    marketplace: async () => (await api<Marketplace>('marketplace')).json,
    openAuthorizeWindow: async (hours) =>
      (await api<AuthorizeWindow>('marketplace/authorize-window', { method: 'POST', body: hours ? { hours } : {} })).json,
    endStaffSessions: async (username) => {
      await api(`staff/${encodeURIComponent(String(username))}/end-sessions`, { method: 'POST' });
    },
    signOutEverywhere: async () => {
      await api('me/end-sessions', { method: 'POST' });
    },
    changePassword: async (oldPassword, newPassword) => {
      await api('me/password', { method: 'POST', body: { oldPassword, newPassword } });
    },
    stats: async (days) => (await api<Stats>('stats', { query: new URLSearchParams({ days: String(days) }) })).json,
    bulk: async (resource, ids, action) =>
      (await api<BulkResult>(`${contractOf(resource).path}/bulk`, { method: 'POST', body: { ids, action } })).json,
  };
}
