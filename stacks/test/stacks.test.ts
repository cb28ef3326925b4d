/**
 * The SST stacks, synthesized offline (no AWS account, no network) and asserted with aws-cdk-lib/assertions.
 *
 * The app is built the way `sst deploy` builds it: `initProject` reads sst.config.ts (stage `test`, or it
 * would prompt for a personal stage), the config is bundled and loaded by SST's own loader, its `stacks(app)`
 * registers the stacks with its default function props, and `app.finish()` bundles every function with
 * esbuild (as for a deploy) and applies the removal policy. Only the AWS look-ups of `sst deploy` (account id,
 * bootstrap bucket) are left out. Route and group assertions are generated from `infra/routes.ts`, so a route
 * added to the manifest but not deployed fails here.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Stack as CdkStack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { App, type Function as SstFunction, type Stack } from 'sst/constructs';
import { initProject, useProject } from 'sst/project.js';
import { load } from 'sst/stacks/build.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointGroups, fallbackGroup, isStreamedGroup, routeKey, routes, streamedGroups } from '../../infra/routes';
import { secretNames } from '../../infra/secrets';
import { table as tableManifest } from '../../infra/table';
import { type default as config, productionStage } from '../../sst.config';
import { spaFallbackCode } from '../Admin';
import { groupFunctionId, passThroughSettings } from '../Api';
import { STREAM_TIMEOUT_SECONDS, streamedUrlOutput } from '../Tutor';

// SST's App.finish() looks up the CDK bootstrap stack in AWS unless NODE_ENV is `test`.
process.env.NODE_ENV = 'test';

type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string };
type Resources = Record<string, Resource>;

/** Environment the synthesis runs with; restored afterwards. */
const deployEnv: Record<string, string | undefined> = {
  // A plain setting set in the deploying shell is passed through; an unset one is left out.
  AI_MODEL: 'deploy-time-model',
  OPENAI_BASE_URL: undefined,
  // Secrets in the shell must never reach the function environment.
  SECRET_KEY: 'must-not-be-deployed',
  OPENAI_API_KEY: 'must-not-be-deployed',
  // SST's deploy-mode build runs `npm install` in each bundle directory (with nothing to install): keep it offline.
  npm_config_offline: 'true',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
  SST_BUILD_CONCURRENCY: '4',
};
const savedEnv: Record<string, string | undefined> = {};

