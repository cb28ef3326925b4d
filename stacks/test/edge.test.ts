/**
 * The edge as deployed (issue 22 §1, §5; DESIGN §12): the origin secret (generated, rotatable), the secret origin
 * header CloudFront adds to the API and tutor origins (a dynamic reference to the secret, never its value, pinned to
 * ORIGIN_SECRET_VERSION after a rotation), the origin request policy that forwards CloudFront-Viewer-Address and never
 * Host, the cache policy that forwards Authorization and keeps nothing, the least-privilege read of the origin secret
 * (every endpoint group, no job), and the staff panel's response headers policy.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_CONTENT_SECURITY_POLICY, ORIGIN_VERIFY_HEADER } from '../../infra/edge';
import { type FunctionName, jobNames } from '../../infra/permissions';
import { endpointGroups } from '../../infra/routes';
import { originSecretNames } from '../../infra/secrets';
import { FORWARDED_VIEWER_HEADERS } from '../edge';
import { appLambdas, baseStage, functionNameOf, grantedPairs, resourcesOf, statementsOf, synthVariant, type Templates } from './support';

const VERSION = '3f2c8a9e-1b7d-4e5f-9a0b-6c1d2e3f4a5b';

let base: Templates;
let versioned: Templates;
let production: Templates;

beforeAll(async () => {
  ({ templates: base } = baseStage());
  versioned = await synthVariant('versioned', { ADMIN_PREBUILT: '1', ORIGIN_SECRET_VERSION: VERSION }, ['Web']);
  production = await synthVariant('production', {});
});

const distributionOf = (templates: Templates) =>
  Object.values(resourcesOf(templates.Web, 'AWS::CloudFront::Distribution'))[0]!.Properties.DistributionConfig;
const behaviorOf = (templates: Templates, pattern: string) =>
  distributionOf(templates).CacheBehaviors.find((b: { PathPattern: string }) => b.PathPattern === pattern);
const originOf = (templates: Templates, pattern: string) =>
  distributionOf(templates).Origins.find((o: { Id: string }) => o.Id === behaviorOf(templates, pattern).TargetOriginId);
const only = (templates: Templates, type: string) => {
  const all = Object.entries(resourcesOf(templates.Web, type));
  expect(all).toHaveLength(1);
  return { id: all[0]![0], properties: all[0]![1].Properties as Record<string, any> };
};
const originSecretOf = (templates: Templates) =>
  Object.values(resourcesOf(templates.Secrets, 'AWS::SecretsManager::Secret')).find((s) => s.Properties.Name.endsWith('/origin'));

describe('the origin secret', () => {
  it('is mathisland/<stage>/origin: a generated current of 64 letters and digits and an empty previous, never in the template', () => {
    const secret = originSecretOf(base)!;
    expect(secret.Properties.Name).toBe('mathisland/test/origin');
    expect(secret.Properties.GenerateSecretString).toEqual({
      GenerateStringKey: 'current',
      SecretStringTemplate: JSON.stringify({ previous: '' }),
      PasswordLength: 64,
      ExcludePunctuation: true,
    });
    expect(secret.Properties.SecretString).toBeUndefined();
    expect(base.Secrets.findOutputs('OriginSecretName').OriginSecretName!.Value).toBe('mathisland/test/origin');
  });

  it('is kept when the production stage is removed, like the app secret', () => {
    expect(originSecretOf(production)).toMatchObject({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
  });
});

describe('the secret origin header', () => {
  it('is added to the API and the tutor origins as a dynamic reference to the secret’s current value', () => {
    for (const pattern of ['/api/*', '/api/ai/ask']) {
      const headers = originOf(base, pattern).OriginCustomHeaders as Array<{ HeaderName: string; HeaderValue: unknown }>;
      expect(headers.map((h) => h.HeaderName)).toEqual([ORIGIN_VERIFY_HEADER]);
      const value = JSON.stringify(headers[0]!.HeaderValue);
      expect(value, pattern).toMatch(/\{\{resolve:secretsmanager:/);
      expect(value, pattern).toMatch(/test-mathisland-Secrets:ExportsOutputRefOriginSecret/);
      expect(value, pattern).toContain(':SecretString:current::}}');
    }
    // The panel's bucket gets no such header.
    expect(originOf(base, '/admin/*').OriginCustomHeaders).toBeUndefined();
  });

  it('follows ORIGIN_SECRET_VERSION after a rotation, so the deploy moves CloudFront to the new value', () => {
    const value = JSON.stringify(originOf(versioned, '/api/*').OriginCustomHeaders[0].HeaderValue);
    expect(value).toContain(`:SecretString:current::${VERSION}}}`);
  });
});

describe('what CloudFront forwards to the API and the tutor', () => {
  it('forwards CloudFront-Viewer-Address and the headers the service reads, never Host or the origin header', () => {
    const { id, properties } = only(base, 'AWS::CloudFront::OriginRequestPolicy');
    const config = properties.OriginRequestPolicyConfig;
    expect(config.HeadersConfig.HeaderBehavior).toBe('whitelist');
    expect(config.HeadersConfig.Headers).toEqual(['CloudFront-Viewer-Address', ...FORWARDED_VIEWER_HEADERS]);
    const lower = (config.HeadersConfig.Headers as string[]).map((h) => h.toLowerCase());
    for (const never of ['host', ORIGIN_VERIFY_HEADER, 'x-forwarded-for', 'authorization']) expect(lower).not.toContain(never);
    expect(config.CookiesConfig.CookieBehavior).toBe('all');
    expect(config.QueryStringsConfig.QueryStringBehavior).toBe('all');
    for (const pattern of ['/api/*', '/api/ai/ask']) expect(behaviorOf(base, pattern).OriginRequestPolicyId).toEqual({ Ref: id });
  });

  it('forwards Authorization through the cache key and keeps nothing (default TTL 0; the API answers no-store)', () => {
    const { id, properties } = only(base, 'AWS::CloudFront::CachePolicy');
    const config = properties.CachePolicyConfig;
    expect(config).toMatchObject({ DefaultTTL: 0, MinTTL: 0, MaxTTL: 1 });
    const key = config.ParametersInCacheKeyAndForwardedToOrigin;
    expect(key.HeadersConfig).toEqual({ HeaderBehavior: 'whitelist', Headers: ['Authorization'] });
    expect(key.QueryStringsConfig.QueryStringBehavior).toBe('all');
    expect(key.CookiesConfig.CookieBehavior).toBe('all');
    for (const pattern of ['/api/*', '/api/ai/ask']) expect(behaviorOf(base, pattern).CachePolicyId).toEqual({ Ref: id });
  });
});

describe('the origin secret’s least-privilege read', () => {
  it('lets every endpoint group read it, and tells it where (ORIGIN_SECRET_ID); no job, no other secret action', () => {
    const functions = Object.values(base).flatMap((t) => Object.values(appLambdas(t)).map((fn) => ({ fn, t })));
    const seen = new Set<string>();
    for (const { fn, t } of functions) {
      const name = functionNameOf(fn) as FunctionName;
      seen.add(name);
      const env = (fn.Properties.Environment?.Variables ?? {}) as Record<string, unknown>;
      const grants = grantedPairs(statementsOf(t, fn)).filter((g) => g.startsWith('secretsmanager:'));
      if ((jobNames as readonly string[]).includes(name)) {
        expect(grants, name).not.toContain('secretsmanager:GetSecretValue on origin secret');
        expect(env, name).not.toHaveProperty('ORIGIN_SECRET_ID');
      } else {
        expect(grants, name).toContain('secretsmanager:GetSecretValue on origin secret');
        expect(env.ORIGIN_SECRET_ID, name).toEqual({ 'Fn::ImportValue': expect.stringMatching(/-Secrets:ExportsOutputRefOriginSecret/) });
      }
      // Only reads, only of the stage's two secrets.
      for (const grant of grants) expect(grant, name).toMatch(/^secretsmanager:GetSecretValue on (secret|origin secret)$/);
      // The values never travel in the environment, even when set in the deploying shell.
      for (const setting of originSecretNames) expect(env, name).not.toHaveProperty(setting);
    }
    expect([...seen]).toEqual(expect.arrayContaining([...endpointGroups]));
  });
});

describe('the staff panel’s response headers', () => {
  it('adds the Content-Security-Policy, nosniff, same-origin referrers, DENY framing and HSTS to /admin/* and /', () => {
    const { id, properties } = only(base, 'AWS::CloudFront::ResponseHeadersPolicy');
    const security = properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig;
    expect(security.ContentSecurityPolicy).toEqual({ ContentSecurityPolicy: ADMIN_CONTENT_SECURITY_POLICY, Override: true });
    expect(security.ContentTypeOptions).toEqual({ Override: true });
    expect(security.ReferrerPolicy).toEqual({ ReferrerPolicy: 'same-origin', Override: true });
    expect(security.FrameOptions).toEqual({ FrameOption: 'DENY', Override: true });
    expect(security.StrictTransportSecurity).toMatchObject({ AccessControlMaxAgeSec: 31_536_000, Override: true });
    expect(ADMIN_CONTENT_SECURITY_POLICY).toMatch(/default-src 'self'/);
    expect(ADMIN_CONTENT_SECURITY_POLICY).toMatch(/frame-ancestors 'none'/);
    expect(ADMIN_CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-eval/);
    expect(behaviorOf(base, '/admin/*').ResponseHeadersPolicyId).toEqual({ Ref: id });
    expect(distributionOf(base).DefaultCacheBehavior.ResponseHeadersPolicyId).toEqual({ Ref: id });
    // The API's own answers carry their own headers: no panel policy there.
    expect(behaviorOf(base, '/api/*').ResponseHeadersPolicyId).toBeUndefined();
  });
});
