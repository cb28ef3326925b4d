/**
 * Web: the stage's one domain (DESIGN §1): one CloudFront distribution in front of everything a client talks to, so
 * the app's base URL, the admin session cookie and every link the service builds share one origin.
 *
 * Behaviours, in the order CloudFront matches them:
 * - every streamed route (`stream: true` in infra/routes.ts; `/api/ai/ask`): the Tutor stack's function URL
 *   (RESPONSE_STREAM), so the answer streams through CloudFront as the model writes it: uncached, every method,
 *   Authorization, the viewer headers the service reads, CloudFront-Viewer-Address and cookies, but not `Host` (a
 *   function URL answers only to its own host name) (stacks/edge.ts: the API cache and origin request policies), not
 *   compressed (CloudFront would buffer the stream to compress it), 60 s origin read timeout (an answer holds its
 *   slot for about 40 s);
 * - `/api/*`: the HTTP API of the Api stack, with the same policies and a 30 s read timeout (API Gateway's limit).
 *   Both origins get the secret origin header `x-origin-verify` (stacks/edge.ts, DESIGN §12): a request that reaches
 *   the API or the function URL without it (around CloudFront) is refused 403 by every function;
 * - `/admin/*`: the staff panel (packages/admin, DESIGN §9), an SST `StaticSite` built with Vite during
 *   `sst deploy` and `sst dev` (or taken as built with ADMIN_PREBUILT=1) and uploaded to a private bucket; a
 *   CloudFront function turns every path that is no file of the build (a deep link such as `/admin/orders/5/show`)
 *   into `/admin/index.html`. Hashed assets are cached for a year,
 *   the rest (index.html) is revalidated. `/` opens the panel. Every answer of the panel (and of `/`) carries the
 *   panel's security headers: Content-Security-Policy, nosniff, Referrer-Policy same-origin, no framing, HSTS.
 * No distribution-wide error pages: the API's own 401/403/404 JSON answers reach clients unchanged.
 *
 * Custom domain (stacks/config.ts): DOMAIN_NAME with DOMAIN_CERTIFICATE_ARN (an ACM certificate in us-east-1; point
 * a CNAME at the output DistributionDomain) or DOMAIN_HOSTED_ZONE (Route 53: certificate and alias records made
 * here). PUBLIC_BASE_URL is then `https://<DOMAIN_NAME>`, known before anything is deployed. Without a domain the
 * address is the distribution's own `https://<id>.cloudfront.net`, which exists only after the first deploy and
 * cannot be handed to the functions by reference (the distribution points at them: a CloudFormation cycle): set it as
 * PUBLIC_BASE_URL in `.env.<stage>` and deploy again; this stack then checks during the deploy that it is this
 * distribution's address and fails the deploy otherwise (docs/deploy.md).
 *
 * The whole distribution is deployed by `sst dev` as well (`dev.deploy`): it is the one way into a stage, since every
 * function refuses a request without its origin header.
 *
 * Outputs: `Url` (the public origin), `PublicBaseUrl` (what the functions were given), `AdminUrl`, `DistributionDomain`.
 */
import { CustomResource, Duration, Fn, RemovalPolicy } from 'aws-cdk-lib';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AllowedMethods,
  type BehaviorOptions,
  Function as CfFunction,
  FunctionCode,
  FunctionEventType,
  type ICachePolicy,
  type IOrigin,
  type IOriginRequestPolicy,
  OriginProtocolPolicy,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { Function as CdkFunction, Code, Runtime } from 'aws-cdk-lib/aws-lambda';
import { BlockPublicAccess, Bucket, BucketEncryption } from 'aws-cdk-lib/aws-s3';
import { Provider } from 'aws-cdk-lib/custom-resources';
import { type StackContext, StaticSite, type StaticSiteProps, use } from 'sst/constructs';
import { routes } from '../infra/routes';
import { Api } from './Api';
import { type DeployConfig, deployConfig } from './config';
import { apiCachePolicy, apiOriginRequestPolicy, originVerifyHeaders, panelHeadersPolicy } from './edge';
import { Secrets } from './Secrets';
import { Tutor } from './Tutor';

