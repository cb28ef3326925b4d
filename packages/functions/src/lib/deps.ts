/**
 * The worker's dependencies, built once per cold start (DESIGN §2). In AWS the secrets named in
 * `infra/secrets.ts` are read first from the stage's Secrets Manager secret (SECRETS_ID; Powertools
 * Parameters, cached 5 minutes) into the environment, then settings are loaded from it. Tests and the local
 * runtime may install their own with {@link setDeps}.
 */
import { buildDeps, type Deps, loadSettings } from '@mathisland/core';
import { secretNames } from '../../../../infra/secrets';

let deps: Promise<Deps> | undefined;

async function loadSecretsIntoEnv(): Promise<void> {
  const secretId = process.env.SECRETS_ID;
  if (!secretId) return;
  const { getSecret } = await import('@aws-lambda-powertools/parameters/secrets');
  const values = (await getSecret(secretId, { transform: 'json', maxAge: 300 })) as Record<string, unknown> | undefined;
  for (const name of secretNames) {
    const value = values?.[name];
    if (typeof value === 'string' && process.env[name] === undefined) process.env[name] = value;
  }
}

export function getDeps(): Promise<Deps> {
  deps ??= (async () => {
    await loadSecretsIntoEnv();
    return buildDeps(loadSettings());
  })();
  // A failed build (bad setting) is not cached, so the next request reports it again.
  deps.catch(() => {
    deps = undefined;
  });
  return deps;
}

/** Installs `value` as this worker's dependencies (local runtime, tests). */
export function setDeps(value: Deps): void {
  deps = Promise.resolve(value);
}
