/**
 * The API description (DESIGN §10): the generated OpenAPI document is valid (a real validator,
 * @readme/openapi-parser), lists exactly the routes of `infra/routes.ts`, documents each route's auth, parameters,
 * bodies and error codes; the test stacks' response check refuses answers the document does not describe; and
 * `/api/schema/`, `/api/docs/`, `/api/redoc/` and their assets are served by the service itself to staff holding
 * `view_apidocs` only.
 */
import { dereference, validate } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { routeKey, routes } from '../infra/routes';
import { REDOC_LOGO_URL } from '../packages/functions/src/groups/docs';
import { routeErrors } from '../packages/functions/src/lib/responses';
import { apiDocument, loadRouteDefinitions, openApiPaths } from '../packages/local/src/apiDocs';
import { createResponseChecker } from '../packages/local/src/responseCheck';
import { staffSession } from './support/payments';
import { call, useStack } from './support/stack';

type Operation = {
  security: Record<string, string[]>[];
  parameters?: { in: string; name: string }[];
  requestBody?: unknown;
  responses: Record<string, { content?: Record<string, { examples?: Record<string, unknown> }>; headers?: Record<string, unknown> }>;
};

describe('the OpenAPI document', () => {
  let document: Awaited<ReturnType<typeof apiDocument>>;
  /** The document with every `$ref` replaced by what it points at (shared responses, examples, parameters, schemas). */
  let resolved: typeof document;
  const operation = (key: string) => {
    const [method = '', path = ''] = key.split(' ');
    return (resolved.paths as Record<string, Record<string, Operation>>)[path]?.[method.toLowerCase()] as Operation;
  };

  beforeAll(async () => {
    document = await apiDocument();
    resolved = (await dereference(structuredClone(document) as never)) as unknown as typeof document;
  });

  it('is small: shared schemas, error responses and examples are components, referenced (was 508 kB inline)', () => {
    const size = JSON.stringify(document).length;
    // Per operation, so that new routes do not eat the margin: 360 kB was the bound at 104 operations (3,460 bytes
    // each; inline, the document was 508 kB).
    const operations = Object.values(document.paths as Record<string, object>).flatMap((item) => Object.keys(item)).length;
    expect(size / operations).toBeLessThan(3_460);
    expect(JSON.stringify(resolved).length).toBeGreaterThan(2 * size);
    const components = document.components as Record<string, Record<string, unknown>>;
    for (const kind of ['schemas', 'responses', 'examples', 'parameters', 'headers'])
      expect(Object.keys(components[kind] ?? {}), kind).not.toEqual([]);
    const home = (document.paths as Record<string, Record<string, Operation>>)['/api/home']?.get?.responses ?? {};
    expect(home['500']).toEqual({ $ref: '#/components/responses/500-server_error' });
  });

  it('gives every JSON success body an example its schema accepts', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
    ajv.addSchema(document as object, 'openapi');
    for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, Operation>>)) {
      for (const [method, op] of Object.entries(item)) {
        for (const [status, response] of Object.entries(op.responses)) {
          const media = (response as { content?: Record<string, { schema?: unknown; examples?: Record<string, { value: unknown }> }> })
            .content?.['application/json'];
          if (Number(status) >= 400 || !media?.schema) continue;
          const where = `${method.toUpperCase()} ${path} ${status}`;
          expect(Object.keys(media.examples ?? {}), where).not.toEqual([]);
          const pointer = ['paths', path, method, 'responses', status, 'content', 'application/json', 'schema']
            .map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1'))
            .join('/');
          const check = ajv.compile({ $ref: `openapi#/${pointer}` });
          for (const [name, example] of Object.entries(media.examples ?? {}))
            expect(check(example.value), `${where} ${name}: ${ajv.errorsText(check.errors)}`).toBe(true);
        }
      }
    }
  });

  it('is a valid OpenAPI 3.1 document (@readme/openapi-parser)', async () => {
    expect(document.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(document) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
  });

  it('lists exactly the routes of the manifest (method + path)', async () => {
    const manifest = routes.map((r) => ({ method: r.method, path: r.path }));
    const sort = (list: { method: string; path: string }[]) => list.map((p) => `${p.method} ${p.path}`).sort();
    expect(sort(await openApiPaths())).toEqual(sort(manifest));
  });

  it('gives each route its security scheme, path parameters and request body', () => {
    const scheme = { none: [], user: [{ bearerAuth: [] }], admin: [{ adminSession: [] }], internal: [{ internalKey: [] }] };
    for (const r of routes) {
      const op = operation(routeKey(r));
      expect(op.security, routeKey(r)).toEqual(scheme[r.auth]);
      for (const name of [...r.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1])) {
        expect(
          op.parameters?.some((p) => p.in === 'path' && p.name === name),
          `${routeKey(r)} {${name}}`,
        ).toBe(true);
      }
    }
    expect(operation('POST /api/auth/login').requestBody).toBeDefined();
    expect(operation('POST /api/subscription/purchase').parameters).toContainEqual(
      expect.objectContaining({ in: 'header', name: 'Idempotency-Key' }),
    );
    expect(operation('GET /api/leaderboard').parameters?.map((p) => p.name)).toEqual(expect.arrayContaining(['period', 'limit']));
  });

  it('documents every error code a route can answer, at its status, with Retry-After on 429 and 503', async () => {
    const groups = await loadRouteDefinitions();
    const definitions = Object.assign({}, ...Object.values(groups));
    for (const r of routes) {
      const op = operation(routeKey(r));
      for (const code of Object.keys(routeErrors(r, definitions[routeKey(r)]))) {
        const documented = Object.values(op.responses).some((res) => res.content?.['application/json']?.examples?.[code.replace('/', '_')]);
        expect(documented, `${routeKey(r)} ${code}`).toBe(true);
      }
      for (const status of ['429', '503'])
        if (op.responses[status]) expect(op.responses[status]?.headers, `${routeKey(r)} ${status}`).toHaveProperty('Retry-After');
    }
    const answer = operation('POST /api/questions/{id}/answer').responses;
    expect(Object.keys(answer['403']?.content?.['application/json']?.examples ?? {})).toEqual(
      expect.arrayContaining(['node_locked', 'no_hearts']),
    );
    expect(Object.keys(answer['400']?.content?.['application/json']?.examples ?? {})).toContain('invalid_id');
    expect(operation('POST /api/auth/otp/request').responses['503']).toBeDefined();
    expect(operation('POST /api/ai/ask').responses['200']?.content).toHaveProperty(['text/plain; charset=utf-8']);
    expect(operation('POST /api/ai/ask').responses['200']?.headers).toHaveProperty('X-Tutor-Outcome');
  });

  it('carries examples of the main flows', () => {
    const examples = JSON.stringify(document);
    for (const flow of ['signIn', 'learning', 'gateway', 'marketplace', 'tutor']) expect(examples).toContain(`"${flow}":{"summary"`);
  });
});

