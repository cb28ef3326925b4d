/**
 * The whole service on one machine (DESIGN §6), used by `npm start` (`main.ts`) and by the tests:
 * DynamoDB Local (or a given endpoint), the table from `infra/table.ts`, data migrations, the HTTP server
 * with every route of `infra/routes.ts`, and the provider fakes under `/_local/`.
 *
 * Provider settings left unset point at the local fakes; a setting given as an empty string stays off.
 * The marketplace: with neither MARKETPLACE_API_SECRET nor MARKETPLACE_CLIENT_ID set, the fake under
 * `/_local/marketplace` with a static secret generated once into DATA_DIR (MARKETPLACE_API_SECRET unset) and an OAuth client
 * of its own (MARKETPLACE_CLIENT_ID unset), package `ir.mathisland.app`; `MARKETPLACE_API_SECRET=` (empty) tries the
 * OAuth mode against the fake, both empty leave it without a credential. The fake signs purchases with a key pair
 * generated once into DATA_DIR, whose public half is MARKETPLACE_PUBLIC_KEY unless set (empty: unchecked).
 * The tutor's model: OPENAI_API_KEY unset → the fake model under `/_local/llm/v1` (OPENAI_BASE_URL, unless set,
 * points there); OPENAI_API_KEY='' → the tutor is off; a real key (and base URL) → the real model. With the
 * tutor on, the seed textbook excerpts are ingested at start (once per embedding model).
 *
 * DynamoDB Local on DATA_DIR's files is held through `DATA_DIR/stack.json` (dataDirState.ts): "starting" before it
 * starts, "running" with its endpoint and table once ready (scripts use it then), removed at stop.
 *
 * The server plays CloudFront (DESIGN §12; server.ts), its origin header ORIGIN_VERIFY_SECRET (random per run when
 * unset); with `exposeOrigin` a second listener is the bare origin (origin.ts).
 *
 * The scheduled jobs run on the stack through `POST /_local/jobs/<job>` (jobs.ts).
 *
 * The staff panel (`packages/admin`) is served at `/admin/` from its build, `packages/admin/dist/admin`; `npm start`
 * builds it first when it is missing or older than its sources ({@link ensureAdminBuilt}).
 */

import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { buildDeps, type Clock, type Deps, loadSettings } from '@mathisland/core';
import { ensureTable } from '@mathisland/core/db';
import { applyMigrations } from '@mathisland/core/migrations';
import { openAiModel } from '@mathisland/core/providers/model';
import { seedTextbook } from '@mathisland/core/tutor';
import { ADMIN_DIST } from './adminBuild';
import { apiHandlers } from './apiDocs';
import { startOwnDynamo } from './dynamo';
import { frontendStandIn } from './fakes/frontend';
import { createGatewayFake } from './fakes/gateway';
import { createLlmFake, type LlmFakeConfig, type LlmRequest } from './fakes/llm';
import { createMarketplaceFake } from './fakes/marketplace';
import { createSmsFake, type SentSms } from './fakes/sms';
import { jobsControl } from './jobs';
import { startBareOrigin } from './origin';
import { assertPortFree, portInUse } from './preflight';
import { boardSnapshotSchedule } from './schedule';
import { ensureMarketplaceSecret, ensureMarketplaceSigningKey, ensureSecretKey } from './secretKey';
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
  /** Also listen as the bare origin, without the edge ({@link LocalStack.originUrl}). */
  exposeOrigin?: boolean;
  /** Told each slow step as it begins (`npm start` prints them: the first start takes about a minute). */
  onProgress?: (step: string) => void;
}

export interface LocalStack {
  baseUrl: string;
  /** With `exposeOrigin`: the handlers without the edge in front (origin.ts), as the execute-api host in AWS. */
  originUrl?: string;
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
  /** The scheduled jobs' work a request's answer depends on (the board snapshots, schedule.ts), now. */
  runSchedules(): Promise<void>;
  close(): Promise<void>;
}

// The panel's build lives in adminBuild.ts; its callers (npm start, the browser tests) import it from here too.
export { ADMIN_DIR, ADMIN_DIST, adminBuildState, ensureAdminBuilt } from './adminBuild';

