/**
 * The functions of this service, endpoint groups and jobs alike, built one way (used by the Api, Tutor and Jobs
 * stacks):
 *
 * - environment: TABLE_NAME, STAGE, SECRETS_ID (the stage secret's ARN), ORIGIN_SECRET_ID (the origin secret's, for
 *   endpoint groups: infra/permissions.ts readsOriginSecret), PUBLIC_BASE_URL when the stage's public
 *   origin is known at synthesis (stacks/config.ts), and the plain settings of `infra/settings.ts` set in the
 *   deploying shell, `.env.<stage>` or `.env.<stage>.local`, but not those only a developer's local `.env` or
 *   `.env.local` gives ({@link localEnvValues}); never a secret (those are read from Secrets Manager,
 *   packages/functions/src/lib/deps.ts);
 * - IAM: the statements of its declaration in `infra/permissions.ts` (stacks/access.ts), nothing else;
 * - tracing: X-Ray active tracing, with the one IAM exception it needs (infra/permissions.ts `tracingActions`);
 * - metrics: POWERTOOLS_METRICS_NAMESPACE `mathisland/<stage>` for the business metrics (infra/metrics.ts);
 * - logs: its own log group (retention 90 days in production, 14 elsewhere) with a metric filter counting the
 *   request log lines whose status is 5xx (`Http5xx-<name>` in namespace `mathisland/<stage>`), which the Monitoring
 *   stack alarms on.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Duration } from 'aws-cdk-lib';
import type { IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import { Metric } from 'aws-cdk-lib/aws-cloudwatch';
import { FilterPattern, LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { type FunctionProps, Function as LambdaFunction, type StackContext, use } from 'sst/constructs';
import { useProject } from 'sst/project.js';
import { metricNamespace } from '../infra/metrics';
import { type FunctionName, functionAccess, readsOriginSecret } from '../infra/permissions';
import { originSecretNames, secretNames } from '../infra/secrets';
import { type SettingName, settingDecls } from '../infra/settings';
import { accessStatements } from './access';
import { deployConfig, PRODUCTION_STAGE } from './config';
import { Secrets } from './Secrets';
import { Storage } from './Storage';

/** Set by the stacks themselves. */
const stackManaged: readonly SettingName[] = ['TABLE_NAME', 'STAGE', 'PUBLIC_BASE_URL'];
/** Meaningful only to the local runtime (`npm start`), or to `npm run bench` (never deployed). */
const localOnly: readonly SettingName[] = ['DYNAMODB_ENDPOINT', 'PORT', 'DATA_DIR', 'BENCH_THROTTLE_LIMIT'];

/**
 * Settings passed through from the deploy-time environment: everything in `infra/settings.ts` that is not a
 * secret, not set by the stacks and not local-only.
 */
export const passThroughSettings: readonly SettingName[] = (Object.keys(settingDecls) as SettingName[]).filter(
  (name) =>
    !([...secretNames, ...originSecretNames] as readonly string[]).includes(name) &&
    !stackManaged.includes(name) &&
    !localOnly.includes(name),
);

/**
 * The `.env` files SST loads into the deploying process for `stage`, in its order, each with `override` (a later
 * file's value replaces an earlier one's and the shell's): sst/project.js `initProject`, which `sst deploy`, `sst dev`
 * and the offline synthesis (stacks/synth.ts) all run.
 */
export const envFiles = (stage: string) => ({ local: ['.env', '.env.local'], stage: [`.env.${stage}`, `.env.${stage}.local`] });

/** The parser SST loads those files with: its own dependency `dotenv` (`parse`, as `dotenv.config` uses it). */
function parseEnvFile(path: string): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return {};
  }
  const fromSst = createRequire(createRequire(import.meta.url).resolve('sst/package.json'));
  return (fromSst('dotenv') as { parse(src: string): Record<string, string> }).parse(text);
}

/**
 * The settings a developer's local files alone put into the deploying environment of `stage`: each name `.env` or
 * `.env.local` in `root` sets (the later wins) that neither `.env.<stage>` nor `.env.<stage>.local` sets, with the
 * value SST loaded. Those files are the local configuration of `npm start` (README), which SST loads for every stage;
 * their values are not the stage's. Because SST loads them with `override`, such a name's value from the deploying
 * shell was already replaced by the file's: only `.env.<stage>` can give it to a stage.
 */
export function localEnvValues(root: string, stage: string): Record<string, string> {
  const files = envFiles(stage);
  const local = Object.assign({}, ...files.local.map((f) => parseEnvFile(join(root, f)))) as Record<string, string>;
  const staged = Object.assign({}, ...files.stage.map((f) => parseEnvFile(join(root, f)))) as Record<string, string>;
  return Object.fromEntries(Object.entries(local).filter(([name]) => !(name in staged)));
}

