/**
 * The production wiring of a Lambda: its dependencies, built at cold start (DESIGN §2) and rebuilt when the stage
 * secret changes.
 *
 * In AWS the secrets named in `infra/secrets.ts` come only from the stage's Secrets Manager secret (SECRETS_ID, a
 * JSON object, read through Powertools Parameters); a secret name in the environment is ignored there. Settings are
 * loaded from the environment (plain settings) plus those values, and the dependencies built from them.
 *
 * Refresh: the secret is cached for {@link SECRETS_MAX_AGE_SECONDS} (5 minutes; Powertools `maxAge`). The first
 * request after that re-reads it (one GetSecretValue); when a value changed, the settings and dependencies are
 * rebuilt for that request on (the DynamoDB client is kept), so a changed key reaches every running instance
 * within 5 minutes of its first request after the change, without a deploy. Unchanged, nothing is rebuilt. A
 * re-read that fails (Secrets Manager unreachable, throttled) or a changed value that does not load (a setting
 * refused) keeps the dependencies in use, logs it, and tries again after another interval. A failed first build is
 * not kept: the next request reports it again.
 *
 * The origin secret (ORIGIN_SECRET_ID, `{ current, previous }`, infra/secrets.ts) is read the same way, in the same
 * refresh: its values become ORIGIN_VERIFY_SECRET and ORIGIN_VERIFY_PREVIOUS, so a rotation reaches every worker within
 * 5 minutes too (docs/deploy.md "The edge"). Those names are ignored in the environment wherever the secret is read.
 *
 * The local runtime and the tests build their own dependencies per stack and hand them to each group's
 * `createHandler`; without SECRETS_ID this module reads the environment alone, once.
 */

import type { SecretsProvider } from '@aws-lambda-powertools/parameters/secrets';
import { type Adapters, buildDeps, type Deps, loadSettings, logger } from '@mathisland/core';
import { originSecretFields, originSecretNames, secretNames } from '../../../../infra/secrets';

/** How long a worker uses the secret it read before reading it again, seconds (README, docs/deploy.md). */
export const SECRETS_MAX_AGE_SECONDS = 300;

export interface ProductionDepsOptions {
  /** The environment (default process.env): SECRETS_ID, ORIGIN_SECRET_ID and the plain settings. */
  env?: NodeJS.ProcessEnv;
  /** The Powertools Secrets provider (default: one with the Lambda's own client; tests point one at a fake). */
  secrets?: Pick<SecretsProvider, 'get'>;
  /** Refresh interval, seconds (default {@link SECRETS_MAX_AGE_SECONDS}). */
  maxAgeSeconds?: number;
  /** The clock, epoch ms (default Date.now). */
  now?: () => number;
}

/** Every setting name a secret may hold. */
const SECRET_SETTINGS: readonly string[] = [...secretNames, ...originSecretNames];

/** The string members of a secret's JSON object (others count as unset). */
function stringsOf(value: unknown): Record<string, string> {
  const object = value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  return Object.fromEntries(Object.entries(object).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

/** The secret names of the app secret's JSON object. */
function pickSecrets(value: unknown): Record<string, string> {
  const strings = stringsOf(value);
  return Object.fromEntries(secretNames.flatMap((name) => (strings[name] === undefined ? [] : [[name, strings[name]]])));
}

/** The origin secret's `current` and `previous`, as the settings they become. */
function pickOriginSecret(value: unknown): Record<string, string> {
  const strings = stringsOf(value);
  return Object.fromEntries(
    Object.entries(originSecretFields).flatMap(([field, name]) => (strings[field] === undefined ? [] : [[name, strings[field]]])),
  );
}

/** The environment the settings load from: `env` without any secret name, plus the secrets' values. */
function settingsEnv(env: NodeJS.ProcessEnv, secrets: Record<string, string>): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env };
  for (const name of SECRET_SETTINGS) delete out[name];
  return { ...out, ...secrets };
}

/**
 * A builder of this worker's dependencies with `adapters`, for the group's middy pipeline (`injectDeps`): each call
 * returns the current dependencies, re-reading the secret when the interval has passed (see the module doc).
 * Errors (first build only): the secret cannot be read, or a setting is refused (`SettingsError`).
 */
export function productionDeps(adapters: Adapters = {}, options: ProductionDepsOptions = {}): () => Promise<Deps> {
  const env = options.env ?? process.env;
  const maxAgeSeconds = options.maxAgeSeconds ?? SECRETS_MAX_AGE_SECONDS;
  const now = options.now ?? Date.now;
  let provider = options.secrets;
  let current: { deps: Deps; values: Record<string, string>; readAt: number } | undefined;
  let pending: Promise<Deps> | undefined;

  const readJson = async (secretId: string): Promise<unknown> => {
    if (!provider) {
      const { SecretsProvider } = await import('@aws-lambda-powertools/parameters/secrets');
      provider = new SecretsProvider();
    }
    // Our own interval decides when to read; forceFetch skips Powertools' cache then, maxAge keeps it in step.
    return provider.get(secretId, { transform: 'json', maxAge: maxAgeSeconds, forceFetch: current !== undefined });
  };
  /** The app secret's values and, with ORIGIN_SECRET_ID, the origin secret's (read together). */
  const readSecret = async (secretId: string): Promise<Record<string, string>> => {
    const originId = env.ORIGIN_SECRET_ID;
    const [app, origin] = await Promise.all([readJson(secretId), originId ? readJson(originId) : undefined]);
    return { ...pickSecrets(app), ...pickOriginSecret(origin) };
  };

  const load = async (): Promise<Deps> => {
    const secretId = env.SECRETS_ID;
    if (!secretId) {
      current ??= { deps: buildDeps(loadSettings(env), { adapters }), values: {}, readAt: Number.POSITIVE_INFINITY };
      return current.deps;
    }
    if (!current) {
      const values = await readSecret(secretId);
      current = { deps: buildDeps(loadSettings(settingsEnv(env, values)), { adapters }), values, readAt: now() };
      return current.deps;
    }
    const previous = current;
    try {
      const values = await readSecret(secretId);
      const changed = SECRET_SETTINGS.filter((name) => values[name] !== previous.values[name]);
      if (changed.length === 0) {
        current = { ...previous, readAt: now() };
        return previous.deps;
      }
      const deps = buildDeps(loadSettings(settingsEnv(env, values)), { adapters, db: previous.deps.db });
      current = { deps, values, readAt: now() };
      // Names only, never a value.
      logger.info('stage secret changed: settings and dependencies rebuilt', { changed });
      return deps;
    } catch (error) {
      logger.error('stage secret refresh failed: keeping the settings in use, retrying after the interval', {
        reason: (error as Error).message,
        maxAgeSeconds,
      });
      current = { ...previous, readAt: now() };
      return previous.deps;
    }
  };

  return () => {
    if (current && now() - current.readAt < maxAgeSeconds * 1000) return Promise.resolve(current.deps);
    pending ??= load().finally(() => {
      pending = undefined;
    });
    return pending;
  };
}
