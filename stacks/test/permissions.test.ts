/**
 * Least privilege (issue 14 §3): every function of the service, in every stack, has an IAM policy that is exactly
 * its declaration in `infra/permissions.ts`: the declared DynamoDB actions on the table's ARN, `dynamodb:Query` on
 * the declared GSIs' ARNs, `secretsmanager:GetSecretValue` on the stage secret's ARN when declared and on the origin
 * secret's for an endpoint group, and nothing
 * else (a job may also send to its own dead-letter queue): no `*` resource, no `*` action, no statement the
 * declaration does not explain, but the one exception every function has: X-Ray's two write actions on `*`, which
 * active tracing needs and X-Ray allows on no other resource (infra/permissions.ts tracingActions). That the declarations are
 * complete (every request the handlers send is declared) is proven by the black-box suite
 * (tests/support/tableAccess.ts); together a policy is what the code needs, no more.
 *
 * Secrets never travel in the environment: no function's environment holds a secret's name.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type FunctionName, functionAccess, jobNames } from '../../infra/permissions';
import { endpointGroups } from '../../infra/routes';
import { originSecretNames, secretNames } from '../../infra/secrets';
import {
  appLambdas,
  baseStage,
  declaredGrants,
  functionNameOf,
  grantedPairs,
  managedPoliciesOf,
  statementsOf,
  type Templates,
  tracingGrants,
} from './support';

let base: Templates;
beforeAll(() => {
  ({ templates: base } = baseStage());
});

/** Every function of the service in every stack sst.config.ts registers (a new stack's too). */
const allFunctions = () =>
  Object.entries(base).flatMap(([stack, template]) =>
    Object.entries(appLambdas(template)).map(([logicalId, fn]) => ({ stack, logicalId, fn, template })),
  );

describe('least privilege', () => {
  it('declares every endpoint group and job, and deploys a function for each endpoint group and for migrate', () => {
    expect(Object.keys(functionAccess).sort()).toEqual([...endpointGroups, ...jobNames].sort());
    const deployed = allFunctions().map(({ fn }) => functionNameOf(fn));
    expect(deployed).toEqual(expect.arrayContaining([...endpointGroups, 'migrate']));
  });

  it('gives every function exactly its declared table actions, indexes and secret: nothing else, no `*`', () => {
    const functions = allFunctions();
    expect(functions.length).toBeGreaterThanOrEqual(endpointGroups.length + 1);
    for (const { stack, logicalId, fn, template } of functions) {
      const name = functionNameOf(fn);
      expect(Object.keys(functionAccess), `${stack}/${logicalId} (${name}) has no declaration in infra/permissions.ts`).toContain(name);
      const granted = grantedPairs(statementsOf(template, fn));
      // A job's own dead-letter queue (failed runs after Lambda's retries) is the one thing beyond the table and secret.
      const ownDeadLetters = fn.Properties.DeadLetterConfig?.TargetArn;
      const deadLetterGrant = ownDeadLetters
        ? grantedPairs([{ Effect: 'Allow', Action: 'sqs:SendMessage', Resource: ownDeadLetters }])
        : [];
      expect(granted, `${stack}/${logicalId} (${name})`).toEqual([...declaredGrants(name as FunctionName), ...deadLetterGrant].sort());
      // `*` only in the tracing exception: exactly X-Ray's two write actions, nothing else on `*`.
      expect(
        granted.filter((g) => g.includes('*')),
        `${name}: a * action or resource beyond the tracing exception`,
      ).toEqual(tracingGrants().sort());
      // Logs only, through the AWS-managed basic execution role.
      expect(JSON.stringify(managedPoliciesOf(template, fn))).toMatch(
        /^\[(\{"Fn::Join":\["",\["arn:",\{"Ref":"AWS::Partition"\},":iam::aws:policy\/service-role\/AWSLambdaBasicExecutionRole"\]\]\})?\]$/,
      );
    }
  });

  it('keeps read-only groups read-only and health alone on the PITR check', () => {
    const writes = ['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'];
    expect(functionAccess.fallback.table).toEqual([]);
    expect(functionAccess.health.table.filter((a) => writes.includes(a))).toEqual([]);
    const withPitr = Object.entries(functionAccess).filter(([, a]) => (a.table as readonly string[]).includes('DescribeContinuousBackups'));
    expect(withPitr.map(([name]) => name)).toEqual(['health']);
  });

  it('flags a policy that gains a `*` resource, an undeclared action or a grantReadWriteData', () => {
    // The checker itself: what CDK's table.grantReadWriteData(fn) and a wildcard would add.
    const table = { 'Fn::ImportValue': 'test-mathisland-Storage:ExportsOutputFnGetAttDataTableFDBAD0F2Arn2713A995' };
    const granted = grantedPairs([
      { Effect: 'Allow', Action: ['dynamodb:GetItem', 'dynamodb:Scan'], Resource: [table, { 'Fn::Join': ['', [table, '/index/*']] }] },
      { Effect: 'Allow', Action: 's3:GetObject', Resource: '*' },
    ]);
    expect(granted).toEqual(
      [
        'dynamodb:GetItem on {"Fn::Join":["",[{"Fn::ImportValue":"test-mathisland-Storage:ExportsOutputFnGetAttDataTableFDBAD0F2Arn2713A995"},"/index/*"]]}',
        'dynamodb:GetItem on table',
        'dynamodb:Scan on {"Fn::Join":["",[{"Fn::ImportValue":"test-mathisland-Storage:ExportsOutputFnGetAttDataTableFDBAD0F2Arn2713A995"},"/index/*"]]}',
        'dynamodb:Scan on table',
        's3:GetObject on "*"',
      ].sort(),
    );
    expect(granted).not.toEqual(declaredGrants('curriculum'));
  });
});

describe('secrets only from Secrets Manager', () => {
  it('puts no secret in any function’s environment, not even one set in the deploying shell', () => {
    const functions = allFunctions();
    for (const { logicalId, fn } of functions) {
      const env = (fn.Properties.Environment?.Variables ?? {}) as Record<string, unknown>;
      for (const name of [...secretNames, ...originSecretNames]) expect(env, `${logicalId} environment`).not.toHaveProperty(name);
      expect(Object.values(env)).not.toContain('must-not-be-deployed');
    }
  });

  it('tells every function that reads the secret where it is (SECRETS_ID), and no other', () => {
    for (const { logicalId, fn } of allFunctions()) {
      const name = functionNameOf(fn) as FunctionName;
      const env = (fn.Properties.Environment?.Variables ?? {}) as Record<string, unknown>;
      if (functionAccess[name].secret) {
        expect(env.SECRETS_ID, logicalId).toEqual({ 'Fn::ImportValue': expect.stringMatching(/-Secrets:ExportsOutputRefAppSecret/) });
      } else {
        expect(env, logicalId).not.toHaveProperty('SECRETS_ID');
      }
    }
  });
});
