/**
 * SST v2 app: name, region, stage rules, default function props, and the stacks in dependency order.
 * No resources here; they live in `stacks/`.
 *
 * Deploy: `npx sst deploy --stage <name>`; the stage `production` keeps its data and secret when removed
 * (removal policy retain), every other stage is destroyed completely by `npx sst remove --stage <name>`.
 */
import { LoggingFormat } from 'aws-cdk-lib/aws-lambda';
import type { SSTConfig } from 'sst';
import type { FunctionProps } from 'sst/constructs';
import { lambdaNodejs } from './infra/functions';
import { Admin } from './stacks/Admin';
import { Api } from './stacks/Api';
import { Jobs } from './stacks/Jobs';
import { Secrets } from './stacks/Secrets';
import { Storage } from './stacks/Storage';
import { Tutor } from './stacks/Tutor';

/** The stage whose resources outlive `sst remove`. */
export const productionStage = 'production';

/** What every function gets unless its stack says otherwise. */
export const defaultFunctionProps = {
  runtime: 'nodejs22.x',
  architecture: 'arm_64',
  memorySize: 1024,
  timeout: 30,
  loggingFormat: LoggingFormat.JSON,
  // ESM bundles, minified, the AWS SDK v3 from the runtime (infra/functions.ts). SST's esbuild banner for ESM
  // already defines `require` (createRequire) and `__dirname`; a second `const require` in `nodejs.banner` would
  // be a SyntaxError at cold start.
  nodejs: { ...lambdaNodejs, esbuild: { external: [...lambdaNodejs.esbuild.external] } },
} satisfies FunctionProps;

export default {
  config() {
    return { name: 'mathisland', region: process.env.AWS_REGION ?? 'eu-central-1' };
  },
  stacks(app) {
    app.setDefaultRemovalPolicy(app.stage === productionStage ? 'retain' : 'destroy');
    app.setDefaultFunctionProps(defaultFunctionProps);
    app.stack(Storage).stack(Secrets).stack(Api).stack(Tutor).stack(Jobs).stack(Admin);
  },
} satisfies SSTConfig;
