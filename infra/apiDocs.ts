/**
 * The API description's files (DESIGN §10): the OpenAPI document generated at build time and the two viewers'
 * assets, which the `docs` endpoint group serves itself (no CDN). Read by the `docs` group, by `stacks/Api.ts`
 * (which ships them as files next to the `docs` function instead of bundling them into its JavaScript) and by the
 * local runtime (which serves them from node_modules and generates the document at start).
 */

/** The folder, next to the `docs` function's handler in its bundle (Lambda task root), that holds the files. */
export const API_DOCS_DIR = 'apidocs';

/** The document's file name in {@link API_DOCS_DIR}. */
export const OPENAPI_FILE = 'openapi.json';

/** A viewer asset served at `/api/docs/assets/{name}`: which npm package ships it, where in it, its content type. */
export interface ApiDocsAsset {
  name: string;
  package: 'swagger-ui-dist' | 'redoc';
  file: string;
  contentType: string;
}

export const apiDocsAssets: readonly ApiDocsAsset[] = [
  { name: 'swagger-ui-bundle.js', package: 'swagger-ui-dist', file: 'swagger-ui-bundle.js', contentType: 'text/javascript; charset=utf-8' },
  { name: 'swagger-ui.css', package: 'swagger-ui-dist', file: 'swagger-ui.css', contentType: 'text/css; charset=utf-8' },
  { name: 'redoc.standalone.js', package: 'redoc', file: 'bundles/redoc.standalone.js', contentType: 'text/javascript; charset=utf-8' },
];
