/**
 * The whole service on one machine (DESIGN §6), used by `npm start` (`main.ts`) and by the tests:
 * DynamoDB Local (or a given endpoint), the table from `infra/table.ts`, data migrations, the HTTP server
 * with every route of `infra/routes.ts`, and the provider fakes under `/_local/`.
 *
 * Provider settings left unset point at the local fakes; a setting given as an empty string stays off.
 * The marketplace: with neither MARKETPLACE_API_SECRET nor MARKETPLACE_CLIENT_ID set, the fake under
 * `/_local/marketplace` with a static secret generated once into DATA_DIR (MARKETPLACE_API_SECRET unset) and an OAuth client
 * of its own (MARKETPLACE_CLIENT_ID unset), package `ir.mathisland.app`; `MARKETPLACE_API_SECRET=` (empty) tries the
 * OAuth mode against the fake, both empty leave it without a credential.
 * The tutor's model: OPENAI_API_KEY unset → the fake model under `/_local/llm/v1` (OPENAI_BASE_URL, unless set,
 * points there); OPENAI_API_KEY='' → the tutor is off; a real key (and base URL) → the real model. With the
 * tutor on, the seed textbook excerpts are ingested at start (once per embedding model).
 *
 * The staff panel (`packages/admin`) is served at `/admin/` from its build, `packages/admin/dist/admin`; `npm start`
 * builds it first when it is missing or older than its sources ({@link ensureAdminBuilt}).
 */

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDeps, type Clock, type Deps, loadSettings, SettingsError } from '@mathisland/core';
import { ensureTable } from '@mathisland/core/db';
import { applyMigrations } from '@mathisland/core/migrations';
import { openAiModel } from '@mathisland/core/providers/model';
import { seedTextbook } from '@mathisland/core/tutor';
import { apiHandlers } from './apiDocs';
import { type DynamoLocal, startDynamoLocal } from './dynamo';
import { frontendStandIn } from './fakes/frontend';
import { createGatewayFake } from './fakes/gateway';
import { createLlmFake, type LlmFakeConfig, type LlmRequest } from './fakes/llm';
import { createMarketplaceFake } from './fakes/marketplace';
import { createSmsFake, type SentSms } from './fakes/sms';
import { boardSnapshotSchedule } from './schedule';
import { ensureMarketplaceSecret, ensureSecretKey } from './secretKey';
import { adminSite, createLocalServer } from './server';

export interface LocalStackOptions {
  /** Port to listen on; 0 picks a free one. Default PORT or 3000. */
  port?: number;
  host?: string;
  /** Environment overrides on top of process.env (settings of infra/settings.ts). */
  env?: Record<string, string | undefined>;
  /** Use this DynamoDB endpoint instead of starting DynamoDB Local. */
  dynamodbEndpoint?: string;
  /** Keep DynamoDB Local's data in memory instead of DATA_DIR. */
  inMemory?: boolean;
  clock?: Clock;
  /** The built staff panel to serve at `/admin/` (default `packages/admin/dist/admin`). */
  adminDist?: string;
  /**
   * Check every answer against the OpenAPI document (`responseCheck.ts`; test stacks): a buffered answer that differs
   * becomes a 500 `response_undocumented`, and `close()` rejects while any answer differed.
   */
  checkResponses?: boolean;
}

export interface LocalStack {
  baseUrl: string;
  port: number;
  deps: Deps;
  smsOutbox: SentSms[];
  /** The fake payment gateway's state (payments by authority, the terminal's registered domain). */
  gateway: ReturnType<typeof createGatewayFake>;
  /** The fake marketplace's state (purchases by token, the calls it received, its configuration). */
  marketplace: ReturnType<typeof createMarketplaceFake>;
  /** The fake model: chat requests received (newest last) and its delays (mutable). */
  llm: { requests: LlmRequest[]; config: LlmFakeConfig };
  /** Warnings to print (e.g. a generated SECRET_KEY). */
  warnings: string[];
  /** Calls of the sms, gateway and model fakes that a fault answered (`POST /_local/<fake>/faults`). */
  faultsInjected(): number;
  /** Answers that differed from the API document (with `checkResponses`), as `<route> <status>: <problem>`. */
  responseMismatches: string[];
  close(): Promise<void>;
}

const LOCAL_SMS_KEY = 'local-sms-api-key';
/** The fake gateway's merchant id (a 36-character UUID, like a real one). */
export const LOCAL_GATEWAY_MERCHANT_ID = '00000000-0000-4000-8000-00000000cafe';

/** Where a running `npm start` writes its DynamoDB Local endpoint, for scripts (createsuperuser) to find it. */
export const endpointFile = (dataDir: string): string => join(dataDir, 'dynamodb.endpoint');