/** Where the panel lives on the site (Vite's `base`, the router's basename). */
export const ADMIN_PATH = '/admin/';

/** File names the build makes; any other path under /admin/ is a route of the SPA. */
const STATIC_FILE = /\.(html|js|mjs|css|json|map|txt|svg|png|jpg|ico|woff2?|ttf|webmanifest)$/i;

/** The viewer-request function of `/admin/*` (CloudFront Functions' JavaScript runtime). */
export const spaFallbackCode = `function handler(event) {
  var request = event.request;
  if (request.uri.indexOf('/admin/assets/') !== 0 && !${STATIC_FILE}.test(request.uri)) {
    request.uri = '/admin/index.html';
  }
  return request;
}`;

/**
 * The deploy-time check of a PUBLIC_BASE_URL given without a custom domain (a Lambda-backed custom resource, run on
 * every deploy that changes either value): fails the deploy when it is not the distribution's own address.
 */
export const publicBaseUrlCheckCode = `exports.handler = async (event) => {
  if (event.RequestType === 'Delete') return {};
  const { Expected, Actual } = event.ResourceProperties;
  if (Expected !== Actual) {
    throw new Error('PUBLIC_BASE_URL is ' + Expected + ' but this stage is served at ' + Actual +
      ': set PUBLIC_BASE_URL=' + Actual + ' (or a custom domain) in .env.<stage> and deploy again');
  }
  return { PhysicalResourceId: 'public-base-url', Data: { Url: Actual } };
};`;

/** CloudFront's wait for a streamed route's first bytes (and between chunks): an answer holds its slot ~40 s. */
export const STREAM_READ_TIMEOUT_SECONDS = 60;

/** CloudFront's path pattern of a manifest path: `{name}` segments become `*`. */
export const pathPattern = (path: string): string => path.replace(/\{[^/}]+\}/g, '*');

/**
 * A behaviour that hands every request to a dynamic origin: uncached, every method, under the API's policies
 * (stacks/edge.ts). A stream is not compressed (CloudFront would buffer it to compress).
 */
const passThrough = (
  origin: IOrigin,
  policies: { cachePolicy: ICachePolicy; originRequestPolicy: IOriginRequestPolicy },
  options: { stream?: boolean } = {},
): BehaviorOptions => ({
  origin,
  compress: !options.stream,
  viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
  allowedMethods: AllowedMethods.ALLOW_ALL,
  ...policies,
});

function customDomain(stack: StackContext['stack'], domain: DeployConfig['domain']): StaticSiteProps['customDomain'] {
  if (!domain) return undefined;
  if (domain.certificateArn) {
    return {
      domainName: domain.name,
      isExternalDomain: true,
      cdk: { certificate: Certificate.fromCertificateArn(stack, 'DomainCertificate', domain.certificateArn) },
    };
  }
  return { domainName: domain.name, hostedZone: domain.hostedZone };
}

