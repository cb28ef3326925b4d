/**
 * Builds endpoint groups exactly as SST v2 does for Lambda (`infra/functions.ts` sstEsbuildOptions, SST's own
 * esbuild, one run for all of them) and reads esbuild's metafile: each bundle's size and what fills it. Used by
 * `npm run bench` and `tests/budgets.test.ts`.
 */
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { sstEsbuildOptions } from '../../infra/functions';
import type { EndpointGroup } from '../../infra/routes';

/** What fills a bundle: a package (`zod`, `@middy/core`) or a folder of the repository, and its bytes in the output. */
export interface BundleInput {
  name: string;
  bytes: number;
}

export interface GroupBundle {
  group: EndpointGroup;
  /** The built handler file (`<outDir>/<group>.mjs`). */
  file: string;
  /** Its size, bytes (minified, as deployed). */
  bytes: number;
  /** Bytes in the output by package or source folder, largest first. */
  inputs: BundleInput[];
  /** Every file of the repository in the bundle (`packages/core/src/...`, `infra/...`), and of packages. */
  files: string[];
  /** What the bundle imports with an ES `import` statement from outside itself (esbuild's metafile): module names. */
  esImports: string[];
}

/**
 * `node_modules/<pkg>/...` → `<pkg>`; a repository file → its domain or folder (`core/progress`, `functions/lib`); the
 * runtime modules' stand-ins → `(require stand-ins)`.
 */
export function inputName(path: string): string {
  // The stand-ins through which a bundle loads the runtime's modules (infra/bundlePlugins.ts requireAtRuntime).
  if (/^(require|import)-at-runtime:/.test(path)) return '(require stand-ins)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (pkg) return pkg[1] as string;
  const core = /^packages\/core\/src\/([^/.]+)/.exec(path);
  if (core) return `core/${core[1]}`;
  const functions = /^packages\/functions\/src\/([^/]+)/.exec(path);
  if (functions) return `functions/${functions[1]}`;
  return path;
}

/**
 * The esbuild SST itself bundles with (its own dependency, 0.18 for SST 2.49, not the root's), so the sizes are
 * those of the deployed files.
 */
export const sstEsbuild: typeof import('esbuild') = createRequire(createRequire(import.meta.url).resolve('sst/package.json'))('esbuild');

/** Builds `groups` into `outDir` as SST deploys them. */
export async function bundleGroups(groups: readonly EndpointGroup[], outDir: string): Promise<GroupBundle[]> {
  const result = await sstEsbuild.build(
    sstEsbuildOptions(
      groups.map((g) => join('packages/functions/src/groups', `${g}.ts`)),
      outDir,
    ),
  );
  return groups.map((group) => {
    const file = join(outDir, `${group}.mjs`);
    const output = Object.entries(result.metafile.outputs).find(([path]) => path.endsWith(`/${group}.mjs`))?.[1];
    if (!output) throw new Error(`esbuild wrote no bundle for ${group}`);
    const byName = new Map<string, number>();
    for (const [path, input] of Object.entries(output.inputs)) {
      byName.set(inputName(path), (byName.get(inputName(path)) ?? 0) + input.bytesInOutput);
    }
    return {
      group,
      file,
      bytes: statSync(file).size,
      inputs: [...byName].map(([name, bytes]) => ({ name, bytes })).sort((a, b) => b.bytes - a.bytes),
      files: Object.keys(output.inputs),
      esImports: output.imports.filter((i) => i.external && i.kind === 'import-statement').map((i) => i.path),
    };
  });
}