const LOCAL_SMS_KEY = 'local-sms-api-key';
/** The fake gateway's merchant id (a 36-character UUID, like a real one). */
export const LOCAL_GATEWAY_MERCHANT_ID = '00000000-0000-4000-8000-00000000cafe';

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
  const useFake = !real && env.MARKETPLACE_BASE_URL === undefined;
  const signing = useFake ? ensureMarketplaceSigningKey(dataDir) : undefined;
  if (signing) env.MARKETPLACE_PUBLIC_KEY ??= signing.publicKey;
  if (!real) {
    if (env.MARKETPLACE_API_SECRET === undefined) env.MARKETPLACE_API_SECRET = ensureMarketplaceSecret(dataDir).key;
    if (env.MARKETPLACE_CLIENT_ID === undefined) {
      env.MARKETPLACE_CLIENT_ID = LOCAL_MARKETPLACE_CLIENT_ID;
      env.MARKETPLACE_CLIENT_SECRET ??= LOCAL_MARKETPLACE_CLIENT_SECRET;
    }
    env.MARKETPLACE_PACKAGE_NAME ??= LOCAL_MARKETPLACE_PACKAGE;
  }
  return {
    useFake,
    fake: createMarketplaceFake({
      packageName: env.MARKETPLACE_PACKAGE_NAME || LOCAL_MARKETPLACE_PACKAGE,
      apiSecret: real ? undefined : env.MARKETPLACE_API_SECRET || undefined,
      clientId: real ? undefined : env.MARKETPLACE_CLIENT_ID || undefined,
      clientSecret: real ? undefined : env.MARKETPLACE_CLIENT_SECRET || undefined,
      now: () => Date.now(),
      signing,
    }),
  };
}

/**
 * Starts the stack (see the module doc). Errors, before anything slow starts: `SettingsError` for a bad setting or a
 * DATA_DIR another npm start serves, `StartupError` (preflight.ts) for a port in use or a missing Java.
 */
