/**
 * Api: the HTTP API (API Gateway HTTP API) with one Lambda per endpoint group (DESIGN §1, §2).
 *
 * Generated from `infra/routes.ts`: one `Function` per entry of `endpointGroups`
 * (`packages/functions/src/groups/<group>.handler`), one route per entry of `routes` (route key
 * `routeKey(r)`) pointing at its group's function, and `$default` pointing at the `fallbackGroup` function,
 * which answers unknown paths and methods in the service's JSON error body.
 *
 * Every function gets TABLE_NAME, STAGE, SECRETS_ID (the ARN of the stage's secret) and the plain settings
 * of `infra/settings.ts` that are set in the deploying shell (or in `.env.<stage>`, which `sst` loads);
 * unset ones are left out so the code's defaults apply. Secrets never go into the environment.
 */
import { Function as LambdaFunction, Api as SstApi, type StackContext, use } from 'sst/constructs';
import { endpointGroups, fallbackGroup, routeKey, routes } from '../infra/routes';
import { secretNames } from '../infra/secrets';
import { type SettingName, settingDecls } from '../infra/settings';
import { Secrets } from './Secrets';
import { Storage } from './Storage';

/** Set by this stack itself. */
const stackManaged: readonly SettingName[] = ['TABLE_NAME', 'STAGE'];
/** Meaningful only to the local runtime (`npm start`). */
const localOnly: readonly SettingName[] = ['DYNAMODB_ENDPOINT', 'PORT', 'DATA_DIR'];

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

export function Api({ stack, app }: StackContext) {
  const { table } = use(Storage);
  const { secret } = use(Secrets);

  const environment = {
    ...deployedSettings(),
    TABLE_NAME: table.tableName,
    STAGE: app.stage,
    SECRETS_ID: secret.secretArn,
  };

  const functions = Object.fromEntries(
    endpointGroups.map((group) => {
      const fn = new LambdaFunction(stack, groupFunctionId(group), {
        handler: `packages/functions/src/groups/${group}.handler`,
        description: `mathisland endpoint group ${group}`,
        environment,
        // `[construct, method]` makes SST call e.g. `secret.grantRead(role)`: data access only, no table admin.
        permissions: [
          [table.cdk.table, 'grantReadWriteData'],
          [secret, 'grantRead'],
        ],
      });
      return [group, fn];
    }),
  ) as Record<(typeof endpointGroups)[number], LambdaFunction>;

  const api = new SstApi(stack, 'Http', {
    routes: {
      ...Object.fromEntries(routes.map((r) => [routeKey(r), functions[r.group]])),
      $default: functions[fallbackGroup],
    },
  });

  stack.addOutputs({ ApiEndpoint: api.url });
  return { api, functions };
}
