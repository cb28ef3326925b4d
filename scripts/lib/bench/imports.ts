/**
 * Bundles and cold import: each endpoint group built as SST deploys it (scripts/lib/bundles.ts, with esbuild's
 * metafile: the top inputs), and the median time a fresh `node` process takes to import it (module evaluation
 * only; Lambda's own init is not included), run with the flags Lambda's `nodejs22.x` applies
 * (infra/functions.ts `LAMBDA_NODE_FLAGS`). Two figures per group:
 * - `importMs`, whole: the bundle and the runtime's AWS SDK v3 clients it loads at import (external, loaded with
 *   `require`: infra/bundlePlugins.ts `requireAtRuntime`): the DynamoDB client and its document client. The Secrets
 *   Manager client is not in it: the bundle loads it with Powertools' SecretsProvider, at the first request that
 *   reads the stage secret; what that costs the first request is {@link benchSecretsClientLoad}.
 * - `ownImportMs`: the same import with those SDK packages required first, which leaves the bundle's own
 *   evaluation (parsing it, running its module bodies).
 * And the yardstick of issue 30 §5: `@aws-sdk/client-dynamodb` required alone in a fresh process ({@link
 * DYNAMODB_CLIENT}), the least any function that reads the table loads; each group's whole import over it is its
 * `ratio` (target: 1.5, the tutor 2).
 * The Lambda runtime defines `awslambda` (the streamed groups call `awslambda.streamifyResponse` at import); the
 * child defines a stand-in. Errors: a child that fails (a bundle that throws at import) fails the bench.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { bundleBudgetKiB, LAMBDA_NODE_FLAGS } from '../../../infra/functions';
import { endpointGroups } from '../../../infra/routes';
import { bundleGroups } from '../bundles';
import { median } from './measure';

/** The runtime's SDK packages a group's bundle requires at import (DynamoDB; infra/bundlePlugins.ts requireAtRuntime). */
const SDK_AT_IMPORT = ['@aws-sdk/client-dynamodb', '@aws-sdk/lib-dynamodb'];
/** The yardstick: the DynamoDB client alone, without its document client. */
export const DYNAMODB_CLIENT = '@aws-sdk/client-dynamodb';
/** Cold import over the DynamoDB client alone that a group may take (issue 30 §5). */
export const importRatioTarget = (group: string): number => (group === 'tutor' ? 2 : 1.5);

/** The stand-in of Lambda's `awslambda` global, then `preload`, then the timed code; prints the time, ms. */
function childMs(preload: string, timed: string): number {
  const out = execFileSync(
    process.execPath,
    [
      ...LAMBDA_NODE_FLAGS,
      '--input-type=module',
      '-e',
      `globalThis.awslambda ??= { streamifyResponse: (h) => h, HttpResponseStream: { from: (s) => s } };
       const { createRequire } = await import('node:module'); const require = createRequire(import.meta.url);
       ${preload} const t = performance.now(); ${timed} console.log(performance.now() - t);`,
    ],
    { encoding: 'utf8', env: { ...process.env, LOG_LEVEL: 'WARN' } },
  );
  return Number(out.trim().split('\n').at(-1));
}

const requireAll = (packages: readonly string[]) => packages.map((p) => `require(${JSON.stringify(p)});`).join(' ');

/** Median of `runs` fresh processes timing `timed` after `preload`, ms. */
const medianMs = (runs: number, preload: string, timed: string) => median(Array.from({ length: runs }, () => childMs(preload, timed)));

/**
 * Builds every group and times its import `importRuns` times, whole and own. The runs go round-robin (run 1 of
 * every group, then run 2, ...), so that a slow spell of the machine (two shared cores; import times here drift by
 * 20 ms over tens of seconds) falls on every group alike instead of on the few measured during it.
 */
export async function benchBundles(importRuns: number) {
  const bundles = await bundleGroups(endpointGroups, join('.data', 'bench-bundles'));
  const importBundle = (file: string) => `await import(${JSON.stringify(`./${file}`)});`;
  const whole = bundles.map(() => [] as number[]);
  const own = bundles.map(() => [] as number[]);
  const client: number[] = [];
  for (let run = 0; run < importRuns; run++) {
    bundles.forEach((b, i) => {
      // The yardstick in the same rounds, between the groups, so that it sees the same spells of load.
      if (i % 5 === 0) client.push(childMs('', requireAll([DYNAMODB_CLIENT])));
      whole[i]?.push(childMs('', importBundle(b.file)));
      own[i]?.push(childMs(requireAll(SDK_AT_IMPORT), importBundle(b.file)));
    });
  }
  const dynamoClientMs = median(client);
  const groups = bundles.map((b, i) => ({
    group: b.group,
    bytes: b.bytes,
    budgetKiB: bundleBudgetKiB(b.group),
    top: b.inputs.slice(0, 10),
    importMs: median(whole[i] ?? []),
    /** The bundle's own evaluation: the runtime's AWS SDK packages it loads at import required first. */
    ownImportMs: median(own[i] ?? []),
    /** The whole import over the DynamoDB client's alone. */
    ratio: median(whole[i] ?? []) / dynamoClientMs,
    ratioTarget: importRatioTarget(b.group),
  }));
  return { dynamoClientMs, dynamoClientRuns: client.length, groups };
}

/**
 * What loading the Secrets Manager client adds to the first request that reads the stage secret (every worker's
 * first request in AWS; never locally, where there is no SECRETS_ID): the median of `runs` fresh processes
 * requiring `@aws-sdk/client-secrets-manager` after the DynamoDB packages (they share `@smithy/*` and
 * `@aws-sdk/core`), ms.
 */
export function benchSecretsClientLoad(runs: number): number {
  return medianMs(runs, requireAll(SDK_AT_IMPORT), requireAll(['@aws-sdk/client-secrets-manager']));
}