/**
 * The pass-through settings that are set in `env`, leaving out each name whose value is still the one `localOnly`
 * ({@link localEnvValues}) says a local file gave it.
 */
export function deployedSettings(env: NodeJS.ProcessEnv = process.env, localOnly: Record<string, string> = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of passThroughSettings) {
    const value = env[name];
    if (value !== undefined && value !== localOnly[name]) out[name] = value;
  }
  return out;
}

/** Stages already told which local settings they were not given (once per synthesis and stage, not per function). */
const toldLeftOut = new Set<string>();

/** {@link deployedSettings} of the deploying process for `stage`, saying once which local settings it left out. */
function stageSettings(stage: string): Record<string, string> {
  const root = useProject().paths.root;
  const localOnly = localEnvValues(root, stage);
  const leftOut = passThroughSettings.filter((name) => localOnly[name] !== undefined && process.env[name] === localOnly[name]);
  const key = `${root}|${stage}|${leftOut.join(',')}`;
  if (leftOut.length && !toldLeftOut.has(key)) {
    toldLeftOut.add(key);
    console.warn(
      `Not deployed to the stage ${stage}: ${leftOut.join(', ')}, set only in your local .env (or .env.local). ` +
        `Put a setting the stage needs into .env.${stage}.`,
    );
  }
  return deployedSettings(process.env, localOnly);
}

/** Construct id of a group's function, e.g. `authGroup`. */
export const groupFunctionId = (group: string): string => `${group}Group`;

/** The count of 5xx answers function `fn` logged (its request log lines, DESIGN §7), per period. */
export const http5xxMetric = (stage: string, fn: FunctionName, period = Duration.minutes(5)): IMetric =>
  new Metric({ namespace: metricNamespace(stage), metricName: `Http5xx-${fn}`, statistic: 'Sum', period });

/** The request log line of a 5xx answer: `{"message":"request","status":5xx,...}` (Powertools JSON). */
export const http5xxLogPattern = FilterPattern.all(
  FilterPattern.stringValue('$.message', '=', 'request'),
  FilterPattern.numberValue('$.status', '>=', 500),
);

/** Environment and IAM statements of service function `fn` (see the module doc). */
export function serviceFunctionProps(context: StackContext, fn: FunctionName): Pick<FunctionProps, 'environment' | 'permissions'> {
  const { table } = use(Storage);
  const { secret, originSecret } = use(Secrets);
  const { publicBaseUrl } = deployConfig(context.app.stage);
  return {
    environment: {
      ...stageSettings(context.app.stage),
      TABLE_NAME: table.tableName,
      STAGE: context.app.stage,
      // The business metrics' namespace (packages/core/src/metrics.ts, infra/metrics.ts).
      POWERTOOLS_METRICS_NAMESPACE: metricNamespace(context.app.stage),
      // Only a function that reads the stage secret is told where it is.
      ...(functionAccess[fn].secret ? { SECRETS_ID: secret.secretArn } : {}),
      ...(readsOriginSecret(fn) ? { ORIGIN_SECRET_ID: originSecret.secretArn } : {}),
      ...(publicBaseUrl ? { PUBLIC_BASE_URL: publicBaseUrl } : {}),
    },
    permissions: accessStatements(fn, { table, secret: secret as ISecret, originSecret: originSecret as ISecret }),
  };
}

/**
 * A function of this service: `props` (handler, timeout, url, ...) plus {@link serviceFunctionProps}, its own log
 * group and the 5xx metric filter on it.
 */
export function serviceFunction(context: StackContext, id: string, fn: FunctionName, props: FunctionProps): LambdaFunction {
  const { stack, app } = context;
  const logGroup = new LogGroup(stack, `${id}Logs`, {
    retention: app.stage === PRODUCTION_STAGE ? RetentionDays.THREE_MONTHS : RetentionDays.TWO_WEEKS,
  });
  logGroup.addMetricFilter(`${id}Http5xx`, {
    filterPattern: http5xxLogPattern,
    metricNamespace: metricNamespace(app.stage),
    metricName: `Http5xx-${fn}`,
    metricValue: '1',
  });
  // X-Ray active tracing (issue 30 §4): CDK adds the role's one exception, infra/permissions.ts tracingActions.
  return new LambdaFunction(stack, id, { ...props, tracing: 'active', ...serviceFunctionProps(context, fn), logGroup });
}
