/**
 * The dependencies interface: everything the domain may ask of the world outside its own code (DESIGN §2,
 * after cicada's AppState). Every domain function takes it as its first argument; nothing reaches for a
 * global. Two implementations build it:
 * - `wiring.ts` `buildDeps`: the real one, once per cold start (Lambda) or per local stack;
 * - `testing/fakeDeps.ts` `fakeDeps`: the fake twin for tests, in-memory providers and a fixed clock.
 *
 * Per-worker state (the curriculum cache, the tutor's concurrency slots, the database pool) lives here too,
 * because "per worker" is exactly "per dependencies object"; the one per-request field, `throttle`, is set on a
 * copy.
 */
import type { Clock } from './clock';
import type { Settings } from './config/settings';
import type { ContentStore } from './curriculum/store';
import type { Db } from './db/client';
import type { AccessTokenCache } from './marketplace/tokenCache';
import type { Marketplace, ModelClient, PaymentGateway, SmsSender } from './providers/ports';
import type { ThrottleTicket } from './throttle/ticketShape';
import type { Slots } from './tutor/slots';

export interface Deps {
  /** Every setting, parsed once (infra/settings.ts, config/settings.ts). */
  settings: Settings;
  clock: Clock;
  /** The table's client, with the per-worker request pool (db/client.ts). */
  db: Db;
  /** HMAC/JWT key derived from SECRET_KEY (bytes). */
  secretKey: Uint8Array;
  /** The sms provider (Kavenegar-style verify/lookup; the local fake under `npm start`). */
  sms: SmsSender;
  /** The web payment gateway (ZarinPal v4 wire protocol; the local fake under `npm start`). */
  gateway: PaymentGateway;
  /** The in-app purchase marketplace (Cafe Bazaar developer API v2 wire protocol; the local fake under `npm start`). */
  marketplace: Marketplace;
  /** This worker's cached marketplace OAuth access token (marketplace/access.ts). */
  marketplaceTokens: AccessTokenCache;
  /** The tutor's model (any OpenAI-compatible API), or undefined when the tutor is off (OPENAI_API_KEY empty). */
  model: ModelClient | undefined;
  /** The curriculum, cached per worker (content changes only through migrations). */
  content: ContentStore;
  /** The tutor's concurrency slots of this worker (AI_MAX_CONCURRENT_PER_WORKER). */
  tutorSlots: Slots;
  /**
   * Per request, not per worker: the request's throttle hit when its route counts it inside its own transaction
   * (throttle/ticket.ts `transactCounting`). Set by the edge on a copy of the worker's dependencies; absent
   * everywhere else, and then `transactCounting` is a plain transaction.
   */
  throttle?: ThrottleTicket;
}