function setEnv(values: Record<string, string | undefined>) {
  for (const [name, value] of Object.entries(values)) {
    if (!(name in savedEnv)) savedEnv[name] = process.env[name];
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
}

async function synthesize(sstConfig: typeof config, stage: string, mode: 'deploy' | 'remove') {
  const { config: projectConfig } = useProject();
  const app = new App({ mode, stage, name: projectConfig.name, region: projectConfig.region });
  await sstConfig.stacks(app);
  await app.finish();
  const stack = (id: string) => {
    const found = app.node.tryFindChild(app.logicalPrefixedName(id));
    if (!found) throw new Error(`sst.config.ts registers no stack ${id}`);
    return found as Stack;
  };
  // sst 2.49.8 pins its own aws-cdk-lib; while the root one differs, the Stack types differ too (same runtime shape).
  const template = (id: string) => Template.fromStack(stack(id) as unknown as CdkStack);
  return {
    storage: template('Storage'),
    secrets: template('Secrets'),
    api: template('Api'),
    apiStack: stack('Api'),
    tutor: template('Tutor'),
    admin: template('Admin'),
  };
}

let storage: Template;
let secrets: Template;
let api: Template;
let apiStack: Stack;
let tutor: Template;
let admin: Template;
let production: Awaited<ReturnType<typeof synthesize>>;

beforeAll(async () => {
  await initProject({ stage: 'test' });
  setEnv(deployEnv);
  // As `sst deploy` does: bundle sst.config.ts (with the stacks) and import it.
  const [, sstConfig] = await load(useProject().paths.config);
  ({ storage, secrets, api, apiStack, tutor, admin } = await synthesize(sstConfig, 'test', 'deploy'));
  // `remove` mode skips bundling; only the removal policy of the production stage is looked at.
  production = await synthesize(sstConfig, productionStage, 'remove');
});

afterAll(() => setEnv(savedEnv));

const lambdas = (t: Template): Resources => t.findResources('AWS::Lambda::Function') as Resources;
/** The Lambda functions built from this repo's handlers (not SST's own custom-resource handlers). */
const appLambdas = (t: Template): Resources =>
  Object.fromEntries(Object.entries(lambdas(t)).filter(([, r]) => String(r.Properties.Handler).startsWith('packages/functions/')));
/** What the handlers and migrations do: reads, writes, transactions (their parts), GSI queries. */
const tableDataActions = [
  'dynamodb:GetItem',
  'dynamodb:Query',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:ConditionCheckItem',
];
const groupOf = (fn: Resource): string | undefined =>
  /^packages\/functions\/src\/groups\/([a-z-]+)\.handler$/.exec(String(fn.Properties.Handler))?.[1];

describe('sst.config', () => {
  it('names the stacks after the app and the stage', () => {
    expect(apiStack.stackName).toBe('test-mathisland-Api');
    expect(useProject().config.name).toBe('mathisland');
  });

  it('bundles ESM with exactly one `require` shim (SST adds createRequire itself) that parses', () => {
    const fn = apiStack.getAllFunctions().find((f: SstFunction) => f.node.id === groupFunctionId('health'));
    expect(fn).toBeDefined();
    const bundle = path.join(useProject().paths.artifacts, fn!.node.addr, 'packages/functions/src/groups/health.mjs');
    expect(existsSync(bundle)).toBe(true);
    const code = readFileSync(bundle, 'utf8');
    expect(code.match(/const require = \w*createRequire\w*\(import\.meta\.url\)/gi)).toHaveLength(1);
    execFileSync(process.execPath, ['--check', bundle]);
  });

  it('destroys every resource of a non-production stage on removal and retains every one of production', () => {
    // SST's binding parameters (AWS::SSM::Parameter, for `sst bind`) are added after the policy is applied.
    const deletionPolicies = (...templates: Template[]) =>
      new Set(
        templates.flatMap((t) =>
          Object.values(t.toJSON().Resources as Resources)
            .filter((r) => r.Type !== 'AWS::SSM::Parameter')
            .map((r) => r.DeletionPolicy),
        ),
      );
    expect(deletionPolicies(storage, secrets, api, tutor)).toEqual(new Set(['Delete']));
    expect(deletionPolicies(production.storage, production.secrets, production.api, production.tutor)).toEqual(new Set(['Retain']));
  });
});

describe('Storage', () => {
  it('deploys the one table of infra/table.ts: keys, GSIs with projection ALL, TTL, on-demand, PITR', () => {
    const gsis = Object.entries(tableManifest.globalIndexes);
    const keyNames = [tableManifest.partitionKey, tableManifest.sortKey, ...gsis.flatMap(([, i]) => [i.partitionKey, i.sortKey])];
    storage.resourceCountIs('AWS::DynamoDB::Table', 1);
    const [table] = Object.values(storage.findResources('AWS::DynamoDB::Table') as Resources);
    const p = table!.Properties;
    expect(p.KeySchema).toEqual([
      { AttributeName: tableManifest.partitionKey, KeyType: 'HASH' },
      { AttributeName: tableManifest.sortKey, KeyType: 'RANGE' },
    ]);
    expect(p.AttributeDefinitions).toEqual(expect.arrayContaining(keyNames.map((n) => ({ AttributeName: n, AttributeType: 'S' }))));
    expect(p.AttributeDefinitions).toHaveLength(keyNames.length);
    expect(p.GlobalSecondaryIndexes).toHaveLength(gsis.length);
    expect(p.GlobalSecondaryIndexes).toEqual(
      expect.arrayContaining(
        gsis.map(([name, i]) => ({
          IndexName: name,
          KeySchema: [
            { AttributeName: i.partitionKey, KeyType: 'HASH' },
            { AttributeName: i.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        })),
      ),
    );
    expect(p.TimeToLiveSpecification).toEqual({ AttributeName: 'expiresAt', Enabled: true });
    expect(p.TimeToLiveSpecification.AttributeName).toBe(tableManifest.ttlAttribute);
    expect(p.BillingMode).toBe('PAY_PER_REQUEST');
    expect(p.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
  });

  it('runs the migration function on create and on update, with TABLE_NAME and access to the table', () => {
    const [tableId] = Object.keys(storage.findResources('AWS::DynamoDB::Table'));
    const migrate = Object.entries(appLambdas(storage));
    expect(migrate).toHaveLength(1);
    const [migrateId, fn] = migrate[0]!;
    expect(fn.Properties.Handler).toBe('packages/functions/src/jobs/migrate.handler');
    expect(fn.Properties.Runtime).toBe('nodejs22.x');
    expect(fn.Properties.Environment.Variables.TABLE_NAME).toEqual({ Ref: tableId });

    const scripts = Object.values(storage.findResources('Custom::SSTScript') as Resources);
    expect(scripts).toHaveLength(1);
    expect(scripts[0]!.Properties.UserCreateFunction).toEqual({ Ref: migrateId });
    expect(scripts[0]!.Properties.UserUpdateFunction).toEqual({ Ref: migrateId });

    const roleId = fn.Properties.Role['Fn::GetAtt'][0];
    const policies = Object.values(storage.findResources('AWS::IAM::Policy') as Resources).filter((p) =>
      p.Properties.Roles.some((r: { Ref: string }) => r.Ref === roleId),
    );
    const statements = policies.flatMap((p) => p.Properties.PolicyDocument.Statement);
    expect(statements).toContainEqual(
      expect.objectContaining({
        Action: expect.arrayContaining(tableDataActions),
        Resource: expect.arrayContaining([{ 'Fn::GetAtt': [tableId, 'Arn'] }]),
      }),
    );
    expect(statements.flatMap((st) => st.Action)).not.toContain('dynamodb:*');
  });
});

describe('Secrets', () => {
  it('creates mathisland/<stage>/app holding every name of infra/secrets.ts, SECRET_KEY generated', () => {
    secrets.resourceCountIs('AWS::SecretsManager::Secret', 1);
    const [secret] = Object.values(secrets.findResources('AWS::SecretsManager::Secret') as Resources);
    expect(secret!.Properties.Name).toBe('mathisland/test/app');
    const generate = secret!.Properties.GenerateSecretString;
    expect(generate).toMatchObject({ GenerateStringKey: 'SECRET_KEY', PasswordLength: 64, ExcludePunctuation: true });
    const template = JSON.parse(generate.SecretStringTemplate) as Record<string, string>;
    expect([...Object.keys(template), generate.GenerateStringKey].sort()).toEqual([...secretNames].sort());
    expect(Object.values(template).every((v) => v === '')).toBe(true);
    expect(secret!.Properties.SecretString).toBeUndefined();
  });

  it('keeps the generation template of deployed secrets unless changed on purpose', () => {
    // Changing SecretStringTemplate makes CloudFormation regenerate the WHOLE secret value of every deployed
    // stage on its next deploy: a new SECRET_KEY (every session ends) and every provider key back to "".
    // When you add or remove a name in infra/secrets.ts, first save each stage's value
    // (aws secretsmanager get-secret-value --secret-id mathisland/<stage>/app), deploy, put it back
    // (with the new name) with put-secret-value, then update this list.
    expect([...secretNames]).toEqual([
      'SECRET_KEY',
      'INTERNAL_SERVICE_KEY',
      'SMS_API_KEY',
      'GATEWAY_MERCHANT_ID',
      'MARKETPLACE_API_SECRET',
      'MARKETPLACE_CLIENT_SECRET',
      'MARKETPLACE_DYNAMIC_PRICE_KEY',
      'OPENAI_API_KEY',
      'FIXED_OTP_LOGINS',
      'DEBUG_MASTER_OTP',
    ]);
  });
});

describe('Api', () => {
  it('deploys one function per endpoint group that is not streamed, nodejs22.x on arm64, 1024 MB, 30 s, JSON logs', () => {
    const fns = Object.values(appLambdas(api));
    expect(fns.map(groupOf).sort()).toEqual(endpointGroups.filter((g) => !isStreamedGroup(g)).sort());
    for (const fn of fns) {
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        MemorySize: 1024,
        Timeout: 30,
        LoggingConfig: { LogFormat: 'JSON' },
      });
    }
  });

  it('deploys every route of infra/routes.ts that is not streamed to its group, and $default to the fallback group', () => {
    const fnGroup = new Map(Object.entries(appLambdas(api)).map(([id, fn]) => [id, groupOf(fn)]));
    const integrations = api.findResources('AWS::ApiGatewayV2::Integration') as Resources;
    const deployed = new Map<string, string | undefined>();
    for (const route of Object.values(api.findResources('AWS::ApiGatewayV2::Route') as Resources)) {
      const integrationId = route.Properties.Target['Fn::Join'][1][1].Ref as string;
      const uri = integrations[integrationId]!.Properties.IntegrationUri;
      deployed.set(route.Properties.RouteKey, fnGroup.get(uri['Fn::GetAtt'][0]));
    }
    const expected = new Map<string, string | undefined>(routes.filter((r) => !r.stream).map((r) => [routeKey(r), r.group]));
    expected.set('$default', fallbackGroup);
    expect(Object.fromEntries(deployed)).toEqual(Object.fromEntries(expected));
  });

  it('gives every function TABLE_NAME, STAGE, SECRETS_ID and the plain settings set at deploy time, no secrets', () => {
    for (const fn of Object.values(appLambdas(api))) {
      const env = fn.Properties.Environment.Variables as Record<string, unknown>;
      expect(env.TABLE_NAME).toEqual({ 'Fn::ImportValue': expect.stringContaining('test-mathisland-Storage') });
      expect(env.STAGE).toBe('test');
      expect(env.SECRETS_ID).toEqual({ 'Fn::ImportValue': expect.stringContaining('test-mathisland-Secrets') });
      expect(env.AI_MODEL).toBe('deploy-time-model');
      expect(env).not.toHaveProperty('OPENAI_BASE_URL');
      for (const name of secretNames) expect(env).not.toHaveProperty(name);
      for (const name of ['DYNAMODB_ENDPOINT', 'PORT', 'DATA_DIR']) expect(env).not.toHaveProperty(name);
    }
    expect(passThroughSettings).toContain('AI_MODEL');
    expect(passThroughSettings).not.toContain('SECRET_KEY');
  });

  it('lets every function read and write the table and read the secret', () => {
    for (const [, fn] of Object.entries(appLambdas(api))) {
      const roleId = fn.Properties.Role['Fn::GetAtt'][0];
      const statements = Object.values(api.findResources('AWS::IAM::Policy') as Resources)
        .filter((p) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === roleId))
        .flatMap((p) => p.Properties.PolicyDocument.Statement);
      expect(statements).toContainEqual(
        expect.objectContaining({
          Action: expect.arrayContaining(tableDataActions),
          // The table and its GSIs.
          Resource: [
            { 'Fn::ImportValue': expect.stringContaining('test-mathisland-Storage') },
            { 'Fn::Join': ['', [{ 'Fn::ImportValue': expect.stringContaining('test-mathisland-Storage') }, '/index/*']] },
          ],
        }),
      );
      expect(statements.flatMap((st) => st.Action)).not.toContain('dynamodb:*');
      expect(statements).toContainEqual(
        expect.objectContaining({
          Action: expect.arrayContaining(['secretsmanager:GetSecretValue']),
          Resource: { 'Fn::ImportValue': expect.stringContaining('test-mathisland-Secrets') },
        }),
      );
    }
  });

  it('outputs the API URL as ApiEndpoint', () => {
    expect(Object.keys(api.findOutputs('ApiEndpoint'))).toEqual(['ApiEndpoint']);
  });

  it('deploys the payment groups (billing, payment, admin) with their routes', () => {
    const fns = Object.values(appLambdas(api));
    expect(fns.map(groupOf)).toEqual(expect.arrayContaining(['billing', 'payment', 'admin']));
    const routeKeys = Object.values(api.findResources('AWS::ApiGatewayV2::Route') as Resources).map((r) => r.Properties.RouteKey);
    expect(routeKeys).toEqual(
      expect.arrayContaining([
        'POST /api/subscription/purchase',
        'GET /api/payment/orders/{id}/pay',
        'GET /api/payment/gateway/callback',
        'POST /api/admin/login',
        'POST /api/admin/orders/{id}/refund',
      ]),
    );
  });
});

describe('Tutor', () => {
  it('deploys every streamed group as a function with a public function URL in RESPONSE_STREAM mode', () => {
    const fns = appLambdas(tutor);
    expect(Object.values(fns).map(groupOf)).toEqual([...streamedGroups]);
    expect(streamedGroups).toContain('tutor');
    const urls = Object.values(tutor.findResources('AWS::Lambda::Url') as Resources);
    expect(urls).toHaveLength(streamedGroups.length);
    for (const [id, fn] of Object.entries(fns)) {
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Timeout: STREAM_TIMEOUT_SECONDS,
        LoggingConfig: { LogFormat: 'JSON' },
      });
      const url = urls.find((u) => u.Properties.TargetFunctionArn['Fn::GetAtt']?.[0] === id);
      expect(url?.Properties).toMatchObject({
        AuthType: 'NONE',
        InvokeMode: 'RESPONSE_STREAM',
        Cors: {
          AllowMethods: ['POST'],
          AllowHeaders: ['authorization', 'content-type'],
          ExposeHeaders: ['x-message-id', 'x-tutor-outcome', 'retry-after'],
        },
      });
      // A public URL: anyone may invoke it (the handler checks the bearer token).
      const permissions = Object.values(tutor.findResources('AWS::Lambda::Permission') as Resources).filter(
        (p) => p.Properties.FunctionName?.['Fn::GetAtt']?.[0] === id,
      );
      expect(permissions).toContainEqual(
        expect.objectContaining({
          Properties: expect.objectContaining({ Action: 'lambda:InvokeFunctionUrl', Principal: '*', FunctionUrlAuthType: 'NONE' }),
        }),
      );
    }
  });

  it('gives the tutor TABLE_NAME, STAGE, SECRETS_ID and the plain settings, no secrets, and access to table and secret', () => {
    for (const [, fn] of Object.entries(appLambdas(tutor))) {
      const env = fn.Properties.Environment.Variables as Record<string, unknown>;
      expect(env.TABLE_NAME).toEqual({ 'Fn::ImportValue': expect.stringContaining('test-mathisland-Storage') });
      expect(env.STAGE).toBe('test');
      expect(env.SECRETS_ID).toEqual({ 'Fn::ImportValue': expect.stringContaining('test-mathisland-Secrets') });
      expect(env.AI_MODEL).toBe('deploy-time-model');
      for (const name of secretNames) expect(env).not.toHaveProperty(name);
      const roleId = fn.Properties.Role['Fn::GetAtt'][0];
      const statements = Object.values(tutor.findResources('AWS::IAM::Policy') as Resources)
        .filter((p) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === roleId))
        .flatMap((p) => p.Properties.PolicyDocument.Statement);
      expect(statements).toContainEqual(expect.objectContaining({ Action: expect.arrayContaining(tableDataActions) }));
      expect(statements).toContainEqual(expect.objectContaining({ Action: expect.arrayContaining(['secretsmanager:GetSecretValue']) }));
    }
  });

  it('outputs the tutor URL as TutorUrl', () => {
    expect(streamedUrlOutput('tutor')).toBe('TutorUrl');
    const outputs = tutor.findOutputs('TutorUrl');
    expect(Object.keys(outputs)).toEqual(['TutorUrl']);
    expect(JSON.stringify(outputs.TutorUrl)).toContain('FunctionUrl');
  });
});

