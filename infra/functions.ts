/**
 * How each endpoint group's Lambda is built and sized (DESIGN §1, §7; issue 15). Read by `sst.config.ts`
 * (`lambdaNodejs` in the default function props), by the stacks (`functionMemoryMb`, see below), by
 * `npm run bench` and by the budget test (`tests/budgets.test.ts`), which build each group exactly as SST does
 * with {@link sstEsbuildOptions}.
 */
import type { EndpointGroup } from './routes';

/**
 * SST v2's `nodejs` function props for every group: ESM, minified, and the AWS SDK v3 left to the Lambda
 * runtime. `nodejs22.x` ships the SDK v3 (`@aws-sdk/*` with its `@smithy/*` dependencies) and, since
 * `nodejs18.x`, resolves ES-module imports through NODE_PATH, so an external `@aws-sdk/*` import loads the
 * runtime's copy; bundled, the DynamoDB and Secrets Manager clients alone add about 400 KiB to every group
 * (measured in docs/performance.md). This is also the AWS CDK's default for Node 18+ (`NodejsFunction`
 * externalModules). `@smithy/node-http-handler`, which the DynamoDB client is built with, stays bundled.
 * Without `minify` SST ships unminified code (its default).
 */
export const lambdaNodejs = {
  format: 'esm',
  minify: true,
  esbuild: { external: ['@aws-sdk/*'] },
} as const;

/**
 * The esbuild options SST v2.49 (`sst/runtime/handlers/node.js`, deploy mode) derives from
 * {@link lambdaNodejs} for handler files: bundled for Node, ESM with SST's `createRequire`/`__dirname` banner,
 * target esnext, `module` before `main`, names kept, metafile on. SST builds one handler per call into
 * `<name>.mjs`; the same options over several `entries` written to `outdir` as `<name>.mjs` give each handler
 * the same bundle in one esbuild run. Source maps are left out here (SST writes them to a separate `.map` file
 * that the runtime does not load).
 */
export function sstEsbuildOptions(entries: string[], outdir: string) {
  return {
    entryPoints: entries,
    outdir,
    outExtension: { '.js': '.mjs' },
    platform: 'node' as const,
    external: ['sharp', 'pg-native', ...lambdaNodejs.esbuild.external],
    keepNames: true,
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
  };
}

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
};
