/**
 * Admin: the staff panel (`packages/admin`, DESIGN §9) as an SST `StaticSite`: `npm run build` in the workspace
 * (Vite) during `sst build`/`sst deploy`, its `dist/` uploaded to a private bucket behind CloudFront.
 *
 * The build's `dist/` mirrors the URL space (`dist/admin/index.html` is `/admin/`), so one build serves both
 * `npm start` (which serves `dist/admin` at `/admin/`) and this site, where the files keep their paths:
 * - `/admin/*`: the panel; a CloudFront function turns every path that is no file of the build (a deep link such
 *   as `/admin/orders/5/show`) into `/admin/index.html`, so the SPA's router opens it. Hashed assets are cached
 *   for a year, the rest (index.html) is revalidated.
 * - `/api/*`: the HTTP API of the Api stack, uncached, every method, with the viewer's headers and cookies. The
 *   panel and its API so share one origin, which the admin session needs (cookie `SameSite=Strict; Path=/api`,
 *   and unsafe methods must come from PUBLIC_BASE_URL's origin): deploy with PUBLIC_BASE_URL set to this
 *   site's URL (output `AdminUrl`) or to the custom domain in front of it.
 * No distribution-wide error pages: the API's own 401/403/404 JSON answers must reach the panel unchanged.
 */
import { Fn, RemovalPolicy } from 'aws-cdk-lib';
import {
  AllowedMethods,
  CachePolicy,
  Function as CfFunction,
  FunctionCode,
  FunctionEventType,
  OriginRequestPolicy,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { BlockPublicAccess, Bucket, BucketEncryption } from 'aws-cdk-lib/aws-s3';
import { type StackContext, StaticSite, use } from 'sst/constructs';
import { Api } from './Api';

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

export function Admin({ stack }: StackContext) {
  const { api } = use(Api);
  const bucket = new Bucket(stack, 'AdminFiles', {
    blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
    encryption: BucketEncryption.S3_MANAGED,
    enforceSSL: true,
    // The files are rebuilt by every deploy: nothing to keep.
    removalPolicy: RemovalPolicy.DESTROY,
    autoDeleteObjects: true,
  });
  const spaFallback = new CfFunction(stack, 'AdminSpaFallback', { code: FunctionCode.fromInline(spaFallbackCode) });
  const apiDomain = Fn.select(2, Fn.split('/', api.url));

  const site = new StaticSite(stack, 'admin', {
    path: 'packages/admin',
    buildCommand: 'npm run build',
    buildOutput: 'dist',
    indexPage: 'admin/index.html',
    // SST writes a type file for Vite's env; keep it out of src/ (the panel reads no build-time env).
    vite: { types: 'sst-env.d.ts' },
    assets: {
      fileOptions: [{ files: 'admin/assets/**', cacheControl: 'max-age=31536000,public,immutable' }],
    },
    cdk: {
      bucket,
      distribution: {
        errorResponses: [],
        additionalBehaviors: {
          '/admin/*': {
            origin: S3BucketOrigin.withOriginAccessControl(bucket),
            viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
            functionAssociations: [{ function: spaFallback, eventType: FunctionEventType.VIEWER_REQUEST }],
          },
          '/api/*': {
            origin: new HttpOrigin(apiDomain),
            viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
            allowedMethods: AllowedMethods.ALLOW_ALL,
            cachePolicy: CachePolicy.CACHING_DISABLED,
            originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          },
        },
      },
    },
  });

  stack.addOutputs({ AdminUrl: `${site.url}${ADMIN_PATH}` });
  return { site };
}