export async function startLocalStack(options: LocalStackOptions = {}): Promise<LocalStack> {
  const env: Record<string, string | undefined> = { ...process.env, ...options.env };
  const warnings: string[] = [];
  const dataDir = env.DATA_DIR || '.data';
  const progress = options.onProgress ?? (() => {});
  loadSettings(env); // fail fast on a bad setting, before anything starts
  const port = options.port ?? Number(env.PORT ?? 3000);
  await assertPortFree(port, options.host); // and on a busy port, before DynamoDB Local's seconds
  env.ORIGIN_VERIFY_SECRET ??= randomBytes(32).toString('base64url'); // the local edge's: this process alone needs it
  if (env.SECRET_KEY === undefined) {
    const { key, generated } = ensureSecretKey(dataDir);
    env.SECRET_KEY = key;
    if (generated) warnings.push(`SECRET_KEY was unset: generated one into ${join(dataDir, 'secret-key')}`);
  }

  const endpoint = options.dynamodbEndpoint ?? env.DYNAMODB_ENDPOINT;
  const { dynamo, dataDirClaim } = endpoint
    ? { dynamo: undefined, dataDirClaim: undefined }
    : await startOwnDynamo(dataDir, options.inMemory === true, warnings, progress);
  env.DYNAMODB_ENDPOINT = endpoint ?? dynamo?.endpoint;

  let markReady!: (deps: Deps) => void;
  const ready = new Promise<Deps>((r) => {
    markReady = r;
  });
  const { handlers, responseMismatches } = await apiHandlers(() => ready, options.checkResponses === true);
  const schedule = boardSnapshotSchedule(() => ready);
  handlers.leaderboard = schedule.before(handlers.leaderboard);
  const smsKey = env.SMS_API_KEY === undefined ? LOCAL_SMS_KEY : env.SMS_API_KEY;
  const sms = createSmsFake({ apiKey: smsKey, env });
  const gateway = createGatewayFake({
    merchantId: env.GATEWAY_MERCHANT_ID === undefined ? LOCAL_GATEWAY_MERCHANT_ID : env.GATEWAY_MERCHANT_ID,
  });
  const llm = createLlmFake({ apiKey: env.OPENAI_API_KEY === undefined ? LOCAL_LLM_KEY : env.OPENAI_API_KEY });
  const marketplace = localMarketplace(env, dataDir);
  if (options.clock) marketplace.fake.options.now = () => (options.clock as Clock).now();
  const originSecret = env.ORIGIN_VERIFY_SECRET;
  const server = createLocalServer({
    originSecret,
    handlers,
    mounts: {
      '/_local/sms': sms.handle,
      '/_local/gateway': gateway.handle,
      '/': frontendStandIn,
      '/_local/llm': llm.handle,
      '/admin': adminSite(options.adminDist ?? ADMIN_DIST),
      '/_local/marketplace': marketplace.fake.handle,
      '/_local/jobs': jobsControl(ready),
    },
    ready,
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, options.host ?? '127.0.0.1', () => resolve());
    });
  } catch (error) {
    await dynamo?.stop();
    dataDirClaim?.release();
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw portInUse(port);
    }
    throw error;
  }
  const actualPort = (server.address() as AddressInfo).port;
  const baseUrl = `http://localhost:${actualPort}`;
  const origin = options.exposeOrigin
    ? await startBareOrigin({ handlers, ready, originSecret, host: options.host ?? '127.0.0.1' })
    : undefined;

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
  sms.setPublicBaseUrl(env.PUBLIC_BASE_URL);
  if (marketplace.useFake) env.MARKETPLACE_BASE_URL = `${baseUrl}/_local/marketplace`;

  try {
    const ownDeps = buildDeps(loadSettings(env), {
      adapters: { model: openAiModel },
      ...(options.clock ? { clock: options.clock } : {}),
    });
    progress(`creating the table ${ownDeps.db.tableName} and applying the data migrations (the grade 4 and 5 curriculum, plans)...`);
    await ensureTable(ownDeps.db);
    await applyMigrations(ownDeps.db, () => ownDeps.clock.now());
    if (dataDirClaim) {
      // Scripts (createsuperuser, the jobs) find the table here, and the settings this stack filled in.
      const filled = ['PUBLIC_BASE_URL', ...(marketplace.useFake ? LOCAL_MARKETPLACE_SETTINGS : []), ...sms.publishedSettings];
      const settings = Object.fromEntries(filled.map((name) => [name, env[name] as string]));
      dataDirClaim.running({ endpoint: env.DYNAMODB_ENDPOINT, tableName: ownDeps.db.tableName, dynamoPid: dynamo?.pid, settings });
    }
    marketplace.fake.options.redirectUri = ownDeps.settings.marketplace.redirectUri;
    markReady(ownDeps);
    // After the server is ready: the fake model that embeds the excerpts is served by this same server.
    if (ownDeps.model) progress("ingesting the tutor's seed textbook excerpts (once per embedding model)...");
    try {
      await seedTextbook(ownDeps);
    } catch (error) {
      warnings.push(`tutor: the seed textbook could not be ingested (${(error as Error).message}); the tutor answers without it`);
    }
    return {
      baseUrl,
      ...(origin ? { originUrl: origin.url } : {}),
      port: actualPort,
      deps: ownDeps,
      smsOutbox: sms.outbox,
      gateway,
      marketplace: marketplace.fake,
      llm: { requests: llm.requests, config: llm.config },
      warnings,
      faultsInjected: () => sms.faultCounts.injected + gateway.faultCounts.injected + llm.faultCounts.injected,
      responseMismatches,
      runSchedules: () => schedule.run(),
      async close() {
        server.closeAllConnections();
        await Promise.all([new Promise((r) => server.close(r)), origin?.close()]);
        ownDeps.db.raw.destroy();
        schedule.close();
        await dynamo?.stop();
        dataDirClaim?.release();
        if (responseMismatches.length) {
          throw new Error(`answers differed from the API document:\n${[...new Set(responseMismatches)].join('\n')}`);
        }
      },
    };
  } catch (error) {
    server.close();
    await origin?.close();
    await dynamo?.stop();
    dataDirClaim?.release();
    throw error;
  }
}
