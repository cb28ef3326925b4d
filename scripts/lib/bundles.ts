/**
 * Builds endpoint groups exactly as SST v2 does for Lambda (`infra/functions.ts` sstEsbuildOptions, with SST's own
 * esbuild: the groups without splitting in one run, each group with splitting alone, as its function package) and
 * reads esbuild's metafile: each package's size and what fills it. Used by `npm run bench` and `tests/budgets.test.ts`.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { isSplitGroup, sstEsbuildOptions } from '../../infra/functions';
import type { EndpointGroup } from '../../infra/routes';

/** What fills a bundle: a package (`zod`, `@middy/core`) or a folder of the repository, and its bytes in the output. */
export interface BundleInput {
  name: string;
  bytes: number;
}

export interface GroupBundle {
  group: EndpointGroup;
  /** The built handler file (`<outDir>/<group>.mjs`, or `<outDir>/<group>/<group>.mjs` for a group with splitting). */
  file: string;
  /** The function package's size, bytes (minified, as deployed): the handler and, split, the files it loads later. */
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

/**
 * Builds `groups` into `outDir` as SST deploys them: the groups without splitting in one esbuild run (each handler
 * `<outDir>/<group>.mjs`, the same bundle as built alone), each group with splitting (infra/functions.ts
 * `nodejsProps`) alone into `<outDir>/<group>/`, its handler and the files its `import()`s load, as SST writes a
 * function's package. A group's size and inputs are its whole package's.
 */
export async function bundleGroups(groups: readonly EndpointGroup[], outDir: string): Promise<GroupBundle[]> {
  const entry = (group: EndpointGroup) => join('packages/functions/src/groups', `${group}.ts`);
  const built = new Map<EndpointGroup, GroupBundle>();
  const together = groups.filter((g) => !isSplitGroup(g));
  if (together.length > 0) {
    const result = await sstEsbuild.build(sstEsbuildOptions(together.map(entry), outDir));
    for (const group of together) built.set(group, bundleOf(group, join(outDir, `${group}.mjs`), result.metafile, [`/${group}.mjs`]));
  }
  for (const group of groups.filter(isSplitGroup)) {
    const dir = join(outDir, group);
    const result = await sstEsbuild.build(sstEsbuildOptions([entry(group)], dir, { splitting: true }));
    built.set(group, bundleOf(group, join(dir, `${group}.mjs`), result.metafile, ['.mjs']));
  }
  return groups.map((group) => built.get(group) as GroupBundle);
}

type Metafile = Awaited<ReturnType<typeof sstEsbuild.build>>['metafile'];

/** `group`'s bundle from esbuild's `metafile`: the outputs whose path ends with one of `endings`. */
function bundleOf(group: EndpointGroup, file: string, metafile: Metafile, endings: string[]): GroupBundle {
  const outputs = Object.entries(metafile?.outputs ?? {})
    .filter(([path]) => endings.some((e) => path.endsWith(e)))
    .map(([, output]) => output);
  if (!outputs.length) throw new Error(`esbuild wrote no bundle for ${group}`);
  const byName = new Map<string, number>();
  for (const output of outputs) {
    for (const [path, input] of Object.entries(output.inputs)) {
      byName.set(inputName(path), (byName.get(inputName(path)) ?? 0) + input.bytesInOutput);
    }
  }
  return {
    group,
    file,
    bytes: outputs.reduce((sum, o) => sum + o.bytes, 0),
    inputs: [...byName].map(([name, bytes]) => ({ name, bytes })).sort((a, b) => b.bytes - a.bytes),
    files: [...new Set(outputs.flatMap((o) => Object.keys(o.inputs)))],
    esImports: outputs.flatMap((o) => o.imports.filter((i) => i.external && i.kind === 'import-statement').map((i) => i.path)),
  };
}
