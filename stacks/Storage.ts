/**
 * Storage: the one DynamoDB table of the service (single-table design, DESIGN §5) and the deploy-time data
 * migrations.
 *
 * Everything about the table comes from `infra/table.ts`: key names, the GSIs (string keys, projection ALL)
 * and the TTL attribute. The table is on-demand with point-in-time recovery in every stage; in `production` it
 * also has deletion protection (CloudFormation cannot delete it, not even by replacement) and is retained when
 * the stack or the stage is removed (the app's removal policy, sst.config.ts).
 *
 * The `Script` runs `packages/functions/src/jobs/migrate.ts` when the stack is created and on every later
 * deploy of it (SST gives the Script a new version on each deploy); the migrations are idempotent and record
 * what they applied, so a run with nothing to do costs one Query.
 *
 * The table's name is SST's `<stage>-<app>-<id>`, `<stage>-mathisland-Data` (output `TableName`).
 */
import { BillingMode } from 'aws-cdk-lib/aws-dynamodb';
import { Function as LambdaFunction, Script, type StackContext, Table, type TableProps } from 'sst/constructs';
import { metricNamespace } from '../infra/metrics';
import { table as tableManifest } from '../infra/table';
import { accessStatements } from './access';
import { PRODUCTION_STAGE } from './config';

/** Every key attribute of the manifest (base table and GSIs), all strings. */
function keyFields(): NonNullable<TableProps['fields']> {
  const names: string[] = [tableManifest.partitionKey, tableManifest.sortKey];
  for (const index of Object.values(tableManifest.globalIndexes)) names.push(index.partitionKey, index.sortKey);
  return Object.fromEntries(names.map((name) => [name, 'string' as const]));
}

export function Storage({ stack, app }: StackContext) {
  const table = new Table(stack, 'Data', {
    fields: keyFields(),
    primaryIndex: { partitionKey: tableManifest.partitionKey, sortKey: tableManifest.sortKey },
    globalIndexes: Object.fromEntries(
      Object.entries(tableManifest.globalIndexes).map(([name, index]) => [
        name,
        { partitionKey: index.partitionKey, sortKey: index.sortKey, projection: 'all' as const },
      ]),
    ),
    timeToLiveAttribute: tableManifest.ttlAttribute,
    cdk: {
      table: {
        billingMode: BillingMode.PAY_PER_REQUEST,
        // SST passes the deprecated `pointInTimeRecovery: true`; CDK refuses both props at once, so clear it and
        // use the current form.
        pointInTimeRecovery: undefined,
        pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
        deletionProtection: app.stage === PRODUCTION_STAGE,
      },
    },
  });

  // One function for both events; a Script's functions cannot use live dev (`sst dev`).
  const migrate = new LambdaFunction(stack, 'Migrate', {
    handler: 'packages/functions/src/jobs/migrate.handler',
    description: 'Applies the data migrations of packages/core/src/migrations',
    enableLiveDev: false,
    timeout: 900,
    environment: { TABLE_NAME: table.tableName, POWERTOOLS_METRICS_NAMESPACE: metricNamespace(app.stage) },
    // Least privilege (infra/permissions.ts `migrate`): item reads and writes on the table, no secret; and, as every
    // function, X-Ray tracing (its one IAM exception, infra/permissions.ts tracingActions).
    permissions: accessStatements('migrate', { table }),
    tracing: 'active',
  });
  new Script(stack, 'Migrations', { onCreate: migrate, onUpdate: migrate });

  // What `TABLE_NAME=<TableName> npm run createsuperuser -- --aws` needs (docs/deploy.md): `<stage>-mathisland-Data`.
  stack.addOutputs({ TableName: table.tableName });
  return { table };
}
