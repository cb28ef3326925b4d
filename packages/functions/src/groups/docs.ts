/**
 * Endpoint group `docs`: the API description (DESIGN §10), for staff holding `view_apidocs` (admin session cookie,
 * `Path=/api`; 401 `not_authenticated` without one, 403 `permission_denied` without the permission):
 * - `GET /api/schema/`: the OpenAPI 3.1 document (JSON), generated at build time from the route definitions by
 *   `openapi/document.ts` (never in this Lambda: it would import every group);
 * - `GET /api/docs/`: Swagger UI (swagger-ui-dist), `GET /api/redoc/`: Redoc 2.5 standalone;
 * - `GET /api/docs/assets/{file}`: their scripts and style sheets (`infra/apiDocs.ts`) and our two small init scripts.
 *
 * Nothing is loaded from another host: the pages carry a Content-Security-Policy allowing only this origin (and
 * `data:` images), Swagger UI's online validator is off, and Redoc's footer logo, which the bundle loads from a CDN,
 * is rewritten to an empty `data:` image when the bundle is served. In AWS the files lie next to the handler
 * (`apidocs/`, shipped by `stacks/Api.ts`); locally the assets come from node_modules and the local runtime hands
 * in the document it generated at start ({@link serveDocumentFrom}).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { DomainError } from '@mathisland/core';
import * as z from 'zod';
import { API_DOCS_DIR, apiDocsAssets, OPENAPI_FILE } from '../../../../infra/apiDocs';
import { docsRoutes } from '../../../../infra/routes/docs';
import { pathParam } from '../lib/adminQuery';
import { defineGroup } from '../lib/group';
import { HttpResponse } from '../lib/http';
import { json, text } from '../lib/responses';
import { type AdminInput, route } from '../lib/route';
import { responseShape } from '../lib/shapes';

/** Only this origin; images may be `data:` (Swagger UI's icons); styles inline (both viewers set them); Redoc's search runs in a blob worker. */
export const DOCS_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; " +
  "connect-src 'self'; worker-src 'self' blob:; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

/** The URL Redoc 2.5's bundle loads its footer logo from, and what it is served as instead. */
export const REDOC_LOGO_URL = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
const EMPTY_IMAGE = 'data:,';

const ASSETS_PATH = '/api/docs/assets';

const SWAGGER_INIT = `window.ui = SwaggerUIBundle({
  url: '/api/schema/',
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  withCredentials: true,
  persistAuthorization: false,
});
`;

const page = (title: string, head: string, body: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
${head}
</head>
<body>
${body}
</body>
</html>
`;

const SWAGGER_PAGE = page(
  'mathisland API: Swagger UI',
  `<link rel="stylesheet" href="${ASSETS_PATH}/swagger-ui.css">`,
  `<div id="swagger-ui"></div>
<script src="${ASSETS_PATH}/swagger-ui-bundle.js"></script>
<script src="${ASSETS_PATH}/swagger-init.js"></script>`,
);

const REDOC_PAGE = page(
  'mathisland API: Redoc',
  '<style>body { margin: 0; padding: 0; }</style>',
  `<redoc spec-url="/api/schema/" hide-download-button="false" path-in-middle-panel="true" required-props-first="true"></redoc>
<script src="${ASSETS_PATH}/redoc.standalone.js"></script>`,
);

/** Where the build put the files: `apidocs/` in the Lambda task root. */
const builtDir = () => join(process.env.LAMBDA_TASK_ROOT ?? process.cwd(), API_DOCS_DIR);

let documentSource: () => Promise<string> = () => readFile(join(builtDir(), OPENAPI_FILE), 'utf8');
let documentCache: Promise<string> | undefined;

/**
 * Serves the document `load` gives (JSON text) instead of the built file: the local runtime, which generates it
 * from the route definitions it loaded. Called before the first request.
 */
export function serveDocumentFrom(load: () => Promise<string>): void {
  documentSource = load;
  documentCache = undefined;
}

const documentText = (): Promise<string> => {
  documentCache ??= documentSource().catch((error: unknown) => {
    documentCache = undefined;
    throw error;
  });
  return documentCache;
};

const assetCache = new Map<string, Promise<string>>();
const requireHere = createRequire(import.meta.url);

/** An asset's text: the built copy next to the handler, else the file of its npm package (local runtime). */
async function readAsset(name: string): Promise<string> {
  const asset = apiDocsAssets.find((a) => a.name === name);
  if (!asset) throw new DomainError('not_found', `No viewer asset ${name}`);
  const built = join(builtDir(), asset.name);
  const raw = await readFile(built, 'utf8').catch(() => readFile(requireHere.resolve(`${asset.package}/${asset.file}`), 'utf8'));
  return asset.package === 'redoc' ? raw.replaceAll(REDOC_LOGO_URL, EMPTY_IMAGE) : raw;
}

const assetText = (name: string): Promise<string> => {
  let cached = assetCache.get(name);
  if (!cached) {
    cached = readAsset(name);
    assetCache.set(name, cached);
    cached.catch(() => assetCache.delete(name));
  }
  return cached;
};

const html = (body: string) =>
  new HttpResponse(200, body, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': DOCS_CSP });

async function schema() {
  return new HttpResponse(200, await documentText(), { 'content-type': 'application/json; charset=utf-8' });
}

async function asset({ event }: AdminInput<undefined, unknown>) {
  const name = pathParam(event, 'file');
  if (name === 'swagger-init.js') return new HttpResponse(200, SWAGGER_INIT, { 'content-type': 'text/javascript; charset=utf-8' });
  const known = apiDocsAssets.find((a) => a.name === name);
  if (!known) throw new DomainError('not_found', `No viewer asset ${name}`);
  return new HttpResponse(200, await assetText(name), { 'content-type': known.contentType });
}

/** The OpenAPI document as served: an OpenAPI 3.1 object (validated in full by tests/openapi.test.ts). */
const OpenApiDocument = responseShape(() =>
  z
    .looseObject({
      openapi: z
        .string()
        .regex(/^3\.1\./)
        .meta({ example: '3.1.0' }),
      info: z.looseObject({ title: z.string(), version: z.string() }),
      paths: z.record(z.string(), z.unknown()),
    })
    .meta({ id: 'OpenApiDocument', description: 'An OpenAPI 3.1 document (this one)' }),
);

const PERMISSION = 'view_apidocs';
const Html = z.string().meta({ description: 'An HTML page' });

export const { handler, createHandler, routes } = defineGroup(docsRoutes, {
  'GET /api/schema': route.admin({
    permission: PERMISSION,
    responses: { 200: json(OpenApiDocument, 'The OpenAPI 3.1 document of this API') },
    run: schema,
  }),
  'GET /api/docs': route.admin({
    permission: PERMISSION,
    responses: { 200: text('text/html; charset=utf-8', Html, 'Swagger UI showing the document') },
    run: async () => html(SWAGGER_PAGE),
  }),
  'GET /api/redoc': route.admin({
    permission: PERMISSION,
    responses: { 200: text('text/html; charset=utf-8', Html, 'Redoc showing the document') },
    run: async () => html(REDOC_PAGE),
  }),
  'GET /api/docs/assets/{file}': route.admin({
    permission: PERMISSION,
    description: `One of: ${[...apiDocsAssets.map((a) => a.name), 'swagger-init.js'].map((n) => `\`${n}\``).join(', ')}.`,
    responses: {
      200: text(['text/javascript; charset=utf-8', 'text/css; charset=utf-8'], z.string(), 'The script, or the style sheet'),
    },
    errors: { not_found: 'No such asset.' },
    run: asset,
  }),
});
