/**
 * A function's IAM statements from its declaration in `infra/permissions.ts` (least privilege, asserted by
 * stacks/test/permissions.test.ts): `dynamodb:<action>` on the table, `dynamodb:Query` on each declared GSI,
 * `secretsmanager:GetSecretValue` on the stage secret, and on the origin secret for an endpoint group
 * (`readsOriginSecret`). Every resource is an ARN of this stage; never `*`.
 */
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Table } from 'sst/constructs';
import { type FunctionName, functionAccess, readsOriginSecret } from '../infra/permissions';

export function accessStatements(
  fn: FunctionName,
  resources: { table: Table; secret?: ISecret; originSecret?: ISecret },
): PolicyStatement[] {
  const access = functionAccess[fn];
  const tableArn = resources.table.tableArn;
  const statements: PolicyStatement[] = [];
  if (access.table.length) {
    statements.push(
      new PolicyStatement({ effect: Effect.ALLOW, actions: access.table.map((a) => `dynamodb:${a}`), resources: [tableArn] }),
    );
  }
  if (access.indexes.length) {
    statements.push(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['dynamodb:Query'],
        resources: access.indexes.map((index) => `${tableArn}/index/${index}`),
      }),
    );
  }
  if (access.secret) {
    if (!resources.secret) throw new Error(`${fn} reads the stage secret (infra/permissions.ts) but was given none`);
    statements.push(
      new PolicyStatement({ effect: Effect.ALLOW, actions: ['secretsmanager:GetSecretValue'], resources: [resources.secret.secretArn] }),
    );
  }
  if (readsOriginSecret(fn)) {
    if (!resources.originSecret) throw new Error(`${fn} reads the origin secret (an endpoint group) but was given none`);
    statements.push(
      new PolicyStatement({
        effect: Effect.ALLOW,
        actions: ['secretsmanager:GetSecretValue'],
        resources: [resources.originSecret.secretArn],
      }),
    );
  }
  return statements;
}