const LOCAL_LLM_KEY = 'local-llm-api-key';
/** The fake marketplace's package name and OAuth client (its static secret is generated once into DATA_DIR). */
export const LOCAL_MARKETPLACE_PACKAGE = 'ir.mathisland.app';
export const LOCAL_MARKETPLACE_CLIENT_ID = 'local-marketplace-client';
const LOCAL_MARKETPLACE_CLIENT_SECRET = 'local-marketplace-client-secret';
/** The marketplace settings a stack using the fake publishes for scripts (no real secret: the fake's own values). */
const LOCAL_MARKETPLACE_SETTINGS = [
  'MARKETPLACE_BASE_URL',
  'MARKETPLACE_PACKAGE_NAME',
  'MARKETPLACE_CLIENT_ID',
  'MARKETPLACE_CLIENT_SECRET',
];

/**
 * Fills the marketplace settings for the fake when none points at a real marketplace (see the module doc); returns
 * the settings the fake accepts. `baseUrl` is filled in once the server listens.
 */
function localMarketplace(env: Record<string, string | undefined>, dataDir: string) {
  const real = Boolean(env.MARKETPLACE_API_SECRET || env.MARKETPLACE_CLIENT_ID);
  if (!real) {
    if (env.MARKETPLACE_API_SECRET === undefined) env.MARKETPLACE_API_SECRET = ensureMarketplaceSecret(dataDir).key;
    if (env.MARKETPLACE_CLIENT_ID === undefined) {
      env.MARKETPLACE_CLIENT_ID = LOCAL_MARKETPLACE_CLIENT_ID;
      env.MARKETPLACE_CLIENT_SECRET ??= LOCAL_MARKETPLACE_CLIENT_SECRET;
    }
    env.MARKETPLACE_PACKAGE_NAME ??= LOCAL_MARKETPLACE_PACKAGE;
  }
  return {
    useFake: !real && env.MARKETPLACE_BASE_URL === undefined,
    fake: createMarketplaceFake({
      packageName: env.MARKETPLACE_PACKAGE_NAME || LOCAL_MARKETPLACE_PACKAGE,
      apiSecret: real ? undefined : env.MARKETPLACE_API_SECRET || undefined,
      clientId: real ? undefined : env.MARKETPLACE_CLIENT_ID || undefined,
      clientSecret: real ? undefined : env.MARKETPLACE_CLIENT_SECRET || undefined,
      now: () => Date.now(),
    }),
  };
}

/** The staff panel's workspace and its build (its `dist/` mirrors the URL space: `dist/admin/` is `/admin/`). */
export const ADMIN_DIR = fileURLToPath(new URL('../../admin/', import.meta.url));
export const ADMIN_DIST = join(ADMIN_DIR, 'dist', 'admin');
const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

/** Whether the panel's build is there and newer than its sources. */
export function adminBuildState(): 'missing' | 'stale' | 'fresh' {
  const index = join(ADMIN_DIST, 'index.html');
  if (!existsSync(index)) return 'missing';
  const sources = Math.max(...['src', 'index.html', 'vite.config.ts', 'package.json'].map((name) => newestMtime(join(ADMIN_DIR, name))));
  return sources > statSync(index).mtimeMs ? 'stale' : 'fresh';
}

/**
 * Builds the staff panel with its workspace's build script (`npm run build -w packages/admin`, Vite, a few
 * seconds) unless the build is fresh (or `force`). `quiet` keeps Vite's output for the error only.
 */
export async function ensureAdminBuilt(options: { force?: boolean; quiet?: boolean } = {}): Promise<'built' | 'fresh'> {
  if (!options.force && adminBuildState() === 'fresh') return 'fresh';
  // Under npm, npm_execpath is npm's own script: run it with this Node.
  const execpath = process.env.npm_execpath;
  const script = ['run', 'build', '-w', 'packages/admin'];
  const [command, args] = execpath?.endsWith('.js') ? [process.execPath, [execpath, ...script]] : ['npm', script];
  const output: Buffer[] = [];
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(command, args, { cwd: REPO_ROOT, stdio: options.quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
    child.once('error', reject);
    child.once('close', resolve);
  });
  if (code !== 0) throw new Error(`building the staff panel failed (exit ${code})\n${Buffer.concat(output).toString()}`);
  return 'built';
}