describe('Admin', () => {
  const distribution = () => {
    const found = Object.values(admin.findResources('AWS::CloudFront::Distribution') as Resources);
    expect(found).toHaveLength(1);
    return found[0]!.Properties.DistributionConfig;
  };
  const behavior = (pattern: string) => distribution().CacheBehaviors.find((b: { PathPattern: string }) => b.PathPattern === pattern);

  it('builds packages/admin with its build script and uploads dist/, whose admin/ is the panel', () => {
    expect(existsSync('packages/admin/dist/admin/index.html')).toBe(true);
    const uploads = Object.values(admin.findResources('Custom::S3Uploader') as Resources);
    expect(uploads).toHaveLength(1);
    const [bucketId] = Object.keys(admin.findResources('AWS::S3::Bucket'));
    expect(uploads[0]!.Properties.destinationBucketName).toEqual({ Ref: bucketId });
    // What was zipped for the upload (SST lists the file names beside the zips).
    const artifacts = useProject().paths.artifacts;
    const [zipDir] = readdirSync(artifacts).filter((name) => name.startsWith('StaticSite-admin-'));
    const files = readFileSync(path.join(artifacts, zipDir!, 'filenames'), 'utf8').split('\n');
    expect(files).toContain('admin/index.html');
    expect(files.every((f) => f === '' || f.startsWith('admin/'))).toBe(true);
    expect(files.some((f) => /^admin\/assets\/index-[\w-]+\.js$/.test(f))).toBe(true);
  });

  it('keeps the bucket private: CloudFront reads it, nobody else', () => {
    const [bucket] = Object.values(admin.findResources('AWS::S3::Bucket') as Resources);
    expect(bucket!.Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
  });

  it('serves /admin/* from the bucket through the deep-link function, and / opens the panel', () => {
    expect(distribution().DefaultRootObject).toBe('admin/index.html');
    const panel = behavior('/admin/*');
    expect(panel.ViewerProtocolPolicy).toBe('redirect-to-https');
    expect(panel.FunctionAssociations).toEqual([{ EventType: 'viewer-request', FunctionARN: expect.anything() }]);
  });

  it('sends the panel’s routes to index.html and leaves the build’s files alone (the function’s own code)', () => {
    const handler = new Function(`${spaFallbackCode}; return handler;`)() as (e: { request: { uri: string } }) => { uri: string };
    const uriOf = (uri: string) => handler({ request: { uri } }).uri;
    expect(uriOf('/admin/')).toBe('/admin/index.html');
    expect(uriOf('/admin/orders/5/show')).toBe('/admin/index.html');
    expect(uriOf('/admin/staff/a.b@c.ir')).toBe('/admin/index.html');
    expect(uriOf('/admin/assets/index-BjXgc8cI.js')).toBe('/admin/assets/index-BjXgc8cI.js');
    expect(uriOf('/admin/index.html')).toBe('/admin/index.html');
  });

  it('serves /api/* from the HTTP API on the same origin: uncached, every method, the viewer’s headers and cookies', () => {
    const apiBehavior = behavior('/api/*');
    expect(apiBehavior.ViewerProtocolPolicy).toBe('https-only');
    expect(apiBehavior.AllowedMethods).toEqual(expect.arrayContaining(['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE']));
    expect(apiBehavior.CachePolicyId).toBe('4135ea2d-6df8-44a3-9df3-4b5a84be39ad'); // CachingDisabled
    expect(apiBehavior.OriginRequestPolicyId).toBe('b689b0a8-53d0-40ab-baf2-68738e2966ac'); // AllViewerExceptHostHeader
    const origin = distribution().Origins.find((o: { Id: string }) => o.Id === apiBehavior.TargetOriginId);
    expect(JSON.stringify(origin.DomainName)).toContain('test-mathisland-Api');
    // No error pages: the API's 401/403/404 answers reach the panel as they are.
    expect(distribution().CustomErrorResponses ?? []).toEqual([]);
  });

  it('caches hashed assets for a year and revalidates everything else (index.html)', () => {
    const [upload] = Object.values(admin.findResources('Custom::S3Uploader') as Resources);
    expect(upload!.Properties.fileOptions).toEqual(
      expect.arrayContaining([
        { files: '**', cacheControl: 'max-age=0,no-cache,no-store,must-revalidate' },
        { files: 'admin/assets/**', cacheControl: 'max-age=31536000,public,immutable' },
      ]),
    );
  });

  it('outputs the panel’s URL as AdminUrl', () => {
    expect(JSON.stringify(admin.findOutputs('AdminUrl'))).toContain('/admin/');
  });
});
