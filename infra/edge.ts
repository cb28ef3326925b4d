/**
 * The edge's two request headers (DESIGN §12), named once for the stacks (what CloudFront adds and forwards), the
 * functions (what they check and trust) and the local runtime (which plays CloudFront).
 *
 * - {@link ORIGIN_VERIFY_HEADER}: the secret origin header CloudFront adds to every request it sends to the API and
 *   the tutor's function URL (its value: the origin secret, infra/secrets.ts). A request without a valid one did not
 *   come through the stage's distribution: 403 `forbidden_origin`. CloudFront replaces a viewer's own copy.
 * - {@link VIEWER_ADDRESS_HEADER}: CloudFront's `CloudFront-Viewer-Address`, the viewer's `ip:port` (an IPv6 address
 *   without brackets, so the port follows the last `:`), forwarded by the origin request policy and set by CloudFront
 *   alone. Trusted only on a request whose origin header is valid; it is the address every per-IP throttle counts.
 *
 * Header names are lower case: API Gateway and function URLs hand them to the functions so.
 */
export const ORIGIN_VERIFY_HEADER = 'x-origin-verify';
export const VIEWER_ADDRESS_HEADER = 'cloudfront-viewer-address';
/** The header as CloudFront's documents and policies spell it. */
export const VIEWER_ADDRESS_HEADER_NAME = 'CloudFront-Viewer-Address';

/**
 * The staff panel's Content-Security-Policy (DESIGN §12), for `/admin/` locally (packages/local/src/server.ts) and
 * through CloudFront's response headers policy (stacks/edge.ts): everything from the panel's own origin, no inline
 * or evaluated script, no framing. Styles: MUI's emotion writes its rules into `<style>` elements at run time and
 * MUI sets `style` attributes; a static site has no per-response nonce to give them, and under `style-src 'self'`
 * the built panel renders unstyled (checked in Chromium: tests/browser/staffSessions.test.ts). So `style-src`
 * allows inline styles (a style cannot run script); everything else is strict.
 */
export const ADMIN_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The staff panel's security headers, by lower-case name (every answer under `/admin/`). */
export const ADMIN_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': ADMIN_CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
};
