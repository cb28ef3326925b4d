/**
 * What the stage's CloudFront distribution does to requests and answers (DESIGN §12), for the Web stack:
 *
 * - {@link originVerifyHeaders}: the origin custom header `x-origin-verify` on the API and tutor origins, its value the
 *   origin secret's `current` (a CloudFormation dynamic reference, resolved at deploy time, never in the template;
 *   at the version ORIGIN_SECRET_VERSION names after a rotation by hand, docs/deploy.md "The edge"). CloudFront
 *   replaces a viewer's own `x-origin-verify` with it.
 * - {@link apiOriginRequestPolicy}: what reaches those origins besides the cache key: `CloudFront-Viewer-Address` (the
 *   viewer's `ip:port`, which per-IP throttles count) and the viewer headers the service reads (never `Host`: API
 *   Gateway and function URLs answer only to their own host name), every cookie and query string.
 * - {@link apiCachePolicy}: the cache key of the API behaviours, which CloudFront forwards too: `Authorization`
 *   (CloudFront forwards it only through a cache policy), every query string and cookie. Nothing is kept: the API
 *   answers `Cache-Control: private, no-store`, and the default TTL is 0.
 * - {@link panelHeadersPolicy}: the staff panel's security headers on every `/admin/` answer (infra/edge.ts), as the
 *   local runtime sends them, plus HSTS.
 */
import { Duration, SecretValue, type Stack } from 'aws-cdk-lib';
import {
  CacheCookieBehavior,
  CacheHeaderBehavior,
  CachePolicy,
  CacheQueryStringBehavior,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  OriginRequestCookieBehavior,
  OriginRequestHeaderBehavior,
  OriginRequestPolicy,
  OriginRequestQueryStringBehavior,
  ResponseHeadersPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { ADMIN_CONTENT_SECURITY_POLICY, ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER_NAME } from '../infra/edge';

/** The viewer headers the functions read, forwarded to the API and the tutor (Authorization goes by the cache key). */
export const FORWARDED_VIEWER_HEADERS = [
  'Origin',
  'Content-Type',
  'Accept',
  'User-Agent',
  'Idempotency-Key',
  'X-Internal-Key',
  'Access-Control-Request-Method',
  'Access-Control-Request-Headers',
] as const;

/** The custom origin headers of the API and tutor origins: the origin secret's `current`, at `version` when given. */
export function originVerifyHeaders(originSecret: ISecret, version?: string): Record<string, string> {
  const value = SecretValue.secretsManager(originSecret.secretArn, { jsonField: 'current', ...(version ? { versionId: version } : {}) });
  return { [ORIGIN_VERIFY_HEADER]: value.unsafeUnwrap() };
}

/** The origin request policy of the API and tutor behaviours (see the module doc). */
export const apiOriginRequestPolicy = (stack: Stack): OriginRequestPolicy =>
  new OriginRequestPolicy(stack, 'ApiOriginRequestPolicy', {
    comment: 'mathisland: the viewer address and the headers the functions read; never Host',
    headerBehavior: OriginRequestHeaderBehavior.allowList(VIEWER_ADDRESS_HEADER_NAME, ...FORWARDED_VIEWER_HEADERS),
    cookieBehavior: OriginRequestCookieBehavior.all(),
    queryStringBehavior: OriginRequestQueryStringBehavior.all(),
  });

/** The cache policy of the API and tutor behaviours: Authorization, query strings and cookies forwarded; nothing kept. */
export const apiCachePolicy = (stack: Stack): CachePolicy =>
  new CachePolicy(stack, 'ApiCachePolicy', {
    comment: 'mathisland: forwards Authorization, query strings and cookies; the API answers no-store, so nothing is kept',
    defaultTtl: Duration.seconds(0),
    minTtl: Duration.seconds(0),
    // Above 0 only so that CloudFront accepts headers in the key (it refuses them when every TTL is 0).
    maxTtl: Duration.seconds(1),
    headerBehavior: CacheHeaderBehavior.allowList('Authorization'),
    queryStringBehavior: CacheQueryStringBehavior.all(),
    cookieBehavior: CacheCookieBehavior.all(),
  });

/** The staff panel's response headers policy (see the module doc). */
export const panelHeadersPolicy = (stack: Stack): ResponseHeadersPolicy =>
  new ResponseHeadersPolicy(stack, 'AdminHeadersPolicy', {
    comment: 'mathisland staff panel: CSP, nosniff, same-origin referrers, no framing, HSTS',
    securityHeadersBehavior: {
      contentSecurityPolicy: { contentSecurityPolicy: ADMIN_CONTENT_SECURITY_POLICY, override: true },
      contentTypeOptions: { override: true },
      referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.SAME_ORIGIN, override: true },
      frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
      strictTransportSecurity: { accessControlMaxAge: Duration.days(365), includeSubdomains: false, override: true },
    },
  });
