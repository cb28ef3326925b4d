/**
 * The esbuild plugins every endpoint group is bundled with (infra/functions.ts `lambdaNodejs`; issue 15 and issue 30
 * §5: bundle size and cold import): the Lambda runtime's modules loaded with `require` ({@link requireAtRuntime}),
 * the openai SDK's uncalled parts ({@link openAiUncalledParts}) and zod's JSON Schema generator
 * ({@link zodJsonSchemaLeftOut}) left out, and a split group's chunk source maps out of its package
 * ({@link chunkSourceMapsLeftOut}). Typed for SST's own esbuild (0.18) and the root one alike.
 */
import { readFile, rm } from 'node:fs/promises';
import { builtinModules, createRequire } from 'node:module';
import { resolve } from 'node:path';

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
    initialOptions: {
      splitting?: boolean;
      absWorkingDir?: string;
      /** A list of paths or `{ in, out }`, or a record of out to in (esbuild's forms); `unknown` to fit both esbuilds. */
      entryPoints?: unknown;
    };
    onEnd(callback: (result: { metafile?: { outputs: Record<string, { entryPoint?: string }> } }) => Promise<void>): void;
    onResolve(
      options: { filter: RegExp; namespace?: string },
      callback: (args: { path: string; namespace: string; kind?: string }) => { path: string; namespace?: string; external?: boolean },
    ): void;
    onLoad(
      options: { filter: RegExp; namespace?: string },
      callback: (args: { path: string }) => Promise<{ contents: string; loader: 'js' } | undefined>,
    ): void;
  }): void;
}

/** The namespaces of the stand-in modules of {@link requireAtRuntime}: for a `require()`, for an ES `import`. */
const REQUIRED = 'require-at-runtime';
const IMPORTED = 'import-at-runtime';

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
 * Each such import resolves to a stand-in module whose `require` stays external: esbuild emits it through the
 * `require` that SST's ESM banner defines (`createRequire(import.meta.url)`, infra/functions.ts
 * `sstEsbuildOptions`), so in Lambda an SDK package resolves as CommonJS does, through NODE_PATH to the runtime's copy.
 * - A `require()` of one (a bundled CommonJS package's) gets `module.exports = require('<the module>')`.
 * - An ES `import` gets {@link namedStandIn}: an ES module that requires the module once and exports each of its
 *   names as a read of that name, marked pure, so esbuild keeps only the reads the bundle imports, each a plain
 *   binding. esbuild's CommonJS interop (`__toESM`) would instead copy every export of the module into a fresh
 *   namespace of getters at every importing module: 526 for `@aws-sdk/client-dynamodb`, twice, and node:crypto's 67
 *   ten times, about 1.5 ms of each group's own import in a CPU profile (issue 30 §5). A name the bundle imports
 *   that the module does not export fails the build (esbuild: "No matching export").
 * A package imported only inside a module that the code loads with `import()` (the Secrets Manager client, under
 * Powertools' SecretsProvider, `packages/functions/src/lib/deps.ts`) is loaded when that `import()` runs, the first
 * request that reads the stage secret, not at cold start: a hoisted ES import of an external cannot be deferred, a
 * `require` can.
 */
export const requireAtRuntime: EsbuildPlugin = {
  name: 'require-at-runtime',
  setup(build) {
    const standIn = (args: { path: string; namespace: string; kind?: string }) =>
      args.namespace === REQUIRED || args.namespace === IMPORTED
        ? { path: args.path, external: true }
        : { path: args.path, namespace: args.kind === 'import-statement' ? IMPORTED : REQUIRED };
    build.onResolve({ filter: /^@aws-sdk\// }, standIn);
    build.onResolve({ filter: NODE_BUILTIN }, standIn);
    build.onLoad({ filter: /.*/, namespace: REQUIRED }, async (args) => ({ contents: requiredStandIn(args.path), loader: 'js' }));
    build.onLoad({ filter: /.*/, namespace: IMPORTED }, async (args) => ({ contents: namedStandIn(args.path), loader: 'js' }));
  },
};

const requiredStandIn = (path: string) => `module.exports = require(${JSON.stringify(path)});`;

/** The building process's own `require`: the repository's copy of an SDK package, this Node's built-in modules. */
const buildRequire = createRequire(import.meta.url);

/**
 * The ES stand-in of the runtime's module `path` (see {@link requireAtRuntime}): its default export is the module
 * object (as esbuild's interop gives a Node ES module), and every own enumerable name the module has when the
 * bundle is built (the repository's copy of an SDK package, the building Node's built-in module) is exported as
 * `/* @__PURE__ *\/ read(name)`, read once, at the stand-in's evaluation, from the module the Lambda runtime
 * provides. That is how Node's own ES facade of a built-in module binds its names, without reading the names
 * nobody imports (Node 22's lazy `http.WebSocket` among them). A module the build cannot load here gets the
 * CommonJS stand-in.
 */
function namedStandIn(path: string): string {
  let names: string[];
  try {
    names = Object.keys(buildRequire(path) as object).filter((name) => name !== 'default' && /^[A-Za-z_$][\w$]*$/.test(name));
  } catch {
    return requiredStandIn(path);
  }
  return [
    `const runtimeModule = require(${JSON.stringify(path)});`,
    'const read = (name) => runtimeModule[name];',
    'export default runtimeModule;',
    ...names.map((name, i) => `const v${i} = /* @__PURE__ */ read(${JSON.stringify(name)});\nexport { v${i} as ${name} };`),
  ].join('\n');
}

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
        : `constructor() { throw new Error('openai: ${args.path.split(/[\\/]/).pop()} is left out of this bundle (infra/bundlePlugins.ts)'); }`;
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
          `const leftOut = () => () => { throw new Error('zod: ${file} is left out of this Lambda (infra/bundlePlugins.ts)'); };`,
          ...names.map((name) => `export const ${name} = leftOut;`),
        ].join('\n'),
        loader: 'js',
      };
    });
  },
};

