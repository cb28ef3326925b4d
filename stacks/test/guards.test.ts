/**
 * Deploy-time guards (issue 14 §5; DESIGN §4): synthesizing the production stage refuses debug mode, its master code
 * and fixed demo logins, through the same path `sst deploy` and `npm run build` take; the API stage throttles every
 * route; bad deploy settings stop the synthesis with a message naming the setting. (PITR, deletion protection and
 * retention of the production table: stacks.test.ts; secrets never in the environment: permissions.test.ts.)
 */
import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { forbiddenInProduction } from '../../infra/deploy';
import { DeployConfigError, deployConfig } from '../config';
import { baseStage, resourcesOf, synthError, synthVariant, type Templates } from './support';

let base: Templates;
let tuned: Templates;

beforeAll(async () => {
  ({ templates: base } = baseStage());
  tuned = await synthVariant('tuned', { API_THROTTLE_RATE: '50', API_THROTTLE_BURST: '80' });
});

describe('production guards at synthesis', () => {
  const demo = { DEBUG: '1', DEBUG_MASTER_OTP: '000000', FIXED_OTP_LOGINS: '09120000000:1234' };

  it.each(Object.entries(demo))('refuses to synthesize production with %s set', async (name, value) => {
    const error = await synthError('production', { [name]: value });
    // SST's loader bundles sst.config.ts with its own copy of stacks/config.ts: compare by name.
    expect(error?.name).toBe(DeployConfigError.name);
    expect(error!.message).toMatch(new RegExp(`^Refusing to deploy the production stage: ${name} is set in the deploying environment`));
    expect(error!.message).toContain('unset it and deploy again');
  });

  it('names every forbidden setting at once', () => {
    expect(() => deployConfig('production', demo)).toThrow(
      'Refusing to deploy the production stage: DEBUG, DEBUG_MASTER_OTP, FIXED_OTP_LOGINS are set in the deploying environment',
    );
    expect([...forbiddenInProduction].sort()).toEqual(Object.keys(demo).sort());
  });

  it('allows them off (DEBUG=0, empty values) in production, and set in any other stage', () => {
    expect(() => deployConfig('production', { DEBUG: '0', DEBUG_MASTER_OTP: '', FIXED_OTP_LOGINS: ' ' })).not.toThrow();
    expect(() => deployConfig('production', { DEBUG: 'false' })).not.toThrow();
    expect(() => deployConfig('staging', demo)).not.toThrow();
  });

  it('makes `npm run build -- --stage production` fail with the message (no AWS needed)', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build.ts', '--stage', 'production'], {
      env: { ...process.env, DEBUG: 'true', DEBUG_MASTER_OTP: '', FIXED_OTP_LOGINS: '' },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Refusing to deploy the production stage: DEBUG is set in the deploying environment');
  });
});

describe('API Gateway stage throttling', () => {
  const stageSettings = (t: Templates) => Object.values(resourcesOf(t.Api, 'AWS::ApiGatewayV2::Stage'))[0]!.Properties.DefaultRouteSettings;

  it('throttles every route of the stage: 200 requests per second, bursts of 400, by default', () => {
    expect(stageSettings(base)).toEqual({ ThrottlingRateLimit: 200, ThrottlingBurstLimit: 400 });
  });

  it('takes API_THROTTLE_RATE and API_THROTTLE_BURST from the deploy settings', () => {
    expect(stageSettings(tuned)).toEqual({ ThrottlingRateLimit: 50, ThrottlingBurstLimit: 80 });
    expect(() => deployConfig('x', { API_THROTTLE_RATE: '0' })).toThrow('API_THROTTLE_RATE must be a whole number of at least 1 (got "0")');
    expect(() => deployConfig('x', { API_THROTTLE_BURST: 'many' })).toThrow('API_THROTTLE_BURST must be a whole number');
  });
});

describe('deploy settings are checked', () => {
  const certificate = (region: string) => `arn:aws:acm:${region}:123456789012:certificate/0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b`;

  it('refuses a certificate outside us-east-1, a certificate or zone without a domain, both at once, or neither', () => {
    expect(() => deployConfig('x', { DOMAIN_NAME: 'app.example.com', DOMAIN_CERTIFICATE_ARN: certificate('eu-central-1') })).toThrow(
      'DOMAIN_CERTIFICATE_ARN must be a certificate in us-east-1 (CloudFront reads certificates only there); this one is in eu-central-1',
    );
    expect(() => deployConfig('x', { DOMAIN_CERTIFICATE_ARN: certificate('us-east-1') })).toThrow('need DOMAIN_NAME');
    expect(() =>
      deployConfig('x', {
        DOMAIN_NAME: 'app.example.com',
        DOMAIN_CERTIFICATE_ARN: certificate('us-east-1'),
        DOMAIN_HOSTED_ZONE: 'example.com',
      }),
    ).toThrow('not both');
    expect(() => deployConfig('x', { DOMAIN_NAME: 'app.example.com' })).toThrow('DOMAIN_NAME needs a certificate');
    expect(() => deployConfig('x', { DOMAIN_NAME: 'app.example.com', DOMAIN_HOSTED_ZONE: 'other.org' })).toThrow(
      'is not inside the hosted zone',
    );
    expect(() => deployConfig('x', { DOMAIN_NAME: 'https://app.example.com', DOMAIN_HOSTED_ZONE: 'example.com' })).toThrow(
      'must be a host name',
    );
  });

  it('derives PUBLIC_BASE_URL from the domain and refuses a different one; takes an https origin without a domain', () => {
    const domain = { DOMAIN_NAME: 'App.Example.com', DOMAIN_CERTIFICATE_ARN: certificate('us-east-1') };
    expect(deployConfig('x', domain)).toMatchObject({ publicBaseUrl: 'https://app.example.com', publicBaseUrlSource: 'domain' });
    expect(deployConfig('x', { ...domain, PUBLIC_BASE_URL: 'https://app.example.com/' }).publicBaseUrl).toBe('https://app.example.com');
    expect(() => deployConfig('x', { ...domain, PUBLIC_BASE_URL: 'https://d1.cloudfront.net' })).toThrow(
      "differs from the custom domain's origin",
    );
    expect(deployConfig('x', { PUBLIC_BASE_URL: 'https://d1.cloudfront.net' })).toMatchObject({
      publicBaseUrl: 'https://d1.cloudfront.net',
      publicBaseUrlSource: 'setting',
    });
    expect(() => deployConfig('x', { PUBLIC_BASE_URL: 'http://d1.cloudfront.net' })).toThrow('must be an https origin with no path');
    expect(() => deployConfig('x', { PUBLIC_BASE_URL: 'https://d1.cloudfront.net/api' })).toThrow('must be an https origin with no path');
    expect(deployConfig('x', {})).toMatchObject({ publicBaseUrl: undefined, publicBaseUrlSource: 'none' });
  });

  it('refuses a malformed alarm topic or e-mail, and both at once', () => {
    expect(() => deployConfig('x', { ALARM_TOPIC_ARN: 'oncall' })).toThrow('ALARM_TOPIC_ARN is not an SNS topic ARN');
    expect(() => deployConfig('x', { ALARM_EMAIL: 'ops' })).toThrow('ALARM_EMAIL is not an e-mail address');
    expect(() =>
      deployConfig('x', { ALARM_TOPIC_ARN: 'arn:aws:sns:eu-central-1:123456789012:oncall', ALARM_EMAIL: 'ops@example.com' }),
    ).toThrow('subscribe to that topic instead');
  });
});
