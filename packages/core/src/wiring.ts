/**
 * The real wiring: builds the {@link Deps} of a worker from its settings, once per cold start in a Lambda
 * (`packages/functions/src/lib/deps.ts`) and once per stack in the local runtime (`packages/local`).
 *
 * Adapters that pull a heavy SDK are passed in by the caller instead of imported here: only the endpoint
 * groups that ask the model (tutor, rag) pass {@link Adapters.model}, so the openai SDK is bundled into those
 * Lambdas alone.
 */
import { type Clock, systemClock } from './clock';
import { type Settings, SettingsError } from './config/settings';
import { createContentStore } from './curriculum/store';
import { createDb, type Db } from './db/client';
import type { Deps } from './deps';
import { AccessTokenCache } from './marketplace/tokenCache';
import { createCafeBazaarMarketplace } from './providers/cafebazaar';
import { createKavenegarSender } from './providers/kavenegar';
import type { ModelClient } from './providers/ports';
import { createZarinpalGateway } from './providers/zarinpal';
import { Slots } from './tutor/slots';

/** Adapter factories a caller opts into. */
export interface Adapters {
  /** Builds the model client for settings.ai (`openAiModel` of `providers/model.ts`). */
  model?: (ai: Settings['ai'] & { apiKey: string }) => ModelClient;
}

/** A model client for a group that did not wire the model: any call is a wiring bug (500), never a silent no-op. */
const unwiredModel = (ai: Settings['ai']): ModelClient => {
  const fail = () => {
    throw new Error('The model adapter is not wired into this endpoint group (pass adapters.model to its wiring)');
  };
  return {
    chatModel: ai.model,
    embeddingModel: ai.embeddingModel,
    streamChat: fail,
    embed: async () => fail(),
  };
};

/**
 * Builds the dependencies from settings. `clock` and `db` may be given (the local runtime's manual clock in
 * tests; a shared client). Errors: {@link SettingsError} when SECRET_KEY is missing or shorter than 32
 * characters (the local runtime generates one; in AWS the Secrets stack does).
 */
export function buildDeps(settings: Settings, options: { adapters?: Adapters; clock?: Clock; db?: Db } = {}): Deps {
  if (!settings.secretKey || settings.secretKey.length < 32) {
    throw new SettingsError('SECRET_KEY must be set to at least 32 characters');
  }
  const db = options.db ?? createDb({ tableName: settings.tableName, endpoint: settings.dynamodbEndpoint });
  const clock = options.clock ?? systemClock;
  const ai = settings.ai;
  return {
    settings,
    clock,
    db,
    secretKey: new TextEncoder().encode(settings.secretKey),
    sms: createKavenegarSender(settings.sms),
    gateway: createZarinpalGateway(settings.gateway),
    marketplace: createCafeBazaarMarketplace(settings.marketplace),
    marketplaceTokens: new AccessTokenCache(),
    model: ai.apiKey ? (options.adapters?.model?.({ ...ai, apiKey: ai.apiKey }) ?? unwiredModel(ai)) : undefined,
    content: createContentStore(db, clock),
    tutorSlots: new Slots(ai.maxConcurrentPerWorker),
  };
}