export function Web({ stack, app }: StackContext) {
  const config = deployConfig(app.stage);
  const { api } = use(Api);
  const { functions: streamed } = use(Tutor);
  const { originSecret } = use(Secrets);
  const customHeaders = originVerifyHeaders(originSecret, config.originSecretVersion);
  const policies = { cachePolicy: apiCachePolicy(stack), originRequestPolicy: apiOriginRequestPolicy(stack) };
  const panelHeaders = panelHeadersPolicy(stack);

  const bucket = new Bucket(stack, 'AdminFiles', {
    blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
    encryption: BucketEncryption.S3_MANAGED,
    enforceSSL: true,
    // The files are rebuilt by every deploy: nothing to keep.
    removalPolicy: RemovalPolicy.DESTROY,
    autoDeleteObjects: true,
  });
  const spaFallback = new CfFunction(stack, 'AdminSpaFallback', { code: FunctionCode.fromInline(spaFallbackCode) });

  const streamedBehaviors = Object.fromEntries(
    routes
      .filter((r) => r.stream)
      .map((r) => {
        const url = streamed[r.group]?.url;
        if (!url) throw new Error(`streamed route ${r.path}: the Tutor stack has no function URL for group ${r.group}`);
        // A function URL origin: its host name, HTTPS only (what FunctionUrlOrigin renders).
        const origin = new HttpOrigin(Fn.select(2, Fn.split('/', url)), {
          protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
          readTimeout: Duration.seconds(STREAM_READ_TIMEOUT_SECONDS),
          customHeaders,
        });
        return [pathPattern(r.path), passThrough(origin, policies, { stream: true })];
      }),
  );
  const apiOrigin = new HttpOrigin(Fn.select(2, Fn.split('/', api.url)), { readTimeout: Duration.seconds(30), customHeaders });

  const site = new StaticSite(stack, 'admin', {
    path: 'packages/admin',
    // ADMIN_PREBUILT=1: upload the existing build of packages/admin/dist as it is.
    ...(config.adminPrebuilt ? {} : { buildCommand: 'npm run build' }),
    // React's production build whatever NODE_ENV the deploying shell has (the offline synthesis sets `test`, which
    // made Vite leave a development build in packages/admin/dist for the next npm start to serve).
    environment: { NODE_ENV: 'production' },
    buildOutput: 'dist',
    indexPage: 'admin/index.html',
    customDomain: customDomain(stack, config.domain),
    // `sst dev` deploys the site too (SST's StaticSite skips it in dev mode unless told): the distribution is what
    // adds the origin header every function demands, so without it a dev stage would refuse every request 403.
    dev: { deploy: true },
    // SST writes a type file for Vite's env; keep it out of src/ (the panel reads no build-time env).
    vite: { types: 'sst-env.d.ts' },
    assets: {
      fileOptions: [{ files: 'admin/assets/**', cacheControl: 'max-age=31536000,public,immutable' }],
    },
    cdk: {
      bucket,
      distribution: {
        comment: `mathisland ${app.stage}: API, tutor stream and staff panel on one domain`,
        errorResponses: [],
        defaultBehavior: { responseHeadersPolicy: panelHeaders },
        additionalBehaviors: {
          ...streamedBehaviors,
          '/api/*': passThrough(apiOrigin, policies),
          '/admin/*': {
            origin: S3BucketOrigin.withOriginAccessControl(bucket),
            viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
            functionAssociations: [{ function: spaFallback, eventType: FunctionEventType.VIEWER_REQUEST }],
            responseHeadersPolicy: panelHeaders,
          },
        },
      },
    },
  });

  const url = site.customDomainUrl ?? site.url;
  // Only where the distribution is deployed (an inactive stack has none).
  if (config.publicBaseUrlSource === 'setting' && site.cdk?.distribution) {
    const onEvent = new CdkFunction(stack, 'PublicBaseUrlCheckHandler', {
      runtime: Runtime.NODEJS_22_X,
      handler: 'index.handler',
      code: Code.fromInline(publicBaseUrlCheckCode),
      timeout: Duration.seconds(10),
      description: 'Fails the deploy when PUBLIC_BASE_URL is not this stage’s CloudFront address',
    });
    const provider = new Provider(stack, 'PublicBaseUrlCheckProvider', { onEventHandler: onEvent });
    new CustomResource(stack, 'PublicBaseUrlCheck', {
      serviceToken: provider.serviceToken,
      properties: { Expected: config.publicBaseUrl, Actual: site.url },
    });
  }

  stack.addOutputs({
    Url: url,
    // What the functions build links from; until it is set, payments fail closed (503) and CORS allows no origin.
    PublicBaseUrl: config.publicBaseUrl ?? `unset: set PUBLIC_BASE_URL=<Url> in .env.${app.stage} and deploy again (docs/deploy.md)`,
    AdminUrl: `${url}${ADMIN_PATH}`,
    DistributionDomain: site.cdk?.distribution.distributionDomainName ?? '',
  });
  return { site, url };
}
