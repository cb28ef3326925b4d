/**
 * The `docs` function's files (DESIGN §10; `infra/apiDocs.ts`): the viewers' assets are copied from their npm packages
 * into `apidocs/` next to the handler (SST `copyFiles`), and the OpenAPI document is generated into the same folder
 * once the function is bundled (`scripts/openapi.ts` in a child process: the generator needs every endpoint group's
 * definitions, which must never be bundled into a Lambda). So the ~3 MB of viewer assets never enter a JavaScript
 * bundle, and the document served always matches the code deployed with it.
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import type { FunctionProps } from 'sst/constructs';
import { useProject } from 'sst/project.js';
import { API_DOCS_DIR, apiDocsAssets, OPENAPI_FILE } from '../infra/apiDocs';

/** `copyFiles` and the `afterBuild` hook of the `docs` function. */
export function docsFunctionFiles(): Pick<FunctionProps, 'copyFiles' | 'hooks'> {
  const root = useProject().paths.root;
  // The packages are dependencies of the functions workspace; resolve them from there, wherever npm placed them.
  const resolve = createRequire(join(root, 'packages/functions/package.json')).resolve;
  return {
    copyFiles: apiDocsAssets.map((asset) => ({
      from: relative(root, resolve(`${asset.package}/${asset.file}`)),
      to: `${API_DOCS_DIR}/${asset.name}`,
    })),
    hooks: {
      afterBuild: async (_props, out) => {
        const tsx = createRequire(join(root, 'package.json')).resolve('tsx/cli');
        await promisify(execFile)(process.execPath, [tsx, 'scripts/openapi.ts', join(out, API_DOCS_DIR, OPENAPI_FILE), '--compact'], {
          cwd: root,
          maxBuffer: 16 * 1024 * 1024,
        });
      },
    },
  };
}
