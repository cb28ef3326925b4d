/**
 * Api: the HTTP API (API Gateway HTTP API) with one Lambda per endpoint group (DESIGN §1, §2).
 *
 * Generated from `infra/routes.ts`: one `Function` per entry of `endpointGroups`
 * (`packages/functions/src/groups/<group>.handler`), one route per entry of `routes` (route key
 * `routeKey(r)`) pointing at its group's function, and `$default` pointing at the `fallbackGroup` function,
 * which answers unknown paths and methods in the service's JSON error body. Streamed groups and their routes
 * (`stream: true`, the tutor) are left out: API Gateway HTTP APIs do not stream, so `stacks/Tutor.ts` deploys
 * them as Lambda function URLs in RESPONSE_STREAM mode.
 *
 * Every function gets TABLE_NAME, STAGE, SECRETS_ID (the ARN of the stage's secret) and the plain settings
 * of `infra/settings.ts` that are set in the deploying shell (or in `.env.<stage>`, which `sst` loads);
 * unset ones are left out so the code's defaults apply. Secrets never go into the environment.
 */
import { type FunctionProps, Function as LambdaFunction, Api as SstApi, type StackContext, use } from 'sst/constructs';
import { endpointGroups, fallbackGroup, isStreamedGroup, routeKey, routes } from '../infra/routes';
import { secretNames } from '../infra/secrets';
import { type SettingName, settingDecls } from '../infra/settings';
import { Secrets } from './Secrets';
import { Storage } from './Storage';

/** Set by this stack itself. */
const stackManaged: readonly SettingName[] = ['TABLE_NAME', 'STAGE'];
/** Meaningful only to the local runtime (`npm start`), or to `npm run bench` (never deployed). */
const localOnly: readonly SettingName[] = ['DYNAMODB_ENDPOINT', 'PORT', 'DATA_DIR', 'BENCH_THROTTLE_LIMIT'];

/**
 * Settings passed through from the deploy-time environment: everything in `infra/settings.ts` that is not a
 * secret, not set by this stack and not local-only.
 */
export const passThroughSettings: readonly SettingName[] = (Object.keys(settingDecls) as SettingName[]).filter(
  (name) => !(secretNames as readonly string[]).includes(name) && !stackManaged.includes(name) && !localOnly.includes(name),
);

/** The pass-through settings that are set in `env`. */
export function deployedSettings(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of passThroughSettings) {
    const value = env[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** Construct id of a group's function, e.g. `authGroup`. */
export const groupFunctionId = (group: string): string => `${group}Group`;

/**
 * What every endpoint group's function gets, here and in `stacks/Tutor.ts`: TABLE_NAME, STAGE, SECRETS_ID and
 * the plain settings set at deploy time; read/write access to the table's data and read access to the secret.
 */
export function groupFunctionProps(context: StackContext) {
  const { table } = use(Storage);
  const { secret } = use(Secrets);
  return {
    environment: {
      ...deployedSettings(),
      TABLE_NAME: table.tableName,
      STAGE: context.app.stage,
      SECRETS_ID: secret.secretArn,
    },
    // `[construct, method]` makes SST call e.g. `secret.grantRead(role)`: data access only, no table admin.
    permissions: [
      [table.cdk.table, 'grantReadWriteData'],
      [secret, 'grantRead'],
    ] as FunctionProps['permissions'],
  };
}

export function Api(context: StackContext) {
  const { stack } = context;
  const { environment, permissions } = groupFunctionProps(context);

  const functions = Object.fromEntries(
    endpointGroups
      .filter((group) => !isStreamedGroup(group))
      .map((group) => {
        const fn = new LambdaFunction(stack, groupFunctionId(group), {
          handler: `packages/functions/src/groups/${group}.handler`,
          description: `mathisland endpoint group ${group}`,
          environment,
          permissions,
        });
        return [group, fn];
      }),
  ) as Record<(typeof endpointGroups)[number], LambdaFunction>;

  const api = new SstApi(stack, 'Http', {
    routes: {
      ...Object.fromEntries(routes.filter((r) => !r.stream).map((r) => [routeKey(r), functions[r.group]])),
      $default: functions[fallbackGroup],
    },
  });

  stack.addOutputs({ ApiEndpoint: api.url });
  return { api, functions };
}
