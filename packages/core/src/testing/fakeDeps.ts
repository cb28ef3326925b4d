/**
 * The fake twin of the dependencies (DESIGN §2): the same {@link Deps} interface with in-memory providers and a
 * manual clock, passed to domain functions by tests. The database is DynamoDB Local when a test gives one
 * (`db`), otherwise a client that refuses every request, so a pure test cannot touch storage by accident.
 */
import { ManualClock } from '../clock';
import { loadSettings } from '../config/settings';
import { createContentStore } from '../curriculum';
import { createDb, type Db } from '../db/client';
import type { Deps } from '../deps';
import { AccessTokenCache } from '../marketplace';
import { Slots } from '../tutor';
import { FakeGateway, FakeMarketplace, FakeModel } from './fakeProviders';
import { FakeSms } from './fakeSms';

export interface FakeDeps extends Deps {
  clock: ManualClock;
  sms: FakeSms;
  gateway: FakeGateway;
  marketplace: FakeMarketplace;
  model: FakeModel;
}

/** A client whose every request fails at once: the default database of {@link fakeDeps}. */
function noDatabase(): Db {
  const db = createDb({ tableName: 'no-database', endpoint: 'http://no-database.invalid' });
  db.raw.middlewareStack.add(
    () => async () => {
      throw new Error('fakeDeps was built without a database: pass { db } to use DynamoDB Local');
    },
    { step: 'initialize', name: 'noDatabase', priority: 'high' },
  );
  return db;
}

/**
 * Dependencies for a test. `env` overrides settings (the same names as infra/settings.ts); `marketplace` is the fake
 * marketplace (default: package `ir.mathisland.test`, OAuth client configured, secret `fake-marketplace-secret`,
 * which is in force only when MARKETPLACE_API_SECRET is given in `env`); `now` sets the clock (default 2026-01-01T09:00:00Z, a Thursday, 12:30 in Tehran); `db` is a DynamoDB Local client.
 */
export function fakeDeps(
  options: { db?: Db; env?: Record<string, string>; now?: number | Date; model?: FakeModel; marketplace?: FakeMarketplace } = {},
): FakeDeps {
  const settings = loadSettings({
    SECRET_KEY: 'fake-secret-key-0123456789abcdef0123456789',
    TABLE_NAME: options.db?.tableName ?? 'no-database',
    STAGE: 'test',
    ...options.env,
  });
  const clock = new ManualClock(options.now === undefined ? Date.UTC(2026, 0, 1, 9) : new Date(options.now).getTime());
  const db = options.db ?? noDatabase();
  return {
    settings,
    clock,
    db,
    secretKey: new TextEncoder().encode(settings.secretKey),
    sms: new FakeSms(),
    gateway: new FakeGateway(),
    marketplace: options.marketplace ?? new FakeMarketplace(),
    marketplaceTokens: new AccessTokenCache(),
    model: options.model ?? new FakeModel(),
    content: createContentStore(db, clock),
    tutorSlots: new Slots(settings.ai.maxConcurrentPerWorker),
  };
}