export async function startLocalStack(options: LocalStackOptions = {}): Promise<LocalStack> {
  const env: Record<string, string | undefined> = { ...process.env, ...options.env };
  const warnings: string[] = [];
  const dataDir = env.DATA_DIR || '.data';
  loadSettings(env); // fail fast on a bad setting, before anything starts
  if (env.SECRET_KEY === undefined) {
    const { key, generated } = ensureSecretKey(dataDir);
    env.SECRET_KEY = key;
    if (generated) warnings.push(`SECRET_KEY was unset: generated one into ${join(dataDir, 'secret-key')}`);
  }

  let dynamo: DynamoLocal | undefined;
  const endpoint = options.dynamodbEndpoint ?? env.DYNAMODB_ENDPOINT;
  if (endpoint) env.DYNAMODB_ENDPOINT = endpoint;
  else {
    dynamo = await startDynamoLocal({ dbPath: options.inMemory ? undefined : join(dataDir, 'dynamodb') });
    env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  }

  let markReady!: (deps: Deps) => void;
  const ready = new Promise<Deps>((r) => {
    markReady = r;
  });
  const { handlers, responseMismatches } = await apiHandlers(() => ready, options.checkResponses === true);
  const schedule = boardSnapshotSchedule(() => ready);
  handlers.leaderboard = schedule.before(handlers.leaderboard);
  const smsKey = env.SMS_API_KEY === undefined ? LOCAL_SMS_KEY : env.SMS_API_KEY;
  const sms = createSmsFake({ apiKey: smsKey, template: env.SMS_TEMPLATE || 'verify' });
  const gateway = createGatewayFake({
    merchantId: env.GATEWAY_MERCHANT_ID === undefined ? LOCAL_GATEWAY_MERCHANT_ID : env.GATEWAY_MERCHANT_ID,
  });
  const llm = createLlmFake({ apiKey: env.OPENAI_API_KEY === undefined ? LOCAL_LLM_KEY : env.OPENAI_API_KEY });
  const marketplace = localMarketplace(env, dataDir);
  if (options.clock) marketplace.fake.options.now = () => (options.clock as Clock).now();
  const server = createLocalServer({
    handlers,
    mounts: {
      '/_local/sms': sms.handle,
      '/_local/gateway': gateway.handle,
      '/': frontendStandIn,
      '/_local/llm': llm.handle,
      '/admin': adminSite(options.adminDist ?? ADMIN_DIST),
      '/_local/marketplace': marketplace.fake.handle,
    },
    ready,
  });
  const port = options.port ?? Number(env.PORT ?? 3000);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, options.host ?? '127.0.0.1', () => resolve());
    });
  } catch (error) {
    await dynamo?.stop();
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new SettingsError(`port ${port} is in use (another npm start?); set PORT to another port`);
    }
    throw error;
  }
  const actualPort = (server.address() as AddressInfo).port;
  const baseUrl = `http://localhost:${actualPort}`;

  if (env.SMS_API_KEY === undefined) {
    env.SMS_API_KEY = LOCAL_SMS_KEY;
    env.SMS_BASE_URL ??= `${baseUrl}/_local/sms`;
  }
  if (env.GATEWAY_MERCHANT_ID === undefined) {
    env.GATEWAY_MERCHANT_ID = LOCAL_GATEWAY_MERCHANT_ID;
    env.GATEWAY_BASE_URL ??= `${baseUrl}/_local/gateway`;
  }
  if (env.OPENAI_API_KEY === undefined) {
    env.OPENAI_API_KEY = LOCAL_LLM_KEY;
    env.OPENAI_BASE_URL ??= `${baseUrl}/_local/llm/v1`;
  }
  env.PUBLIC_BASE_URL ??= baseUrl;
  env.FRONTEND_URL ??= `${baseUrl}/`;
  if (marketplace.useFake) env.MARKETPLACE_BASE_URL = `${baseUrl}/_local/marketplace`;

  try {
    const ownDeps = buildDeps(loadSettings(env), {
      adapters: { model: openAiModel },
      ...(options.clock ? { clock: options.clock } : {}),
    });
    await ensureTable(ownDeps.db);
    await applyMigrations(ownDeps.db, () => ownDeps.clock.now());
    const ownEndpointFile = dynamo && !options.inMemory ? endpointFile(dataDir) : undefined;
    if (ownEndpointFile) {
      mkdirSync(dataDir, { recursive: true });
      // Scripts (createsuperuser, marketplace:authorize) find the table here, and the settings this stack filled in.
      const filled = ['PUBLIC_BASE_URL', ...(marketplace.useFake ? LOCAL_MARKETPLACE_SETTINGS : [])];
      const settings = Object.fromEntries(filled.map((name) => [name, env[name]]));
      writeFileSync(ownEndpointFile, `${JSON.stringify({ endpoint: env.DYNAMODB_ENDPOINT, tableName: ownDeps.db.tableName, settings })}\n`);
    }
    marketplace.fake.options.redirectUri = ownDeps.settings.marketplace.redirectUri;
    markReady(ownDeps);
    // After the server is ready: the fake model that embeds the excerpts is served by this same server.
    try {
      await seedTextbook(ownDeps);
    } catch (error) {
      warnings.push(`tutor: the seed textbook could not be ingested (${(error as Error).message}); the tutor answers without it`);
    }
    return {
      baseUrl,
      port: actualPort,
      deps: ownDeps,
      smsOutbox: sms.outbox,
      gateway,
      marketplace: marketplace.fake,
      llm: { requests: llm.requests, config: llm.config },
      warnings,
      faultsInjected: () => sms.faultCounts.injected + gateway.faultCounts.injected + llm.faultCounts.injected,
      responseMismatches,
      async close() {
        if (ownEndpointFile) rmSync(ownEndpointFile, { force: true });
        server.closeAllConnections();
        await new Promise((r) => server.close(r));
        ownDeps.db.raw.destroy();
        schedule.close();
        await dynamo?.stop();
        if (responseMismatches.length) {
          throw new Error(`answers differed from the API document:\n${[...new Set(responseMismatches)].join('\n')}`);
        }
      },
    };
  } catch (error) {
    server.close();
    await dynamo?.stop();
    throw error;
  }
}