describe('the response check of the test stacks', () => {
  let check: ReturnType<typeof createResponseChecker>['check'];
  beforeAll(async () => {
    const groups = await loadRouteDefinitions();
    check = createResponseChecker(await apiDocument(), Object.assign({}, ...Object.values(groups))).check;
  });
  const json = { 'content-type': 'application/json; charset=utf-8' };
  const hearts = { hearts: 5, maxHearts: 5, enforced: true, nextHeartAt: null };

  it('accepts an answer the document describes', () => {
    expect(check('GET /api/hearts', { statusCode: 200, headers: json, body: JSON.stringify(hearts) })).toEqual([]);
  });

  it('refuses a renamed, retyped or undocumented field, an undocumented status or error code, and a missing header', () => {
    const body = (value: unknown) => ({ statusCode: 200, headers: json, body: JSON.stringify(value) });
    expect(check('GET /api/hearts', body({ ...hearts, hearts: '5' }))).not.toEqual([]);
    expect(check('GET /api/hearts', body({ ...hearts, extra: 1 }))).not.toEqual([]);
    const { maxHearts: _, ...renamed } = hearts;
    expect(check('GET /api/hearts', body({ ...renamed, max: 5 }))).not.toEqual([]);
    expect(check('GET /api/hearts', { statusCode: 201, headers: json, body: JSON.stringify(hearts) })).not.toEqual([]);
    const error = (status: number, code: string) => ({ statusCode: status, headers: json, body: JSON.stringify({ code, detail: 'x' }) });
    expect(check('GET /api/hearts', error(401, 'token_invalid'))).toEqual([]);
    expect(check('GET /api/hearts', error(409, 'already_paid'))).not.toEqual([]);
    expect(check('GET /api/hearts', error(401, 'otp_invalid'))).not.toEqual([]);
    expect(check('GET /api/payment/orders/{id}/pay', { statusCode: 302, headers: {}, body: '' })).not.toEqual([]);
    expect(check('GET /api/payment/orders/{id}/pay', { statusCode: 302, headers: { location: 'https://x/' }, body: '' })).toEqual([]);
  });
});

