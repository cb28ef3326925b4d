/**
 * The Jobs stack, synthesized offline (no AWS account, no network) and asserted with aws-cdk-lib/assertions: the
 * hourly marketplace renewal `Cron`, its dead-letter queue and retries, its least-privilege table access (no Scan),
 * its environment; the payment re-check `Cron` beside it; and that sst.config.ts registers it (retained in production).
 *
 * To stay quick, the deploy-mode app holds only Storage, Secrets and Jobs (two functions to bundle), with the
 * config's own default function props; the whole config is synthesized in `remove` mode, which bundles nothing.
 * `stacks.test.ts` synthesizes every stack in deploy mode.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Stack as CdkStack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { App, type Function as SstFunction, type Stack } from 'sst/constructs';
import { initProject, useProject } from 'sst/project.js';
import { load } from 'sst/stacks/build.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { functionAccess } from '../../infra/permissions';
import { secretNames } from '../../infra/secrets';
import { type default as config, defaultFunctionProps, productionStage } from '../../sst.config';
import { removedAfterAll } from '../../tests/support/tempDirs';
import { Jobs, RENEWAL_RETRY_ATTEMPTS, RENEWAL_SCHEDULE } from '../Jobs';
import { Secrets } from '../Secrets';
import { Storage } from '../Storage';
import { DLQ_RETENTION_DAYS } from '../scheduledJob';

// SST's App.finish() looks up the CDK bootstrap stack in AWS unless NODE_ENV is `test`.
process.env.NODE_ENV = 'test';
process.env.npm_config_offline = 'true';

type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string };
type Resources = Record<string, Resource>;

const stackOf = (app: App, id: string): Stack => {
  const found = app.node.tryFindChild(app.logicalPrefixedName(id));
  if (!found) throw new Error(`no stack ${id}`);
  return found as Stack;
};
// sst 2.49.8 pins its own aws-cdk-lib; while the root one differs, the Stack types differ too (same runtime shape).
const templateOf = (app: App, id: string) => Template.fromStack(stackOf(app, id) as unknown as CdkStack);

let jobs: Template;
let jobsStack: Stack;
let productionJobs: Template;

// The CDK's temporary assemblies of the two apps (tens of MB each), removed when the tests are done.
const removeLater = removedAfterAll();

beforeAll(async () => {
  await initProject({ stage: 'test' });
  const { config: project } = useProject();
  const app = new App({ mode: 'deploy', stage: 'test', name: project.name, region: project.region });
  app.setDefaultRemovalPolicy('destroy');
  app.setDefaultFunctionProps(defaultFunctionProps);
  app.stack(Storage).stack(Secrets).stack(Jobs);
  await app.finish();
  jobs = templateOf(app, 'Jobs');
  jobsStack = stackOf(app, 'Jobs');
  removeLater(app.outdir);

  const [, sstConfig] = (await load(useProject().paths.config)) as [unknown, typeof config];
  const production = new App({ mode: 'remove', stage: productionStage, name: project.name, region: project.region });
  await sstConfig.stacks(production);
  await production.finish();
  productionJobs = templateOf(production, 'Jobs');
  removeLater(production.outdir);
});

const renewalRule = (fnId: string): Resource => {
  const rules = Object.values(jobs.findResources('AWS::Events::Rule') as Resources).filter((r) =>
    r.Properties.Targets.some((t: { Arn: unknown }) => JSON.stringify(t.Arn) === JSON.stringify({ 'Fn::GetAtt': [fnId, 'Arn'] })),
  );
  expect(rules).toHaveLength(1);
  return rules[0]!;
};

const renewalFunction = (): [string, Resource] => {
  const fns = Object.entries(jobs.findResources('AWS::Lambda::Function') as Resources).filter(
    ([, fn]) => fn.Properties.Handler === 'packages/functions/src/jobs/marketplaceRenewal.handler',
  );
  expect(fns).toHaveLength(1);
  return fns[0]!;
};

describe('Jobs: the marketplace renewal job', () => {
  it('runs the renewal handler every hour from an EventBridge rule, nodejs22.x on arm64, JSON logs', () => {
    const [fnId, fn] = renewalFunction();
    expect(fn.Properties).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], LoggingConfig: { LogFormat: 'JSON' } });
    const rule = renewalRule(fnId);
    expect(RENEWAL_SCHEDULE).toBe('rate(1 hour)');
    expect(rule.Properties.ScheduleExpression).toBe('rate(1 hour)');
    expect(rule.Properties.State).toBe('ENABLED');
  });

  it('sends failed runs (after Lambda retries) and undeliverable events to its dead-letter queue', () => {
    const [fnId, fn] = renewalFunction();
    const queueId = fn.Properties.DeadLetterConfig?.TargetArn?.['Fn::GetAtt']?.[0] as string;
    const queue = (jobs.findResources('AWS::SQS::Queue') as Resources)[queueId]!;
    expect(queue).toBeDefined();
    expect(queue.Properties.MessageRetentionPeriod).toBe(DLQ_RETENTION_DAYS * 86_400);
    expect(fn.Properties.DeadLetterConfig).toEqual({ TargetArn: { 'Fn::GetAtt': [queueId, 'Arn'] } });
    const invokeConfigs = Object.values(jobs.findResources('AWS::Lambda::EventInvokeConfig') as Resources);
    expect(invokeConfigs).toContainEqual(
      expect.objectContaining({
        Properties: expect.objectContaining({ FunctionName: { Ref: fnId }, MaximumRetryAttempts: RENEWAL_RETRY_ATTEMPTS }),
      }),
    );
    const [target] = renewalRule(fnId).Properties.Targets;
    expect(target.DeadLetterConfig).toEqual({ Arn: { 'Fn::GetAtt': [queueId, 'Arn'] } });
    expect(target.RetryPolicy).toMatchObject({ MaximumRetryAttempts: RENEWAL_RETRY_ATTEMPTS, MaximumEventAgeInSeconds: 3600 });
    // The queue lets the function and EventBridge send to it, nobody else.
    const statements = [
      ...Object.values(jobs.findResources('AWS::IAM::Policy') as Resources),
      ...Object.values(jobs.findResources('AWS::SQS::QueuePolicy') as Resources),
    ].flatMap((p) => p.Properties.PolicyDocument.Statement);
    expect(statements).toContainEqual(expect.objectContaining({ Action: 'sqs:SendMessage', Resource: { 'Fn::GetAtt': [queueId, 'Arn'] } }));
    // Only over TLS, like every job's queue (stacks/scheduledJob.ts).
    expect(statements).toContainEqual(
      expect.objectContaining({
        Effect: 'Deny',
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        Resource: { 'Fn::GetAtt': [queueId, 'Arn'] },
      }),
    );
  });

  it('may only do what infra/permissions.ts declares for it (get, query, put, update, condition-check; gsi1, gsi2), and read the secret', () => {
    const [, fn] = renewalFunction();
    const roleId = fn.Properties.Role['Fn::GetAtt'][0];
    const statements = Object.values(jobs.findResources('AWS::IAM::Policy') as Resources)
      .filter((p) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === roleId))
      .flatMap((p) => p.Properties.PolicyDocument.Statement);
    const declared = functionAccess['marketplace-renewal'];
    const dynamoActions = statements.flatMap((st) => [st.Action].flat()).filter((a: string) => a.startsWith('dynamodb:'));
    expect(new Set(dynamoActions)).toEqual(new Set(declared.table.map((a) => `dynamodb:${a}`)));
    expect(JSON.stringify(statements)).toContain('/index/gsi1');
    expect(JSON.stringify(statements)).toContain('/index/gsi2');
    expect(JSON.stringify(statements)).not.toContain('/index/*');
    const actions = statements.flatMap((st) => [st.Action].flat());
    for (const forbidden of ['dynamodb:Scan', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem', 'dynamodb:*', '*']) {
      expect(actions).not.toContain(forbidden);
    }
    const secretRead = statements.find((st) => [st.Action].flat().includes('secretsmanager:GetSecretValue'));
    expect(secretRead?.Resource).toEqual({ 'Fn::ImportValue': expect.stringContaining('test-mathisland-Secrets') });
  });

  it('bundles the handler as an ESM file that parses', () => {
    const fn = jobsStack.getAllFunctions().find((f: SstFunction) => f.node.path.includes('MarketplaceRenewal'));
    expect(fn).toBeDefined();
    const bundle = path.join(useProject().paths.artifacts, fn!.node.addr, 'packages/functions/src/jobs/marketplaceRenewal.mjs');
    expect(existsSync(bundle)).toBe(true);
    execFileSync(process.execPath, ['--check', bundle]);
  });

  it('gets TABLE_NAME, STAGE and SECRETS_ID, never a secret', () => {
    const [, fn] = renewalFunction();
    const env = fn.Properties.Environment.Variables as Record<string, unknown>;
    expect(env.TABLE_NAME).toEqual({ 'Fn::ImportValue': expect.stringContaining('test-mathisland-Storage') });
    expect(env.STAGE).toBe('test');
    expect(env.SECRETS_ID).toEqual({ 'Fn::ImportValue': expect.stringContaining('test-mathisland-Secrets') });
    for (const name of secretNames) expect(env).not.toHaveProperty(name);
  });

  it('is registered by sst.config.ts, and production retains its queue', () => {
    // The payment re-check, the marketplace renewal, the board snapshots (issue 30), the streak freezes and the parent
    // reports (issue 24).
    expect(Object.keys(productionJobs.findResources('AWS::Events::Rule'))).toHaveLength(5);
    const policies = new Set(
      Object.values(productionJobs.toJSON().Resources as Resources)
        .filter((r) => r.Type !== 'AWS::SSM::Parameter')
        .map((r) => r.DeletionPolicy),
    );
    expect(policies).toEqual(new Set(['Retain']));
    for (const queue of Object.values(jobs.findResources('AWS::SQS::Queue') as Resources)) expect(queue.DeletionPolicy).toBe('Delete');
  });
});
