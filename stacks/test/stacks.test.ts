/**
 * The SST stacks, synthesized offline (no AWS account, no network) and asserted with aws-cdk-lib/assertions: what
 * each stack deploys. The stage `test` comes from the project's global setup (built as for a deploy); the
 * production stage is synthesized here for its removal and deletion rules. Route and group assertions are
 * generated from `infra/routes.ts`, so a route added to the manifest but not deployed fails here.
 *
 * The other files of this folder assert one concern each: least privilege (permissions.test.ts), the one domain
 * (web.test.ts), alarms (monitoring.test.ts), deploy-time guards (guards.test.ts), the routes contract
 * (contract.test.ts).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { functionMemoryMb, isSplitGroup } from '../../infra/functions';
import { type EndpointGroup, endpointGroups, fallbackGroup, isStreamedGroup, routeKey, routes, streamedGroups } from '../../infra/routes';
import { secretNames } from '../../infra/secrets';
import { table as tableManifest } from '../../infra/table';
import { productionStage } from '../../sst.config';
import { passThroughSettings } from '../service';
import { projectPaths } from '../synth';
import { EXPORT_TIMEOUT_SECONDS, STREAM_TIMEOUT_SECONDS, streamedUrlOutput } from '../Tutor';
import { appLambdas, baseStage, groupOf, type Resource, type Resources, resourcesOf, synthVariant, type Templates } from './support';

let base: Templates;
let outdir: string;
let production: Templates;

beforeAll(async () => {
  ({ templates: base, outdir } = baseStage());
  // Nothing built: only the removal rules are looked at.
  production = await synthVariant(productionStage, {});
});

describe('sst.config', () => {
  it('names the stacks after the stage and the app, Monitoring last', () => {
    const manifest = JSON.parse(readFileSync(path.join(outdir, 'manifest.json'), 'utf8'));
    const stacks = Object.keys(manifest.artifacts).filter((k) => manifest.artifacts[k].type === 'aws:cloudformation:stack');
    expect(stacks).toEqual(['Storage', 'Secrets', 'Api', 'Tutor', 'Jobs', 'Web', 'Monitoring'].map((id) => `test-mathisland-${id}`));
  });

  it('bundles ESM with exactly one `require` shim (SST adds createRequire itself) that parses', () => {
    const health = Object.values(appLambdas(base.Api)).find((fn) => groupOf(fn) === 'health')!;
    const asset = `asset.${String(health.Properties.Code.S3Key).replace(/\.zip$/, '')}`;
    const bundle = path.join(outdir, asset, 'packages/functions/src/groups/health.mjs');
    expect(existsSync(bundle)).toBe(true);
    const code = readFileSync(bundle, 'utf8');
    expect(code.match(/const require = \w*createRequire\w*\(import\.meta\.url\)/gi)).toHaveLength(1);
    execFileSync(process.execPath, ['--check', bundle]);
  });

  it('ships the model groups split: the openai SDK in a file of the function package beside the handler, the others one file, no source map in either', () => {
    const lambdas = [...Object.values(appLambdas(base.Api)), ...Object.values(appLambdas(base.Tutor))];
    for (const group of ['rag', 'tutor', 'health', 'learning']) {
      const fn = lambdas.find((f) => groupOf(f) === group)!;
      const dir = path.join(outdir, `asset.${String(fn.Properties.Code.S3Key).replace(/\.zip$/, '')}`, 'packages/functions/src/groups');
      const files = readdirSync(dir).filter((f) => f.endsWith('.mjs'));
      expect(files, group).toContain(`${group}.mjs`);
      // SST takes the handler's source map out of the package (for its console); the chunks' maps are left out too.
      expect(
        readdirSync(dir).filter((f) => f.endsWith('.map')),
        group,
      ).toEqual([]);
      const split = files.filter((f) => /^openai-\w+\.mjs$/.test(f));
      expect(split, group).toHaveLength(isSplitGroup(group as EndpointGroup) ? 1 : 0);
      if (!isSplitGroup(group as EndpointGroup)) expect(files, group).toEqual([`${group}.mjs`]);
      execFileSync(process.execPath, ['--check', path.join(dir, `${group}.mjs`)]);
    }
  });

  it('destroys every resource of a non-production stage on removal and retains every one of production', () => {
    // SST's binding parameters (AWS::SSM::Parameter, for `sst bind`) are added after the policy is applied.
    const deletionPolicies = (templates: Templates) =>
      new Set(
        Object.values(templates).flatMap((t: Template) =>
          Object.values(t.toJSON().Resources as Resources)
            .filter((r) => r.Type !== 'AWS::SSM::Parameter')
            .map((r) => r.DeletionPolicy),
        ),
      );
    const { Storage, Secrets, Api, Tutor } = base;
    expect(deletionPolicies({ Storage, Secrets, Api, Tutor } as Templates)).toEqual(new Set(['Delete']));
    const p = production;
    expect(deletionPolicies({ Storage: p.Storage, Secrets: p.Secrets, Api: p.Api, Tutor: p.Tutor } as Templates)).toEqual(
      new Set(['Retain']),
    );
  });
});

describe('Storage', () => {
  const tableOf = (t: Template): Resource => {
    const tables = Object.values(resourcesOf(t, 'AWS::DynamoDB::Table'));
    expect(tables).toHaveLength(1);
    return tables[0]!;
  };

  it('deploys the one table of infra/table.ts: keys, GSIs with projection ALL, TTL, on-demand, PITR', () => {
    const gsis = Object.entries(tableManifest.globalIndexes);
    const keyNames = [tableManifest.partitionKey, tableManifest.sortKey, ...gsis.flatMap(([, i]) => [i.partitionKey, i.sortKey])];
    const p = tableOf(base.Storage).Properties;
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

  it('protects the production table: PITR, deletion protection, retained on removal and on replacement', () => {
    const table = tableOf(production.Storage);
    expect(table.Properties.PointInTimeRecoverySpecification).toEqual({ PointInTimeRecoveryEnabled: true });
    expect(table.Properties.DeletionProtectionEnabled).toBe(true);
    expect(table.DeletionPolicy).toBe('Retain');
    expect(table.UpdateReplacePolicy).toBe('Retain');
    // Other stages can be removed completely.
    expect(tableOf(base.Storage).Properties.DeletionProtectionEnabled).toBe(false);
  });

  it('runs the migration function on create and on update, with TABLE_NAME', () => {
    const migrate = Object.entries(appLambdas(base.Storage));
    expect(migrate).toHaveLength(1);
    const [migrateId, fn] = migrate[0]!;
    const [tableId] = Object.keys(resourcesOf(base.Storage, 'AWS::DynamoDB::Table'));
    expect(fn.Properties.Handler).toBe('packages/functions/src/jobs/migrate.handler');
    expect(fn.Properties.Runtime).toBe('nodejs22.x');
    expect(fn.Properties.Environment.Variables.TABLE_NAME).toEqual({ Ref: tableId });
    const scripts = Object.values(resourcesOf(base.Storage, 'Custom::SSTScript'));
    expect(scripts).toHaveLength(1);
    expect(scripts[0]!.Properties.UserCreateFunction).toEqual({ Ref: migrateId });
    expect(scripts[0]!.Properties.UserUpdateFunction).toEqual({ Ref: migrateId });
  });
});

describe('Secrets', () => {
  it('creates mathisland/<stage>/app holding every name of infra/secrets.ts, SECRET_KEY generated', () => {
    // The app secret and the origin secret (stacks/test/edge.test.ts).
    base.Secrets.resourceCountIs('AWS::SecretsManager::Secret', 2);
    const secret = Object.values(resourcesOf(base.Secrets, 'AWS::SecretsManager::Secret')).find(
      (s) => s.Properties.Name === 'mathisland/test/app',
    );
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
  it('deploys one function per endpoint group that is not streamed, nodejs22.x on arm64, sized as infra/functions.ts says, 30 s, JSON logs, X-Ray active tracing', () => {
    const fns = Object.values(appLambdas(base.Api));
    expect(fns.map(groupOf).sort()).toEqual(endpointGroups.filter((g) => !isStreamedGroup(g)).sort());
    for (const fn of fns) {
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        MemorySize: functionMemoryMb[groupOf(fn) as EndpointGroup],
        Timeout: 30,
        LoggingConfig: { LogFormat: 'JSON' },
      });
      expect(fn.Properties.TracingConfig).toEqual({ Mode: 'Active' });
    }
  });

  it('deploys every route of infra/routes.ts that is not streamed to its group, and $default to the fallback group', () => {
    const fnGroup = new Map(Object.entries(appLambdas(base.Api)).map(([id, fn]) => [id, groupOf(fn)]));
    const integrations = resourcesOf(base.Api, 'AWS::ApiGatewayV2::Integration');
    const deployed = new Map<string, string | undefined>();
    for (const route of Object.values(resourcesOf(base.Api, 'AWS::ApiGatewayV2::Route'))) {
      const integrationId = route.Properties.Target['Fn::Join'][1][1].Ref as string;
      const uri = integrations[integrationId]!.Properties.IntegrationUri;
      deployed.set(route.Properties.RouteKey, fnGroup.get(uri['Fn::GetAtt'][0]));
    }
    const expected = new Map<string, string | undefined>(routes.filter((r) => !r.stream).map((r) => [routeKey(r), r.group]));
    expected.set('$default', fallbackGroup);
    expect(Object.fromEntries(deployed)).toEqual(Object.fromEntries(expected));
  });

  it('gives every function TABLE_NAME, STAGE, SECRETS_ID and the plain settings set at deploy time', () => {
    for (const fn of Object.values(appLambdas(base.Api))) {
      const env = fn.Properties.Environment.Variables as Record<string, unknown>;
      expect(env.TABLE_NAME).toEqual({ 'Fn::ImportValue': expect.stringContaining('test-mathisland-Storage') });
      expect(env.STAGE).toBe('test');
      expect(env.SECRETS_ID).toEqual({ 'Fn::ImportValue': expect.stringContaining('test-mathisland-Secrets') });
      expect(env.AI_MODEL).toBe('deploy-time-model');
      expect(env).not.toHaveProperty('OPENAI_BASE_URL');
      for (const name of ['DYNAMODB_ENDPOINT', 'PORT', 'DATA_DIR']) expect(env).not.toHaveProperty(name);
      // No public origin is known for this stage (no domain, no PUBLIC_BASE_URL): links fail closed.
      expect(env).not.toHaveProperty('PUBLIC_BASE_URL');
    }
    expect(passThroughSettings).toContain('AI_MODEL');
    expect(passThroughSettings).not.toContain('SECRET_KEY');
    expect(passThroughSettings).not.toContain('PUBLIC_BASE_URL');
  });

  it('outputs the API URL as ApiEndpoint', () => {
    expect(Object.keys(base.Api.findOutputs('ApiEndpoint'))).toEqual(['ApiEndpoint']);
  });

  it('deploys the payment groups (billing, payment, admin) with their routes', () => {
    const fns = Object.values(appLambdas(base.Api));
    expect(fns.map(groupOf)).toEqual(expect.arrayContaining(['billing', 'payment', 'admin']));
    const routeKeys = Object.values(resourcesOf(base.Api, 'AWS::ApiGatewayV2::Route')).map((r) => r.Properties.RouteKey);
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
    const fns = appLambdas(base.Tutor);
    expect(Object.values(fns).map(groupOf)).toEqual([...streamedGroups]);
    expect([...streamedGroups].sort()).toEqual(['adminexport', 'tutor']);
    const urls = Object.values(resourcesOf(base.Tutor, 'AWS::Lambda::Url'));
    expect(urls).toHaveLength(streamedGroups.length);
    for (const [id, fn] of Object.entries(fns)) {
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        // The tutor's answer holds a slot about 40 s; an export is written to its end (Lambda's 15 minutes at most).
        Timeout: groupOf(fn) === 'adminexport' ? EXPORT_TIMEOUT_SECONDS : STREAM_TIMEOUT_SECONDS,
        LoggingConfig: { LogFormat: 'JSON' },
      });
      const url = urls.find((u) => u.Properties.TargetFunctionArn['Fn::GetAtt']?.[0] === id);
      expect(url?.Properties).toMatchObject({ AuthType: 'NONE', InvokeMode: 'RESPONSE_STREAM' });
      // A public URL: anyone may invoke it (the handler checks the bearer token).
      const permissions = Object.values(resourcesOf(base.Tutor, 'AWS::Lambda::Permission')).filter(
        (p) => p.Properties.FunctionName?.['Fn::GetAtt']?.[0] === id,
      );
      expect(permissions).toContainEqual(
        expect.objectContaining({
          Properties: expect.objectContaining({ Action: 'lambda:InvokeFunctionUrl', Principal: '*', FunctionUrlAuthType: 'NONE' }),
        }),
      );
    }
  });

  it('gives the tutor TABLE_NAME, STAGE, SECRETS_ID and the plain settings', () => {
    for (const fn of Object.values(appLambdas(base.Tutor))) {
      const env = fn.Properties.Environment.Variables as Record<string, unknown>;
      expect(env.TABLE_NAME).toEqual({ 'Fn::ImportValue': expect.stringContaining('test-mathisland-Storage') });
      expect(env.STAGE).toBe('test');
      expect(env.SECRETS_ID).toEqual({ 'Fn::ImportValue': expect.stringContaining('test-mathisland-Secrets') });
      expect(env.AI_MODEL).toBe('deploy-time-model');
    }
  });

  it('outputs the tutor URL as TutorUrl', () => {
    expect(streamedUrlOutput('tutor')).toBe('TutorUrl');
    const outputs = base.Tutor.findOutputs('TutorUrl');
    expect(Object.keys(outputs)).toEqual(['TutorUrl']);
    expect(JSON.stringify(outputs.TutorUrl)).toContain('FunctionUrl');
  });
});

describe('the staff panel (Web stack)', () => {
  it('builds packages/admin with its build script and uploads dist/, whose admin/ is the panel', () => {
    expect(existsSync('packages/admin/dist/admin/index.html')).toBe(true);
    const uploads = Object.values(resourcesOf(base.Web, 'Custom::S3Uploader'));
    expect(uploads).toHaveLength(1);
    const [bucketId] = Object.keys(resourcesOf(base.Web, 'AWS::S3::Bucket'));
    expect(uploads[0]!.Properties.destinationBucketName).toEqual({ Ref: bucketId });
    // What was zipped for the upload (SST lists the file names beside the zips): the newest site build.
    const artifacts = projectPaths().artifacts;
    const [zipDir] = readdirSync(artifacts)
      .filter((name) => name.startsWith('StaticSite-admin-'))
      .sort((a, b) => statSync(path.join(artifacts, b)).mtimeMs - statSync(path.join(artifacts, a)).mtimeMs);
    const files = readFileSync(path.join(artifacts, zipDir!, 'filenames'), 'utf8').split('\n');
    expect(files).toContain('admin/index.html');
    expect(files.every((f) => f === '' || f.startsWith('admin/'))).toBe(true);
    expect(files.some((f) => /^admin\/assets\/index-[\w-]+\.js$/.test(f))).toBe(true);
  });

  it('keeps the bucket private: CloudFront reads it, nobody else', () => {
    const [bucket] = Object.values(resourcesOf(base.Web, 'AWS::S3::Bucket'));
    expect(bucket!.Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
  });

  it('caches hashed assets for a year and revalidates everything else (index.html)', () => {
    const [upload] = Object.values(resourcesOf(base.Web, 'Custom::S3Uploader'));
    expect(upload!.Properties.fileOptions).toEqual(
      expect.arrayContaining([
        { files: '**', cacheControl: 'max-age=0,no-cache,no-store,must-revalidate' },
        { files: 'admin/assets/**', cacheControl: 'max-age=31536000,public,immutable' },
      ]),
    );
  });
});
