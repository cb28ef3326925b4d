/**
 * Bundles and cold import: each endpoint group built as SST deploys it (scripts/lib/bundles.ts, with esbuild's
 * metafile: the top inputs), and the median time a fresh `node` process takes to import it (module evaluation
 * only; Lambda's own init is not included), whole and with the AWS SDK v3 clients it imports (external: the
 * runtime's copy; DynamoDB, and Secrets Manager, whose import esbuild hoists to the bundle's top) imported first,
 * which leaves the bundle's own evaluation. The Lambda runtime defines `awslambda` (the streamed groups call
 * `awslambda.streamifyResponse` at import); the child defines a stand-in.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { bundleBudgetKiB } from '../../../infra/functions';
import { endpointGroups } from '../../../infra/routes';
import { bundleGroups } from '../bundles';
import { median } from './measure';

export async function benchBundles(importRuns: number) {
  const bundles = await bundleGroups(endpointGroups, join('.data', 'bench-bundles'));
  const importMs = (file: string, preload: string) => {
    const times: number[] = [];
    for (let i = 0; i < importRuns; i++) {
      const out = execFileSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `globalThis.awslambda ??= { streamifyResponse: (h) => h, HttpResponseStream: { from: (s) => s } }; ${preload} const t=performance.now(); await import(${JSON.stringify(`./${file}`)}); console.log(performance.now()-t);`,
        ],
        { encoding: 'utf8', env: { ...process.env, LOG_LEVEL: 'WARN' } },
      );
      times.push(Number(out.trim().split('\n').at(-1)));
    }
    return median(times);
  };
  return bundles.map((b) => ({
    group: b.group,
    bytes: b.bytes,
    budgetKiB: bundleBudgetKiB(b.group),
    top: b.inputs.slice(0, 10),
    importMs: importMs(b.file, ''),
    /** The bundle's own evaluation: the runtime's AWS SDK clients it imports (external) imported first. */
    ownImportMs: importMs(
      b.file,
      "await import('@aws-sdk/client-dynamodb'); await import('@aws-sdk/lib-dynamodb'); await import('@aws-sdk/client-secrets-manager');",
    ),
  }));
}
