/**
 * `npm run generate -w packages/admin [-- --force]`: the panel's view of the admin API, generated from the API
 * description (DESIGN §10) that the repository's `npm run openapi` script writes, into `packages/admin/.generated/`
 * (build output, not committed):
 *
 * - `api.ts`: openapi-typescript's types of every `/api/admin/*` operation and of the shared schemas (`paths`,
 *   `components`): the record shapes the screens read and the bodies they send.
 * - `operations.ts`: the few facts the panel needs at run time, per operation (`'GET /api/admin/orders'`): the
 *   permission it needs (the document's `x-permission`), its query parameters with their choices (an enum's values,
 *   else null), and the rules of its JSON body's fields (type, enum, lengths, bounds, pattern), which the forms'
 *   validation applies; plus the permissions a staff member can be granted (the staff body's enum).
 *
 * Skipped when both files are newer than the API's sources (the route definitions in packages/functions, the domain
 * in packages/core, the manifest in infra, this script); `--force` regenerates anyway. The build (`npm run build`),
 * the typecheck and the unit tests' setup run it first.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ADMIN_DIR = fileURLToPath(new URL('../', import.meta.url));
const REPO_ROOT = join(ADMIN_DIR, '..', '..');
export const GENERATED_DIR = join(ADMIN_DIR, '.generated');
const OUTPUTS = ['api.ts', 'operations.ts'].map((name) => join(GENERATED_DIR, name));
/** What the API description is made from. */
const API_SOURCES = ['packages/functions/src', 'packages/core/src', 'infra', 'scripts/openapi.ts', 'packages/local/src/apiDocs.ts'].map(
  (path) => join(REPO_ROOT, path),
);
const ADMIN_PREFIX = '/api/admin/';
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

type Schema = Record<string, any>;

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

/** Whether the generated files are there and newer than the API's sources and this script. */
export function generatedIsFresh(): boolean {
  if (!OUTPUTS.every(existsSync)) return false;
  const oldest = Math.min(...OUTPUTS.map((file) => statSync(file).mtimeMs));
  return Math.max(...[...API_SOURCES, fileURLToPath(import.meta.url)].map(newestMtime)) < oldest;
}

/** The API description, as `npm run openapi` writes it. */
function readDocument(): Schema {
  const file = join(tmpdir(), `mathisland-admin-openapi-${process.pid}.json`);
  const tsx = join(REPO_ROOT, 'node_modules', '.bin', process.platform === 'win32' ? 'tsx.cmd' : 'tsx');
  const run = spawnSync(tsx, [join(REPO_ROOT, 'scripts', 'openapi.ts'), file, '--compact'], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`npm run openapi failed (exit ${run.status}):\n${run.stderr || run.stdout}`);
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } finally {
    rmSync(file, { force: true });
  }
}

/** The document cut to the admin API (its paths) with every shared schema. */
function adminDocument(document: Schema): Schema {
  const paths = Object.fromEntries(Object.entries(document.paths as Schema).filter(([path]) => path.startsWith(ADMIN_PREFIX)));
  return { ...document, paths };
}

/** A body field's rule: the constraints a form can check; `nullable` when the field also takes null. */
function ruleOf(schema: Schema): Schema {
  if (Array.isArray(schema.anyOf)) {
    const others = schema.anyOf.filter((s: Schema) => s.type !== 'null');
    const rule = others.length === 1 ? ruleOf(others[0]) : { type: 'string' };
    return others.length < schema.anyOf.length ? { ...rule, nullable: true } : rule;
  }
  const rule: Schema = {};
  for (const key of ['type', 'enum', 'minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'maxItems']) {
    if (schema[key] !== undefined) rule[key] = schema[key];
  }
  // A date or time is checked by the pickers, not by its (very long) pattern.
  if (schema.pattern && !schema.format) rule.pattern = schema.pattern;
  if (schema.items) rule.items = ruleOf(schema.items);
  return rule;
}

/** `schema` itself, or what its `$ref` names in `document` (`#/components/...`: shared parameters and schemas). */
const resolve = (document: Schema, schema: Schema | undefined): Schema | undefined =>
  typeof schema?.$ref === 'string'
    ? resolve(
        document,
        schema.$ref
          .slice(2)
          .split('/')
          .reduce((node: Schema | undefined, key: string) => node?.[key], document),
      )
    : schema;

/** The run-time facts of each admin operation (see the module's doc). */
export function operationsOf(document: Schema): Schema {
  const deref = (schema: Schema | undefined) => resolve(document, schema);
  const operations: Schema = {};
  for (const [path, item] of Object.entries(document.paths as Schema)) {
    if (!path.startsWith(ADMIN_PREFIX)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const query = Object.fromEntries(
        (op.parameters ?? [])
          .map(deref)
          .filter((p: Schema) => p.in === 'query')
          .map((p: Schema) => [p.name, Array.isArray(deref(p.schema)?.enum) ? deref(p.schema)?.enum : null]),
      );
      const body = deref(deref(op.requestBody)?.content?.['application/json']?.schema);
      operations[`${method.toUpperCase()} ${path}`] = {
        ...(op['x-permission'] ? { permission: op['x-permission'] } : {}),
        query,
        ...(body?.properties
          ? {
              body: {
                required: body.required ?? [],
                fields: Object.fromEntries(
                  Object.entries(body.properties as Schema).map(([name, s]) => [name, ruleOf(deref(s) as Schema)]),
                ),
              },
            }
          : {}),
      };
    }
  }
  return operations;
}

function operationsModule(document: Schema): string {
  const operations = operationsOf(document);
  const grantable = operations['POST /api/admin/staff']?.body?.fields?.permissions?.items?.enum;
  if (!Array.isArray(grantable)) throw new Error('the API description names no grantable permissions (POST /api/admin/staff permissions)');
  return [
    '// Generated by packages/admin/scripts/generate.ts from the API description; do not edit.',
    `export const ADMIN_OPERATIONS = ${JSON.stringify(operations, null, 2)} as const;`,
    '',
    `export const GRANTABLE_PERMISSIONS = ${JSON.stringify(grantable)} as const;`,
    '',
  ].join('\n');
}

/** Writes `.generated/` (see the module's doc); returns whether it did. */
export async function generate(options: { force?: boolean } = {}): Promise<boolean> {
  if (!options.force && generatedIsFresh()) return false;
  const document = adminDocument(readDocument());
  const { default: openapiTS, astToString } = await import('openapi-typescript');
  const types = astToString(await openapiTS(document as any, { alphabetize: true }));
  mkdirSync(GENERATED_DIR, { recursive: true });
  writeFileSync(
    OUTPUTS[0] as string,
    `// Generated by packages/admin/scripts/generate.ts from the API description; do not edit.\n${types}`,
  );
  writeFileSync(OUTPUTS[1] as string, operationsModule(document));
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const wrote = await generate({ force: process.argv.includes('--force') });
  console.log(wrote ? `wrote ${GENERATED_DIR}` : `${GENERATED_DIR} is up to date`);
}
