/**
 * How each endpoint group's Lambda is built and sized (DESIGN §1, §7; issue 15). Read by `sst.config.ts`
 * (`lambdaNodejs` in the default function props), by the stacks (`functionMemoryMb`, see below), by
 * `npm run bench` and by the budget test (`tests/budgets.test.ts`), which build each group exactly as SST does
 * with {@link sstEsbuildOptions}.
 */
import { readFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import type { EndpointGroup } from './routes';

/**
 * The openai SDK's resources the model adapter calls (`packages/core/src/providers/openai.ts`:
 * `chat.completions.create` and `embeddings.create`). Add a resource here before the adapter calls it.
 */
export const OPENAI_RESOURCES_CALLED = ['chat', 'embeddings'] as const;

/** SDK modules always kept: the resources' index (the client imports it whole) and the shared types. */
const OPENAI_RESOURCES_KEPT = ['index', 'shared'];

/**
 * The chat helpers behind `chat.completions.stream()`, `.runTools()` and `.parse()` (and their event emitter),
 * which the adapter does not call: it streams with `create({ stream: true })`, the SDK's `Stream`.
 */
const OPENAI_HELPERS_UNCALLED = /[\\/]lib[\\/](ChatCompletionStream|ChatCompletionRunner|ChatCompletionStreamingRunner)\.mjs$/;

const OPENAI_RESOURCE = /[\\/]node_modules[\\/]openai[\\/]resources[\\/](.+)\.mjs$/;

/**
 * The part of esbuild's plugin API the plugins below use, typed here because SST builds with its own esbuild
 * (0.18) and scripts with the root one (0.28): the plugins fit both.
 */
interface EsbuildPlugin {
  name: string;
  setup(build: {
    onResolve(
      options: { filter: RegExp; namespace?: string },
      callback: (args: { path: string; namespace: string }) => { path: string; namespace?: string; external?: boolean },
    ): void;
    onLoad(
      options: { filter: RegExp; namespace?: string },
      callback: (args: { path: string }) => Promise<{ contents: string; loader: 'js' } | undefined>,
    ): void;
  }): void;
}

/** The namespace of the stand-in modules of {@link requireAtRuntime}. */
const REQUIRE_AT_RUNTIME = 'require-at-runtime';

/** Node's built-in modules, with or without the `node:` prefix (`http`, `node:stream/web`, ...). */
const NODE_BUILTIN = new RegExp(`^(node:)?(${builtinModules.filter((m) => /^[a-z][a-z0-9_/]*$/.test(m)).join('|')})$`);

/**
 * Loads what the Lambda runtime provides with `require` instead of an ES `import` (issue 15, cold import): the AWS
 * SDK v3 (external, `@aws-sdk/*`) and Node's built-in modules.
 *
 * - The runtime's SDK packages are CommonJS (`dist-cjs`); an ES `import` of one makes Node run its ESM-to-CommonJS
 *   bridge on it (the export lexer over each package's entry, format detection, a module wrapper), which made their
 *   load half as long again: `@aws-sdk/client-dynamodb` and `@aws-sdk/lib-dynamodb`, median of 7 fresh Node 22
 *   processes with Lambda's flags on the bench machine, 115 ms imported against 74 ms required.
 * - An ES `import` of a built-in module builds its ES facade, which reads every export of the module: for `http`
 *   and `https` (imported by `@smithy/node-http-handler`, which the DynamoDB client is built with) that includes
 *   Node 22's lazy `WebSocket`/`fetch` getters, so every cold start compiled Node's bundled undici, about 10 ms of
 *   a group's own import, for nothing (CPU profile of a cold import: `lazyUndici` under `syncExports`). `require`
 *   returns the module object without reading its getters.
 *
 * Each such import of the bundle resolves to a stand-in CommonJS module, `module.exports = require('<the
 * module>')`, whose `require` stays external: esbuild emits it through the `require` that SST's ESM banner defines
 * (`createRequire(import.meta.url)`, {@link sstEsbuildOptions}), so in Lambda an SDK package resolves as CommonJS
 * does, through NODE_PATH to the runtime's copy. Named imports become property reads of the module's exports
 * (esbuild's interop), the same bindings. A package imported only inside a module that the code loads with
 * `import()` (the Secrets Manager client, under Powertools' SecretsProvider, `packages/functions/src/lib/deps.ts`)
 * is loaded when that `import()` runs, the first request that reads the stage secret, not at cold start: a hoisted
 * ES import of an external cannot be deferred, a `require` can.
 */
export const requireAtRuntime: EsbuildPlugin = {
  name: 'require-at-runtime',
  setup(build) {
    const standIn = (args: { path: string; namespace: string }) =>
      args.namespace === REQUIRE_AT_RUNTIME ? { path: args.path, external: true } : { path: args.path, namespace: REQUIRE_AT_RUNTIME };
    build.onResolve({ filter: /^@aws-sdk\// }, standIn);
    build.onResolve({ filter: NODE_BUILTIN }, standIn);
    build.onLoad({ filter: /.*/, namespace: REQUIRE_AT_RUNTIME }, async (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: 'js',
    }));
  },
};

/** The names a module exports (`export class|function|const|let X`, `export { A, B as C }`). */
function exportedNames(source: string): string[] {
  const names = new Set<string>();
  for (const m of source.matchAll(/export (?:class|function\*?|const|let|var) ([A-Za-z_$][\w$]*)/g)) names.add(m[1] as string);
  for (const m of source.matchAll(/export \{([^}]*)\}/g)) {
    for (const part of (m[1] as string).split(',')) {
      const name = part
        .trim()
        .split(/\s+as\s+/)
        .pop()
        ?.trim();
      if (name && !name.startsWith('type ')) names.add(name);
    }
  }
  return [...names];
}

/**
 * Leaves out of a bundle the parts of the openai SDK the adapter never calls (issue 15: the tutor and rag bundles
 * ≤ 500 KiB with the SDK). The SDK's client constructs every API resource in its constructor (`this.files = new
 * Files(this)`, ... 25 of them), so no bundler can drop one, though the adapter calls two: the 411 KiB SDK
 * is whole in each bundle. This plugin loads each resource module outside {@link OPENAI_RESOURCES_CALLED} as a
 * stand-in that exports the same names as empty classes (constructed by the client, never called), and the chat
 * helpers the adapter does not use as classes that throw when constructed; what stays is the SDK's own client,
 * request, retry, error and streaming code and the two resources, exactly as published. A name a kept module
 * imports that a stand-in lacks fails the build; `tests/budgets.test.ts` runs the built adapter against the
 * local model API (a streamed chat and an embedding) to prove the bundle works.
 */
export const openAiUncalledParts: EsbuildPlugin = {
  name: 'openai-uncalled-parts',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/]openai[\\/](resources|lib)[\\/].+\.mjs$/ }, async (args) => {
      const resource = OPENAI_RESOURCE.exec(args.path)?.[1];
      const top = resource?.split(/[\\/]/)[0];
      const uncalledResource = top !== undefined && ![...OPENAI_RESOURCES_CALLED, ...OPENAI_RESOURCES_KEPT].includes(top);
      const uncalledHelper = OPENAI_HELPERS_UNCALLED.test(args.path);
      if (!uncalledResource && !uncalledHelper) return undefined;
      const body = uncalledResource
        ? 'constructor(client) { this._client = client; }'
        : `constructor() { throw new Error('openai: ${args.path.split(/[\\/]/).pop()} is left out of this bundle (infra/functions.ts)'); }`;
      const names = exportedNames(await readFile(args.path, 'utf8'));
      return { contents: names.map((name) => `export class ${name} { ${body} }`).join('\n'), loader: 'js' };
    });
  },
};

