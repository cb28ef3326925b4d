/**
 * SST v2 app: name, region, stage rules, default function props, and the stacks in dependency order.
 * No resources here; they live in `stacks/`.
 *
 * Deploy: `npx sst deploy --stage <name>` (docs/deploy.md); the stage `production` keeps its data and secret when
 * removed (removal policy retain) and refuses debug settings at synthesis (stacks/config.ts), every other stage is
 * destroyed completely by `npx sst remove --stage <name>`. `npm run build` synthesizes every stack offline
 * (stacks/synth.ts).
 */
import { LoggingFormat } from 'aws-cdk-lib/aws-lambda';
import type { SSTConfig } from 'sst';
import type { FunctionProps } from 'sst/constructs';
import { nodejsProps } from './infra/functions';
import { Api } from './stacks/Api';
import { deployConfig, PRODUCTION_STAGE } from './stacks/config';
import { Jobs } from './stacks/Jobs';
import { Monitoring } from './stacks/Monitoring';
import { Secrets } from './stacks/Secrets';
import { Storage } from './stacks/Storage';
import { Tutor } from './stacks/Tutor';
import { Web } from './stacks/Web';

/** The stage whose resources outlive `sst remove`. */
export const productionStage = PRODUCTION_STAGE;

/** What every function gets unless its stack says otherwise. */
export const defaultFunctionProps = {
  runtime: 'nodejs22.x',
  architecture: 'arm_64',
  memorySize: 1024,
  timeout: 30,
  loggingFormat: LoggingFormat.JSON,
  // X-Ray active tracing (issue 30 §4), with the one IAM exception it needs (infra/permissions.ts tracingActions).
  tracing: 'active',
  // ESM bundles, minified, the AWS SDK v3 from the runtime (infra/functions.ts). SST's esbuild banner for ESM
  // already defines `require` (createRequire) and `__dirname`; a second `const require` in `nodejs.banner` would
  // be a SyntaxError at cold start.
  nodejs: nodejsProps(),
} satisfies FunctionProps;

export default {
  config() {
    return { name: 'mathisland', region: process.env.AWS_REGION ?? 'eu-central-1' };
  },
  stacks(app) {
    // Refuses a bad or unsafe deploy configuration (production guards, domain, alarms) before any stack is built.
    deployConfig(app.stage);
    app.setDefaultRemovalPolicy(app.stage === productionStage ? 'retain' : 'destroy');
    app.setDefaultFunctionProps(defaultFunctionProps);
    // Monitoring last: it alarms on the dead-letter queues of every stack registered before it.
    app.stack(Storage).stack(Secrets).stack(Api).stack(Tutor).stack(Jobs).stack(Web).stack(Monitoring);
  },
} satisfies SSTConfig;
