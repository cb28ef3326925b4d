/**
 * One domain per stage (issue 14 §1; DESIGN §1): one CloudFront distribution in the whole app routes `/api/ai/ask`
 * to the tutor's streaming function URL, `/api/*` to the HTTP API and `/admin/*` to the staff panel; a custom domain
 * makes PUBLIC_BASE_URL `https://<domain>` at synthesis with no reference from the API back to the distribution (no
 * CloudFormation cycle); without one, a PUBLIC_BASE_URL given at deploy time is checked against the distribution
 * during the deploy; CORS allows that origin only.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../infra/routes';
import { adminBuildState } from '../../packages/local/src/adminBuild';
import { pathPattern, publicBaseUrlCheckCode, spaFallbackCode } from '../Web';
import { appLambdas, baseStage, type Resource, resourcesOf, synthVariant, type Templates } from './support';

const ALL_METHODS = ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'];
const CERTIFICATE = 'arn:aws:acm:us-east-1:123456789012:certificate/0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b';
const CLOUDFRONT_URL = 'https://d111111abcdef8.cloudfront.net';

let base: Templates;
let withCertificate: Templates;
let withZone: Templates;
let withGivenUrl: Templates;

beforeAll(async () => {
  ({ templates: base } = baseStage());
  // The Web stack is built (the distribution exists only then) from the panel the global setup built.
  const prebuilt = { ADMIN_PREBUILT: '1' };
  withCertificate = await synthVariant(
    'production',
    { ...prebuilt, DOMAIN_NAME: 'learn.example.com', DOMAIN_CERTIFICATE_ARN: CERTIFICATE },
    ['Web'],
  );
  withZone = await synthVariant('zone', { ...prebuilt, DOMAIN_NAME: 'app.example.com', DOMAIN_HOSTED_ZONE: 'example.com' }, ['Web']);
  withGivenUrl = await synthVariant('given', { ...prebuilt, PUBLIC_BASE_URL: CLOUDFRONT_URL }, ['Web']);
});

const distributionOf = (templates: Templates) => {
  const all = Object.values(templates).flatMap((t) => Object.values(resourcesOf(t, 'AWS::CloudFront::Distribution')));
  expect(all).toHaveLength(1);
  return all[0]!.Properties.DistributionConfig;
};
const behaviorOf = (templates: Templates, pattern: string) =>
  distributionOf(templates).CacheBehaviors.find((b: { PathPattern: string }) => b.PathPattern === pattern);
const originOf = (templates: Templates, pattern: string) => {
  const config = distributionOf(templates);
  return config.Origins.find((o: { Id: string }) => o.Id === behaviorOf(templates, pattern).TargetOriginId);
};
const envOf = (fn: Resource) => fn.Properties.Environment.Variables as Record<string, unknown>;

describe('the staff panel the synthesis builds (npm run build, sst deploy)', () => {
  it('is a production build, which npm start then serves as it is (no development build left behind)', () => {
    // The global setup synthesized the stage under vitest (NODE_ENV=test) with the site built by Vite.
    expect(adminBuildState()).toBe('fresh');
  });
});

describe('one distribution for the stage', () => {
  it('is the only distribution of the app, with no error pages (the API’s JSON errors reach clients unchanged)', () => {
    const config = distributionOf(base);
    expect(config.CustomErrorResponses ?? []).toEqual([]);
    expect(config.DefaultRootObject).toBe('admin/index.html');
  });

  it('routes each streamed route to its function URL before /api/*, streaming through: uncached, uncompressed, every method, the API policies (stacks/test/edge.test.ts)', () => {
    const patterns = distributionOf(base).CacheBehaviors.map((b: { PathPattern: string }) => b.PathPattern);
    const streamed = routes.filter((r) => r.stream).map((r) => pathPattern(r.path));
    expect(streamed).toContain('/api/ai/ask');
    expect(streamed.filter((p) => p !== '/api/ai/ask').every((p) => /^\/api\/admin\/[a-z/-]+\/export\.csv$/.test(p))).toBe(true);
    expect(patterns).toEqual([...streamed, '/api/*', '/admin/*']);
    const ask = behaviorOf(base, '/api/ai/ask');
    expect(ask).toMatchObject({
      AllowedMethods: ALL_METHODS,
      CachePolicyId: { Ref: expect.stringMatching(/^ApiCachePolicy/) },
      OriginRequestPolicyId: { Ref: expect.stringMatching(/^ApiOriginRequestPolicy/) },
      ViewerProtocolPolicy: 'https-only',
      Compress: false,
    });
    const origin = originOf(base, '/api/ai/ask');
    expect(JSON.stringify(origin.DomainName)).toMatch(/test-mathisland-Tutor:ExportsOutputFnGetAtttutorGroupFunctionUrl/);
    expect(origin.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only', OriginReadTimeout: 60 });
  });

  it('routes /api/* to the HTTP API: uncached, every method, the API policies (Authorization, cookies, never Host)', () => {
    expect(behaviorOf(base, '/api/*')).toMatchObject({
      AllowedMethods: ALL_METHODS,
      CachePolicyId: { Ref: expect.stringMatching(/^ApiCachePolicy/) },
      OriginRequestPolicyId: { Ref: expect.stringMatching(/^ApiOriginRequestPolicy/) },
      ViewerProtocolPolicy: 'https-only',
    });
    const origin = originOf(base, '/api/*');
    expect(JSON.stringify(origin.DomainName)).toMatch(/test-mathisland-Api:ExportsOutputFnGetAttHttpApi\w*ApiEndpoint/);
    expect(origin.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only', OriginReadTimeout: 30 });
  });

  it('serves /admin/* from the private bucket through the deep-link function', () => {
    const panel = behaviorOf(base, '/admin/*');
    expect(panel.ViewerProtocolPolicy).toBe('redirect-to-https');
    expect(panel.FunctionAssociations).toEqual([{ EventType: 'viewer-request', FunctionARN: expect.anything() }]);
    expect(originOf(base, '/admin/*').OriginAccessControlId).toBeDefined();
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

  it('outputs the public URL, the panel’s URL and the distribution’s domain; says PUBLIC_BASE_URL is unset', () => {
    const outputs = base.Web.findOutputs('*');
    expect(JSON.stringify(outputs.Url)).toContain('DomainName');
    expect(JSON.stringify(outputs.AdminUrl)).toContain('/admin/');
    expect(outputs.DistributionDomain).toBeDefined();
    expect(outputs.PublicBaseUrl!.Value).toMatch(/^unset: set PUBLIC_BASE_URL=<Url> in \.env\.test/);
  });
});

describe('without a known public origin', () => {
  it('gives the functions no PUBLIC_BASE_URL (links fail closed) and opens CORS to no origin', () => {
    for (const t of [base.Api, base.Tutor])
      for (const fn of Object.values(appLambdas(t))) expect(envOf(fn)).not.toHaveProperty('PUBLIC_BASE_URL');
    const [httpApi] = Object.values(resourcesOf(base.Api, 'AWS::ApiGatewayV2::Api'));
    expect(httpApi!.Properties.CorsConfiguration).toBeUndefined();
    const [url] = Object.values(resourcesOf(base.Tutor, 'AWS::Lambda::Url'));
    expect(url!.Properties.Cors).toBeUndefined();
  });
});

describe('a custom domain with an ACM certificate', () => {
  it('serves the distribution on the domain with the us-east-1 certificate (SNI)', () => {
    const config = distributionOf(withCertificate);
    expect(config.Aliases).toEqual(['learn.example.com']);
    expect(config.ViewerCertificate).toMatchObject({ AcmCertificateArn: CERTIFICATE, SslSupportMethod: 'sni-only' });
    expect(withCertificate.Web.findOutputs('Url').Url!.Value).toBe('https://learn.example.com');
    expect(withCertificate.Web.findOutputs('PublicBaseUrl').PublicBaseUrl!.Value).toBe('https://learn.example.com');
  });

  it('gives every function PUBLIC_BASE_URL=https://<domain>, known at synthesis: the API never references the distribution', () => {
    for (const t of [withCertificate.Api, withCertificate.Tutor]) {
      for (const fn of Object.values(resourcesOf(t, 'AWS::Lambda::Function')).filter(
        (f) => f.Properties.Environment?.Variables?.SECRETS_ID,
      )) {
        expect(envOf(fn).PUBLIC_BASE_URL).toBe('https://learn.example.com');
      }
      // A reference to the Web stack from the API's would be a cycle (the distribution points at the API).
      expect(JSON.stringify(t.toJSON())).not.toContain('mathisland-Web');
    }
    // Nothing to check during the deploy.
    expect(
      Object.values(resourcesOf(withCertificate.Web, 'AWS::CloudFormation::CustomResource')).filter((r) => r.Properties.Expected),
    ).toEqual([]);
  });

  it('closes CORS of the API and the tutor URL to that origin', () => {
    const [httpApi] = Object.values(resourcesOf(withCertificate.Api, 'AWS::ApiGatewayV2::Api'));
    expect(httpApi!.Properties.CorsConfiguration).toMatchObject({
      AllowOrigins: ['https://learn.example.com'],
      AllowCredentials: true,
      AllowHeaders: ['authorization', 'content-type', 'idempotency-key'],
    });
    const [url] = Object.values(resourcesOf(withCertificate.Tutor, 'AWS::Lambda::Url'));
    expect(url!.Properties.Cors).toMatchObject({ AllowOrigins: ['https://learn.example.com'], AllowMethods: ['POST'] });
  });
});

describe('a custom domain in a Route 53 hosted zone', () => {
  it('makes the certificate (DNS-validated, us-east-1) and A/AAAA alias records for the domain', () => {
    const config = distributionOf(withZone);
    expect(config.Aliases).toEqual(['app.example.com']);
    const records = Object.values(resourcesOf(withZone.Web, 'AWS::Route53::RecordSet'));
    expect(records.map((r) => [r.Properties.Name, r.Properties.Type]).sort()).toEqual([
      ['app.example.com.', 'A'],
      ['app.example.com.', 'AAAA'],
    ]);
    const certificates = Object.values(resourcesOf(withZone.Web, 'AWS::CloudFormation::CustomResource')).filter(
      (r) => r.Properties.DomainName,
    );
    expect(certificates).toHaveLength(1);
    expect(certificates[0]!.Properties).toMatchObject({ DomainName: 'app.example.com', Region: 'us-east-1' });
    for (const fn of Object.values(appLambdas(withZone.Api))) expect(envOf(fn).PUBLIC_BASE_URL).toBe('https://app.example.com');
  });
});

describe('a PUBLIC_BASE_URL given at deploy time (no custom domain)', () => {
  it('passes it to the functions and checks it against the distribution during the deploy', () => {
    for (const fn of Object.values(appLambdas(withGivenUrl.Api))) expect(envOf(fn).PUBLIC_BASE_URL).toBe(CLOUDFRONT_URL);
    const checks = Object.values(resourcesOf(withGivenUrl.Web, 'AWS::CloudFormation::CustomResource')).filter((r) => r.Properties.Expected);
    expect(checks).toHaveLength(1);
    expect(checks[0]!.Properties.Expected).toBe(CLOUDFRONT_URL);
    expect(JSON.stringify(checks[0]!.Properties.Actual)).toMatch(/"https:\/\/",\{"Fn::GetAtt":\["adminDistribution\w+","DomainName"\]\}/);
  });

  it('fails the deploy with the fix when the given URL is not the distribution’s (the check’s own code)', async () => {
    const module = { exports: {} as { handler: (e: unknown) => Promise<unknown> } };
    new Function('exports', 'module', publicBaseUrlCheckCode)(module.exports, module);
    const { handler } = module.exports;
    const event = (Expected: string, Actual: string, RequestType = 'Update') => ({ RequestType, ResourceProperties: { Expected, Actual } });
    await expect(handler(event(CLOUDFRONT_URL, CLOUDFRONT_URL))).resolves.toMatchObject({ Data: { Url: CLOUDFRONT_URL } });
    await expect(handler(event(CLOUDFRONT_URL, 'https://d2222.cloudfront.net'))).rejects.toThrow(
      'PUBLIC_BASE_URL is https://d111111abcdef8.cloudfront.net but this stage is served at https://d2222.cloudfront.net: set PUBLIC_BASE_URL=https://d2222.cloudfront.net',
    );
    await expect(handler(event(CLOUDFRONT_URL, 'https://d2222.cloudfront.net', 'Delete'))).resolves.toEqual({});
  });
});