/** zod's JSON Schema generator: the processors, the conversion, the generator class. */
const ZOD_JSON_SCHEMA = /[\\/]node_modules[\\/]zod[\\/]v4[\\/]core[\\/](json-schema-processors|to-json-schema|json-schema-generator)\.js$/;

/**
 * Leaves zod's JSON Schema generator out of every Lambda (issue 30 §5: cold import and the budgets). zod 4's classic
 * schemas carry a `toJSONSchema()` method and a JSON Schema processor per type, so every bundle held the whole
 * generator (about 19 KiB of a group's ~280 KiB, parsed and evaluated at every cold start), though no Lambda turns a
 * schema into JSON Schema at run time: validation never does, and the API description (`GET /api/schema/`) is
 * generated at build time by `scripts/openapi.ts` into a file next to the docs handler (stacks/apiDocs.ts). Its three
 * modules load as stand-ins exporting the same names, functions that return a function that throws when called (zod
 * makes those methods lazily: nothing calls them unless a Lambda asks a schema for its JSON Schema, which then fails
 * loudly). `tests/budgets.test.ts` runs built groups, the docs group serving the document among them.
 */
export const zodJsonSchemaLeftOut: EsbuildPlugin = {
  name: 'zod-json-schema-left-out',
  setup(build) {
    build.onLoad({ filter: ZOD_JSON_SCHEMA }, async (args) => {
      const file = args.path.split(/[\\/]/).pop();
      const names = exportedNames(await readFile(args.path, 'utf8'));
      return {
        contents: [
          `const leftOut = () => () => { throw new Error('zod: ${file} is left out of this Lambda (infra/functions.ts)'); };`,
          ...names.map((name) => `export const ${name} = leftOut;`),
        ].join('\n'),
        loader: 'js',
      };
    });
  },
};

