/**
 * The production wiring of a Lambda: its dependencies, built once per cold start (DESIGN §2). In AWS the
 * secrets named in `infra/secrets.ts` are read from the stage's Secrets Manager secret (SECRETS_ID, through
 * Powertools Parameters) into the environment first, then settings are loaded from it. They are read once per
 * cold start: a secret changed in Secrets Manager reaches a function when it next starts cold (a deploy, or
 * AWS recycling the instance), not on the next request.
 *
 * The local runtime and the tests do not use this module: they build their own dependencies per stack and
 * hand them to each group's `createHandler`.
 */
import { type Adapters, buildDeps, type Deps, loadSettings } from '@mathisland/core';
import { secretNames } from '../../../../infra/secrets';

async function loadSecretsIntoEnv(): Promise<void> {
  const secretId = process.env.SECRETS_ID;
  if (!secretId) return;
  const { getSecret } = await import('@aws-lambda-powertools/parameters/secrets');
  const values = await getSecret<Record<string, unknown>>(secretId, { transform: 'json' });
  for (const name of secretNames) {
    const value = values?.[name];
    if (typeof value === 'string' && process.env[name] === undefined) process.env[name] = value;
  }
}

/**
 * A memoized builder of this worker's dependencies with `adapters`. A failed build (a bad setting) is not
 * kept, so the next request reports it again instead of a stale error.
 */
export function productionDeps(adapters: Adapters = {}): () => Promise<Deps> {
  let deps: Promise<Deps> | undefined;
  return () => {
    deps ??= (async () => {
      await loadSecretsIntoEnv();
      return buildDeps(loadSettings(), { adapters });
    })();
    deps.catch(() => {
      deps = undefined;
    });
    return deps;
  };
}
