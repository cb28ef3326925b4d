/** The routes of endpoint group `docs` (`packages/functions/src/groups/docs.ts`). */
import type { RouteSpec } from './types';

export const docsRoutes: readonly RouteSpec[] = [
  {
    method: 'GET',
    path: '/api/schema',
    group: 'docs',
    auth: 'admin',
    throttle: 'api_schema',
    summary: 'This API’s OpenAPI 3.1 document (JSON), generated from the route definitions (view_apidocs).',
  },
  {
    method: 'GET',
    path: '/api/docs',
    group: 'docs',
    auth: 'admin',
    throttle: 'api_docs',
    summary: 'The API document in Swagger UI, served with its assets by the service (view_apidocs).',
  },
  {
    method: 'GET',
    path: '/api/redoc',
    group: 'docs',
    auth: 'admin',
    throttle: 'api_redoc',
    summary: 'The API document in Redoc, served with its assets by the service (view_apidocs).',
  },
  {
    method: 'GET',
    path: '/api/docs/assets/{file}',
    group: 'docs',
    auth: 'admin',
    throttle: 'api_docs_assets',
    summary: 'A script or style sheet of the two viewers (Swagger UI, Redoc), never from another host (view_apidocs).',
  },
];
