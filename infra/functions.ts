/**
 * How each endpoint group's Lambda is built and sized (DESIGN §1, §7; issue 15). Read by `sst.config.ts`
 * (`lambdaNodejs` in the default function props), by the stacks (`functionMemoryMb`, see below), by
 * `npm run bench` and by the budget test (`tests/budgets.test.ts`), which build each group exactly as SST does
 * with {@link sstEsbuildOptions}.
 */
import { chunkSourceMapsLeftOut, openAiUncalledParts, requireAtRuntime, zodJsonSchemaLeftOut } from './bundlePlugins';
import type { EndpointGroup } from './routes';

/**
 * SST v2's `nodejs` function props for every group: ESM, minified, and the AWS SDK v3 left to the Lambda
 * runtime. `nodejs22.x` ships the SDK v3 (`@aws-sdk/*` with its `@smithy/*` dependencies, CommonJS) on NODE_PATH,
 * and the bundles `require` it ({@link requireAtRuntime}). Bundled instead (minified, tree-shaken), the DynamoDB
 * and Secrets Manager clients add about 390 KiB to every group, 617 to 661 KiB in all, twice the budget, for a
 * whole import a quarter shorter at most, on some groups no shorter (docs/performance.md). This is also the AWS CDK's default for Node 18+
 * (`NodejsFunction` externalModules). `@smithy/node-http-handler`, which the DynamoDB client is built with, stays bundled.
 * Without `minify` SST ships unminified code (its default). The openai SDK's uncalled parts are left out
 * ({@link openAiUncalledParts}), zod's JSON Schema generator from every group ({@link zodJsonSchemaLeftOut}), and a
 * split group's chunk source maps from its package ({@link chunkSourceMapsLeftOut}).
 * Names are not kept (SST's default keeps them): keeping them wrapped every function and class of a bundle in a
 * `defineProperty(fn, "name")` call at import, 757 of them in the learning group, and 5 % of its bytes (issue 30
 * §5); no code here reads a bundled function's or class's name (errors set their `name`; the AWS SDK is not bundled),
 * so only messages of other libraries' errors (jose's) show minified names.
 */
export const lambdaNodejs = {
  format: 'esm',
  minify: true,
  esbuild: {
    external: ['@aws-sdk/*'],
    keepNames: false,
    plugins: [requireAtRuntime, openAiUncalledParts, zodJsonSchemaLeftOut, chunkSourceMapsLeftOut],
  },
} as const;

/** The model groups (tutor, rag): bundled with code splitting, see {@link nodejsProps}. */
export const isSplitGroup = (group: EndpointGroup): boolean => modelGroups.includes(group);

/**
 * SST's `nodejs` props of a function: {@link lambdaNodejs} (mutable copies, as SST's types want), and for a group that
 * calls the model, `splitting: true`. Those groups load the openai SDK with `import()` at their first model call
 * (core providers/model.ts); split, esbuild writes it (and the other modules only an `import()` reaches: Powertools'
 * secrets provider, the SDK's event streams) to files of their own beside the handler, in the same function package,
 * so a cold start no longer parses them: the SDK is 113 KiB, about 1.7 ms of rag's cold import and 5 ms of the
 * tutor's on the bench machine (issue 30 §5). The other groups stay one file: splitting saved them nothing measurable
 * (their lazily loaded modules are a few KiB). Used by `sst.config.ts` (the default, no group) and the group functions
 * (stacks/Api.ts, stacks/Tutor.ts); SST's `mergeProps` replaces `nodejs` whole.
 */
export function nodejsProps(group?: EndpointGroup) {
  return {
    ...lambdaNodejs,
    esbuild: {
      external: [...lambdaNodejs.esbuild.external],
      keepNames: lambdaNodejs.esbuild.keepNames,
      plugins: [...lambdaNodejs.esbuild.plugins],
    },
    ...(group !== undefined && isSplitGroup(group) ? { splitting: true } : {}),
  };
}

