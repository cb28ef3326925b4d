/**
 * The dependencies object: every side effect of the domain (clock, database, providers, keys, content
 * cache) built once per cold start and passed down explicitly, with a fake twin in tests (DESIGN §2,
 * after cicada's AppState).
 */
import { type Clock, systemClock } from './clock';
import { loadSettings, type Settings, SettingsError } from './config/settings';
import { type ContentStore, createContentStore } from './curriculum/store';
import { createDb, type Db } from './db/client';
import { createKavenegarSender, type SmsSender } from './sms/kavenegar';
import { createZarinpalGateway, type PaymentGateway } from './subscriptions/zarinpal';
import type { ModelClient } from './tutor/model';
import { Slots } from './tutor/slots';

export interface Deps {
  settings: Settings;
  clock: Clock;
  db: Db;
  sms: SmsSender;
  /** HMAC/JWT key derived from SECRET_KEY (bytes). */
  secretKey: Uint8Array;
  content: ContentStore;
  /** The web payment gateway (ZarinPal v4 wire protocol; the local fake under `npm start`). */
  gateway: PaymentGateway;
  /** The tutor's concurrency slots of this worker (AI_MAX_CONCURRENT_PER_WORKER). */
  tutorSlots: Slots;
  /** The model client, when tests replace it; otherwise `tutor/model.ts` builds one from settings.ai. */
  llm?: ModelClient;
}

/**
 * Builds the dependencies from settings. Errors: {@link SettingsError} when SECRET_KEY is missing or shorter
 * than 32 characters (the local runtime generates one; in AWS the Secrets stack does).
 */
export function buildDeps(settings: Settings = loadSettings(), overrides: Partial<Deps> = {}): Deps {
  if (!settings.secretKey || settings.secretKey.length < 32) {
    throw new SettingsError('SECRET_KEY must be set to at least 32 characters');
  }
  const db = overrides.db ?? createDb({ tableName: settings.tableName, endpoint: settings.dynamodbEndpoint });
  const clock = overrides.clock ?? systemClock;
  return {
    settings,
    clock,
    db,
    sms: overrides.sms ?? createKavenegarSender(settings.sms),
    secretKey: new TextEncoder().encode(settings.secretKey),
    content: overrides.content ?? createContentStore(db, clock),
    gateway: overrides.gateway ?? createZarinpalGateway(settings.gateway),
    tutorSlots: overrides.tutorSlots ?? new Slots(settings.ai.maxConcurrentPerWorker),
    ...(overrides.llm ? { llm: overrides.llm } : {}),
  };
}
