/**
 * Bundle budgets held by CI (issue 15): each endpoint group built exactly as SST deploys it (infra/functions.ts,
 * ESM, minified, the AWS SDK v3 from the runtime, the openai SDK's uncalled parts left out), measured from
 * esbuild's output. A group that grows past its budget (300 KiB; 500 KiB for tutor and rag, which carry the
 * openai SDK) fails here, with the ten largest inputs in the message. The DynamoDB request counts per route are
 * held by tests/requests.test.ts (exact counts). The built model adapter is run against the local model API, so
 * the SDK as bundled is proven to work, not only to be small; and a built group answers a request in a fresh
 * `node` as Lambda runs it: the runtime's AWS SDK found only through NODE_PATH (infra/bundlePlugins.ts requireAtRuntime).
 * No bundle imports the runtime's modules (the AWS SDK, Node's built-ins) with an ES `import`, which cost cold-start
 * time (docs/performance.md).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { createOpenAiModel } from '@mathisland/core/providers/openai';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { API_DOCS_DIR, OPENAPI_FILE } from '../infra/apiDocs';
import { bundleBudgetKiB, LAMBDA_NODE_FLAGS, sstEsbuildOptions } from '../infra/functions';
import { endpointGroups, isStreamedGroup } from '../infra/routes';
import { bundleGroups, type GroupBundle, sstEsbuild } from '../scripts/lib/bundles';
import { staffSession } from './support/payments';
import { useStack } from './support/stack';

const outDir = mkdtempSync(join(tmpdir(), 'mathisland-bundles-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

const kib = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

describe('bundle budgets', () => {
  let bundles: GroupBundle[] = [];
  beforeAll(async () => {
    bundles = await bundleGroups(endpointGroups, join(outDir, 'groups'));
  }, 120_000);

  it('keeps every endpoint group within its budget: 300 KiB, tutor and rag 500 KiB', () => {
    const over = bundles
      .filter((b) => b.bytes > bundleBudgetKiB(b.group) * 1024)
      .map(
        (b) =>
          `${b.group}: ${kib(b.bytes)} KiB > ${bundleBudgetKiB(b.group)} KiB; largest inputs: ${b.inputs
            .slice(0, 10)
            .map((i) => `${i.name} ${kib(i.bytes)}`)
            .join(', ')}`,
      );
    expect(over).toEqual([]);
    expect(bundles.map((b) => b.group)).toEqual([...endpointGroups]);
  });

  it('carries the seed curriculum in no group and the openai SDK only in the groups that ask the model', () => {
    for (const b of bundles) {
      // The seed's data and its loader; its item schemas (seed/schema.ts) are the content's stored shape.
      expect(
        b.files.filter((f) => /curriculum\/seed\/(.+\.json|load\.ts)$/.test(f)),
        b.group,
      ).toEqual([]);
      const sdk = b.inputs.some((i) => i.name === 'openai');
      expect(sdk, b.group).toBe(b.group === 'tutor' || b.group === 'rag');
    }
  });

  it('carries only its own routes: the whole manifest only in fallback (it tells 404 from 405)', () => {
    for (const b of bundles) {
      const routeFiles = b.files.filter((f) => /^infra\/routes(\.ts|\/(?!types|throttleScopes)\w+\.ts)$/.test(f));
      if (b.group === 'fallback') expect(routeFiles, b.group).toContain('infra/routes.ts');
      else expect(routeFiles, b.group).toEqual([`infra/routes/${b.group}.ts`]);
    }
  });

  it('imports nothing of the runtime as an ES module: the AWS SDK and Node built-ins are required (cold import)', () => {
    // esbuild's metafile, which does not see SST's banner (its imports of module and url).
    for (const b of bundles) expect(b.esImports, b.group).toEqual([]);
  });

  it('reads of the runtime’s SDK only the names it imports, once, and leaves Node’s fetch (and, buffered, its web streams) unloaded at import', async () => {
    // In a fresh node as Lambda runs it, the SDK packages are proxies that count what the bundle asks of them: esbuild's
    // CommonJS interop would list and copy all of their exports (526 for the DynamoDB client) at every importing module.
    const child = (file: string) => `
      globalThis.awslambda = { streamifyResponse: (h) => h, HttpResponseStream: { from: (s) => s } };
      const { createRequire } = await import('node:module');
      const require = createRequire(import.meta.url);
      const asked = { listed: 0, read: new Set() };
      const packages = ['@aws-sdk/client-dynamodb', '@aws-sdk/lib-dynamodb'];
      // Both loaded first, so that the document client's own reads of the client are not counted.
      for (const name of packages) require(name);
      for (const name of packages) {
        const path = require.resolve(name);
        const target = require.cache[path].exports;
        require.cache[path].exports = new Proxy(target, {
          ownKeys: (t) => { asked.listed++; return Reflect.ownKeys(t); },
          getOwnPropertyDescriptor: (t, k) => { asked.listed++; return Reflect.getOwnPropertyDescriptor(t, k); },
          get: (t, k) => { if (typeof k === 'string') asked.read.add(name + ' ' + k); return Reflect.get(t, k); },
        });
      }
      const before = new Set(process.moduleLoadList);
      await import(${JSON.stringify(pathToFileURL(file).href)});
      const loaded = process.moduleLoadList.filter((m) => !before.has(m) && /undici|fetch|stream[/]web$/.test(m));
      console.log(JSON.stringify({ listed: asked.listed, read: [...asked.read].sort(), loaded }));
    `;
    const imported = new Set<string>();
    for (const b of bundles) {
      const stdout = await new Promise<string>((resolve, reject) =>
        execFile(
          process.execPath,
          [...LAMBDA_NODE_FLAGS, '--input-type=module', '-e', child(b.file)],
          { cwd: outDir, env: { PATH: process.env.PATH, NODE_PATH: join(process.cwd(), 'node_modules'), LOG_LEVEL: 'WARN' } },
          (error, out, err) => (error ? reject(new Error(`${b.group}: ${error.message}\n${err}`)) : resolve(out)),
        ),
      );
      const asked: { listed: number; read: string[]; loaded: string[] } = JSON.parse(stdout.trim().split('\n').at(-1) as string);
      expect(asked.listed, b.group).toBe(0);
      // Node's fetch never; its web streams only where middy's streaming mode runs (lib/streaming.ts).
      expect(asked.loaded, b.group).toEqual(isStreamedGroup(b.group) ? ['NativeModule stream/web'] : []);
      expect(asked.read, b.group).toContain('@aws-sdk/client-dynamodb DynamoDBClient');
      expect(asked.read.length, `${b.group}: ${asked.read.join(', ')}`).toBeLessThan(20);
      for (const name of asked.read) imported.add(name);
    }
    // What the table's code imports of the document client, and nothing else of it.
    expect([...imported].filter((n) => n.startsWith('@aws-sdk/lib-dynamodb')).length).toBeLessThan(15);
  }, 120_000);
});

describe('the model adapter as bundled', () => {
  const stack = useStack();

  it('streams a chat answer with its usage and embeds texts through the bundled openai SDK', async () => {
    const result = await sstEsbuild.build(sstEsbuildOptions(['packages/core/src/providers/openai.ts'], join(outDir, 'adapter')));
    expect(Object.keys(result.metafile.inputs).some((p) => p.includes('node_modules/openai/client.mjs'))).toBe(true);
    const adapter: { createOpenAiModel: typeof createOpenAiModel } = await import(
      pathToFileURL(join(outDir, 'adapter', 'openai.mjs')).href
    );
    const ai = stack.deps.settings.ai;
    const model = adapter.createOpenAiModel({ ...ai, apiKey: ai.apiKey ?? '' });
    let text = '';
    let usage: { promptTokens: number; completionTokens: number } | undefined;
    for await (const part of model.streamChat([{ role: 'user', content: 'What is 3 + 4?' }], { signal: new AbortController().signal })) {
      if ('text' in part && part.text) text += part.text;
      if ('usage' in part && part.usage) usage = part.usage;
    }
    expect(text.length).toBeGreaterThan(0);
    expect(usage?.completionTokens).toBeGreaterThan(0);
    const vectors = await model.embed(['three plus four', 'سه به علاوه چهار']);
    expect(vectors).toHaveLength(2);
    expect(vectors[0]!.length).toBeGreaterThan(100);
    expect(vectors[0]!.every((x) => Number.isFinite(x))).toBe(true);
  });
});

describe('a group as built, in a fresh node as Lambda runs it', () => {
  const stack = useStack();
  const secretId = 'arn:aws:secretsmanager:eu-central-1:123456789012:secret:mathisland/test/app-AbCdEf';
  const originSecretId = 'arn:aws:secretsmanager:eu-central-1:123456789012:secret:mathisland/test/origin-GhIjKl';
  const originValue = 'o'.repeat(64);
  const secretValues: Record<string, object> = {
    [secretId]: { SECRET_KEY: 'c'.repeat(64), INTERNAL_SERVICE_KEY: 'k'.repeat(32) },
    [originSecretId]: { current: originValue, previous: '' },
  };
  let secrets: Server;
  let secretsEndpoint = '';
  const secretReads: string[] = [];

  beforeAll(async () => {
    // Secrets Manager's wire protocol (JSON 1.1), two secrets: what the stage secret and the origin secret hold in AWS.
    secrets = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        secretReads.push(String(req.headers['x-amz-target']));
        const body = JSON.parse(Buffer.concat(chunks).toString() || '{}') as { SecretId?: string };
        const value = secretValues[body.SecretId ?? ''];
        res.writeHead(value ? 200 : 400, { 'content-type': 'application/x-amz-json-1.1' });
        res.end(
          JSON.stringify(
            value
              ? { ARN: body.SecretId, Name: String(body.SecretId).split(':').at(-1), SecretString: JSON.stringify(value) }
              : { __type: 'ResourceNotFoundException', Message: 'no such secret' },
          ),
        );
      });
    });
    await new Promise<void>((resolve) => secrets.listen(0, '127.0.0.1', resolve));
    secretsEndpoint = `http://127.0.0.1:${(secrets.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => secrets.close(resolve)));

  /**
   * Runs the built `file`'s handler on `GET path` with `headers` in a fresh node as Lambda runs it; returns what the
   * child printed last: which SDK clients were loaded at import and after the request, the status and the body.
   * The child sees the SDK only through NODE_PATH, as a Lambda sees the runtime's copy: the bundle sits outside the
   * repository (no node_modules above it), so only a CommonJS `require` finds it.
   */
  async function runBuilt(
    file: string,
    dir: string,
    route: { path: string; routeKey: string; body?: unknown },
    headers: Record<string, string>,
    env: Record<string, string> = {},
  ) {
    const method = route.routeKey.split(' ')[0];
    const child = `
      globalThis.awslambda = { streamifyResponse: (h) => h, HttpResponseStream: { from: (s) => s } };
      const { createRequire } = await import('node:module');
      const loaded = (name) => Object.keys(createRequire(import.meta.url).cache).some((f) => f.includes('/@aws-sdk/' + name + '/'));
      const { handler } = await import(${JSON.stringify(pathToFileURL(file).href)});
      const atImport = { dynamodb: loaded('client-dynamodb'), secretsManager: loaded('client-secrets-manager') };
      const event = { version: '2.0', routeKey: ${JSON.stringify(route.routeKey)}, rawPath: ${JSON.stringify(route.path)}, rawQueryString: '',
        headers: { 'x-origin-verify': ${JSON.stringify(originValue)}, 'cloudfront-viewer-address': '198.51.100.7:443', ...${JSON.stringify(headers)} },
        requestContext: { http: { method: ${JSON.stringify(method)}, path: ${JSON.stringify(route.path)}, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: '' },
          requestId: 'r1', routeKey: ${JSON.stringify(route.routeKey)}, stage: '$default', timeEpoch: Date.now() },
        ${route.body === undefined ? '' : `body: ${JSON.stringify(JSON.stringify(route.body))},`} isBase64Encoded: false };
      const result = await handler(event, { awsRequestId: 'r1', functionName: 'probe', getRemainingTimeInMillis: () => 30000 });
      console.log(JSON.stringify({ atImport, afterRequest: { secretsManager: loaded('client-secrets-manager') }, status: result.statusCode, body: JSON.parse(result.body) }));
    `;
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        [...LAMBDA_NODE_FLAGS, '--input-type=module', '-e', child],
        {
          cwd: dir,
          env: {
            PATH: process.env.PATH,
            NODE_PATH: join(process.cwd(), 'node_modules'),
            // DynamoDB Local keeps tables per region and key: the test stack's (packages/core/src/db/client.ts).
            AWS_REGION: process.env.AWS_REGION ?? 'local',
            AWS_ACCESS_KEY_ID: 'test',
            AWS_SECRET_ACCESS_KEY: 'test',
            AWS_ENDPOINT_URL_SECRETS_MANAGER: secretsEndpoint,
            SECRETS_ID: secretId,
            ORIGIN_SECRET_ID: originSecretId,
            STAGE: 'test',
            TABLE_NAME: stack.deps.settings.tableName,
            DYNAMODB_ENDPOINT: inject('dynamodbEndpoint'),
            LOG_LEVEL: 'WARN',
            ...env,
          },
        },
        (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out)),
      ),
    );
    return JSON.parse(stdout.trim().split('\n').at(-1) as string);
  }

  it('loads the DynamoDB client at import, the Secrets Manager client at the first request, and answers', async () => {
    const dir = join(outDir, 'fresh');
    const [health] = await bundleGroups(['health'], dir);
    const answer = await runBuilt(
      health!.file,
      dir,
      { path: '/api/health', routeKey: 'GET /api/health' },
      { 'x-internal-key': 'k'.repeat(32) },
    );
    // The operators' details answer only the INTERNAL_SERVICE_KEY that came from the secret.
    expect(answer).toMatchObject({
      atImport: { dynamodb: true, secretsManager: false },
      afterRequest: { secretsManager: true },
      status: 200,
      body: { status: 'ok', stage: 'test', database: { ok: true }, clientIp: '198.51.100.7' },
    });
    expect(secretReads).toEqual(['secretsmanager.GetSecretValue', 'secretsmanager.GetSecretValue']);
  });

  it('serves the API description from the docs group as built, whose zod, like every group’s, has no JSON Schema generator', async () => {
    const dir = join(outDir, 'described');
    const [docs, learning] = await bundleGroups(['docs', 'learning'], dir);
    const leftOut = 'is left out of this Lambda (infra/bundlePlugins.ts)';
    for (const b of [docs!, learning!]) expect(readFileSync(b.file, 'utf8'), b.group).toContain(leftOut);
    // The document is generated at build time next to the handler, as stacks/apiDocs.ts does after SST bundles it.
    await new Promise<void>((resolve, reject) =>
      execFile(process.execPath, ['--import', 'tsx', 'scripts/openapi.ts', join(dir, API_DOCS_DIR, OPENAPI_FILE), '--compact'], (error) =>
        error ? reject(error) : resolve(),
      ),
    );
    const { cookie } = await staffSession(stack, { isSuperuser: true });
    const answer = await runBuilt(docs!.file, dir, { path: '/api/schema', routeKey: 'GET /api/schema' }, { cookie });
    expect(answer).toMatchObject({ status: 200, body: { openapi: '3.1.0' } });
    expect(Object.keys(answer.body.paths).length).toBeGreaterThan(50);
  });

  it('splits the model groups: the openai SDK in a file of its own, loaded at the first model call, and rag ingests', async () => {
    const dir = join(outDir, 'split');
    const [rag, tutor] = await bundleGroups(['rag', 'tutor'], dir);
    for (const b of [rag!, tutor!]) {
      // The SDK's request code (its X-Stainless headers) is in the function's package, not in the handler's own file.
      expect(readFileSync(b.file, 'utf8'), b.group).not.toContain('X-Stainless-Lang');
      expect(readdirSync(join(dir, b.group)).some((f) => readFileSync(join(dir, b.group, f), 'utf8').includes('X-Stainless-Lang'))).toBe(
        true,
      );
    }
    // The textbook ingest embeds its chunks through the model API: the SDK's file loads and answers.
    secretValues[secretId] = { ...secretValues[secretId], OPENAI_API_KEY: stack.deps.settings.ai.apiKey ?? 'local' };
    const answer = await runBuilt(
      rag!.file,
      dir,
      {
        path: '/api/internal/rag/documents',
        routeKey: 'POST /api/internal/rag/documents',
        body: { gradeId: 4, title: 'Fractions', text: 'Three quarters is more than five eighths. '.repeat(40) },
      },
      { 'x-internal-key': 'k'.repeat(32), 'content-type': 'application/json' },
      { OPENAI_BASE_URL: stack.deps.settings.ai.baseUrl, AI_EMBEDDING_MODEL: stack.deps.settings.ai.embeddingModel },
    );
    expect(answer).toMatchObject({ status: 201, body: { gradeId: 4, title: 'Fractions', chunks: expect.any(Number) } });
    expect(answer.body.chunks).toBeGreaterThan(0);
  });
});