/**
 * The esbuild options SST v2.49 (`sst/runtime/handlers/node.js`, deploy mode) derives from
 * {@link lambdaNodejs} for handler files: bundled for Node, ESM with SST's `createRequire`/`__dirname` banner,
 * target esnext, `module` before `main`, names not kept ({@link lambdaNodejs}), metafile on. SST builds one handler per call into
 * `<name>.mjs`; the same options over several `entries` written to `outdir` as `<name>.mjs` give each handler
 * the same bundle in one esbuild run. Source maps are left out here (SST writes them to a separate `.map` file
 * that the runtime does not load). With `splitting` (one entry: a group of {@link nodejsProps} with splitting) the
 * modules only an `import()` reaches go to files of their own beside the handler, as SST writes them.
 */
export function sstEsbuildOptions(entries: string[], outdir: string, options: { splitting?: boolean } = {}) {
  return {
    entryPoints: entries,
    splitting: options.splitting === true,
    outdir,
    outExtension: { '.js': '.mjs' },
    platform: 'node' as const,
    external: ['sharp', 'pg-native', ...lambdaNodejs.esbuild.external],
    keepNames: lambdaNodejs.esbuild.keepNames,
    bundle: true,
    logLevel: 'silent' as const,
    metafile: true as const,
    format: 'esm' as const,
    target: 'esnext',
    mainFields: ['module', 'main'],
    banner: {
      js: [
        `import { createRequire as topLevelCreateRequire } from 'module';`,
        `const require = topLevelCreateRequire(import.meta.url);`,
        `import { fileURLToPath as topLevelFileUrlToPath, URL as topLevelURL } from "url"`,
        `const __dirname = topLevelFileUrlToPath(new topLevelURL(".", import.meta.url))`,
        '',
      ].join('\n'),
    },
    minify: lambdaNodejs.minify,
    plugins: [...lambdaNodejs.esbuild.plugins],
  };
}

/**
 * The Node flags Lambda's `nodejs22.x` runtime starts with (AWS Lambda Developer Guide, "Building Lambda functions
 * with Node.js": the experimental features Lambda disables). Node 22 turns both on by default, so a process without
 * these flags loads modules otherwise than Lambda (module format detection, `require` of ES modules). Used by
 * `npm run bench` (scripts/lib/bench/imports.ts) and `tests/budgets.test.ts` to run a built group as Lambda does.
 */
export const LAMBDA_NODE_FLAGS = ['--no-experimental-detect-module', '--no-experimental-require-module'];

/** The groups that call the model (openai-compatible adapter, the tutor's gate lexicon, n2words). */
const modelGroups: readonly EndpointGroup[] = ['tutor', 'rag'];

/**
 * Largest allowed bundle per group, KiB (issue 15): 300 for every group, 500 for the groups that call the
 * model. `tests/budgets.test.ts` fails when a group grows past it.
 */
export const bundleBudgetKiB = (group: EndpointGroup): number => (modelGroups.includes(group) ? 500 : 300);

/**
 * Memory of each group's Lambda, MB, sized from the peak RSS measured under load by `npm run bench` (section
 * "Load" of docs/performance.md): the smallest of 512, 768, 1024, ... that leaves the measured peak at most
 * half of it (V8 grows its heap lazily and a Lambda instance must not swap), and never under 512 MB, because
 * Lambda gives CPU in proportion to memory and below 512 MB the cold start's module evaluation slows several
 * times over (1,769 MB is one full vCPU). Read by the Api and Tutor stacks (`memorySize`).
 */
export const functionMemoryMb: Record<EndpointGroup, number> = {
  health: 512,
  auth: 512,
  curriculum: 512,
  learning: 512,
  user: 512,
  fallback: 512,
  leaderboard: 512,
  notifications: 512,
  support: 512,
  billing: 512,
  payment: 512,
  marketplace: 512,
  admin: 512,
  adminsales: 512,
  admincatalog: 512,
  adminsupport: 512,
  tutor: 512,
  ai: 512,
  rag: 512,
  docs: 512,
  admintools: 512,
  adminexport: 512,
};

/**
 * The board-snapshot job's Lambda (stacks/boardSnapshots.ts; core leaderboard/snapshot.ts): its timeout, s (a run
 * every minute must end before the next), and memory, MB. The capacity model holds its longest run at the target to
 * half of each (`npm run capacity`, docs/capacity.md).
 */
export const BOARD_SNAPSHOT_JOB = { timeoutSeconds: 50, memoryMb: 1024 } as const;