/**
 * Takes the source maps of a split build's chunks (the files esbuild writes beside a handler with `splitting`,
 * infra/functions.ts `nodejsProps`) out of the function's package, and out of the build's metafile. SST v2 builds
 * with source maps and takes only the first `.map` the metafile lists out of the package, uploading it for its
 * console (`sst/runtime/handlers/node.js`, `constructs/Function.js`); the tutor's and rag's chunk maps (the openai
 * SDK's alone is 727 KiB) stayed in their zips, read by nothing: Lambda's Node reads no source map unless
 * `--enable-source-maps` is set, which no function sets. The handler's own map stays, the only one left, so SST
 * still uploads it. Nothing happens in a build without splitting or without source maps.
 */
export const chunkSourceMapsLeftOut: EsbuildPlugin = {
  name: 'chunk-source-maps-left-out',
  setup(build) {
    if (!build.initialOptions.splitting) return;
    build.onEnd(async (result) => {
      const outputs = result.metafile?.outputs;
      if (!outputs) return;
      const root = build.initialOptions.absWorkingDir ?? process.cwd();
      const given = (build.initialOptions.entryPoints ?? []) as Array<string | { in: string }> | Record<string, string>;
      const entries = new Set(
        (Array.isArray(given) ? given : Object.values(given)).map((e) => resolve(root, typeof e === 'string' ? e : e.in)),
      );
      // A module loaded with `import()` is an entry point of its own in the metafile: only the handlers' maps stay.
      const handlerMaps = new Set(
        Object.entries(outputs)
          .filter(([, output]) => output.entryPoint !== undefined && entries.has(resolve(root, output.entryPoint)))
          .map(([file]) => `${file}.map`),
      );
      for (const file of Object.keys(outputs)) {
        if (!file.endsWith('.map') || handlerMaps.has(file)) continue;
        await rm(resolve(root, file));
        delete outputs[file];
      }
    });
  },
};