describe('GET /api/schema/, /api/docs/, /api/redoc/', () => {
  const stack = useStack();
  let reader: string;
  let other: string;
  const pages = ['/api/schema/', '/api/docs/', '/api/redoc/', '/api/docs/assets/swagger-ui-bundle.js'];

  beforeAll(async () => {
    reader = (await staffSession(stack, { permissions: ['view_apidocs'] })).cookie;
    other = (await staffSession(stack, { permissions: ['view_order'] })).cookie;
  });

  it('answers 401 JSON without an admin session and 403 without view_apidocs', async () => {
    for (const path of pages) {
      const anonymous = await call(stack, 'GET', path);
      expect(anonymous.status, path).toBe(401);
      expect(anonymous.body.code).toBe('not_authenticated');
      const denied = await call(stack, 'GET', path, { headers: { cookie: other } });
      expect(denied.status, path).toBe(403);
      expect(denied.body).toMatchObject({ code: 'permission_denied', detail: expect.stringContaining('view_apidocs') });
    }
  });

  it('serves the document the generator makes, with and without the trailing slash', async () => {
    for (const path of ['/api/schema/', '/api/schema']) {
      const res = await call(stack, 'GET', path, { headers: { cookie: reader } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      expect(res.body).toEqual(JSON.parse(JSON.stringify(await apiDocument())));
    }
  });

  it('serves both viewers and their assets from this origin only, under a Content-Security-Policy', async () => {
    for (const path of ['/api/docs/', '/api/redoc/']) {
      const page = await call(stack, 'GET', path, { headers: { cookie: reader } });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
      const sources = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string);
      expect(sources.length).toBeGreaterThan(0);
      for (const source of sources) {
        expect(source, source).toMatch(/^\/api\/docs\/assets\//);
        const asset = await call(stack, 'GET', source, { headers: { cookie: reader } });
        expect(asset.status, source).toBe(200);
        expect(asset.headers.get('content-type'), source).toMatch(/^text\/(javascript|css)/);
      }
    }
    const init = await call(stack, 'GET', '/api/docs/assets/swagger-init.js', { headers: { cookie: reader } });
    expect(init.text).toContain("url: '/api/schema/'");
    expect(init.text).toContain('validatorUrl: null');
  });

  it('serves Redoc without its CDN logo, and 404 for an unknown asset', async () => {
    const redoc = await call(stack, 'GET', '/api/docs/assets/redoc.standalone.js', { headers: { cookie: reader } });
    expect(redoc.status).toBe(200);
    expect(redoc.text.length).toBeGreaterThan(500_000);
    expect(redoc.text).not.toContain(REDOC_LOGO_URL);
    expect(redoc.text).not.toContain('cdn.redoc.ly');
    const missing = await call(stack, 'GET', '/api/docs/assets/..%2Fpackage.json', { headers: { cookie: reader } });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('not_found');
  });
});