/**
 * SST v2's `nodejs` function props for every group: ESM, minified, and the AWS SDK v3 left to the Lambda
 * runtime. `nodejs22.x` ships the SDK v3 (`@aws-sdk/*` with its `@smithy/*` dependencies, CommonJS) on NODE_PATH,
 * and the bundles `require` it ({@link requireAtRuntime}). Bundled instead (minified, tree-shaken), the DynamoDB
 * and Secrets Manager clients add about 390 KiB to every group, 617 to 661 KiB in all, twice the budget, for a
 * whole import a quarter shorter at most, on some groups no shorter (docs/performance.md). This is also the AWS CDK's default for Node 18+
 * (`NodejsFunction` externalModules). `@smithy/node-http-handler`, which the DynamoDB client is built with, stays bundled.
 * Without `minify` SST ships unminified code (its default). The openai SDK's uncalled parts are left out
 * ({@link openAiUncalledParts}), and zod's JSON Schema generator from every group ({@link zodJsonSchemaLeftOut}).
 * Names are not kept (SST's default keeps them): keeping them wrapped every function and class of a bundle in a
 * `defineProperty(fn, "name")` call at import, 757 of them in the learning group, and 5 % of its bytes (issue 30
 * §5); no code here reads a bundled function's or class's name (errors set their `name`; the AWS SDK is not bundled),
 * so only messages of other libraries' errors (jose's) show minified names.
 */
export const lambdaNodejs = {
  format: 'esm',
  minify: true,
  esbuild: { external: ['@aws-sdk/*'], keepNames: false, plugins: [requireAtRuntime, openAiUncalledParts, zodJsonSchemaLeftOut] },
} as const;

/**
 * The esbuild options SST v2.49 (`sst/runtime/handlers/node.js`, deploy mode) derives from
 * {@link lambdaNodejs} for handler files: bundled for Node, ESM with SST's `createRequire`/`__dirname` banner,
 * target esnext, `module` before `main`, names not kept ({@link lambdaNodejs}), metafile on. SST builds one handler per call into
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
