/**
 * Every setting of the service: environment name, kind, default and one line of doc (DESIGN §4).
 *
 * This is a declaration only; `packages/core/src/config/settings.ts` is the one module that reads and
 * validates them, and fails at startup with a message naming the setting on a bad value.
 *
 * Conventions:
 * - A provider setting that is *unset* means "use the local fake" under `npm start` (the local runtime fills
 *   it in) and "off" in AWS; a setting given as an empty string is always off, so 503 paths can be tried.
 * - Booleans accept 1/0/true/false.
 */
export type SettingKind = 'string' | 'url' | 'int' | 'bool' | 'otpList';

export interface SettingDecl {
  kind: SettingKind;
  /** Default when unset; `undefined` means no default (the feature is off or the value is generated). */
  default?: string;
  /** Smallest allowed value, for `int`. */
  min?: number;
  doc: string;
}

export const settingDecls = {
  STAGE: { kind: 'string', default: 'local', doc: 'Deployment stage; `production` forbids debug codes and fixed logins.' },
  SECRET_KEY: {
    kind: 'string',
    doc: 'Signs access tokens (HS256) and hashes one-time codes; generated into DATA_DIR/secret-key when unset locally.',
  },
  INTERNAL_SERVICE_KEY: { kind: 'string', doc: 'X-Internal-Key for internal routes and health details; no default: unset closes them.' },
  ORIGIN_VERIFY_SECRET: {
    kind: 'string',
    doc: 'The secret origin header `x-origin-verify` the edge adds (DESIGN §12): a request without it (or ORIGIN_VERIFY_PREVIOUS) is 403 forbidden_origin, and unset refuses every request. In AWS the `current` of the origin secret; `npm start` (the local edge) generates one per run when unset.',
  },
  ORIGIN_VERIFY_PREVIOUS: {
    kind: 'string',
    doc: 'The previous origin header value, still accepted while CloudFront moves to the new one (a rotation; the `previous` of the origin secret).',
  },
  DEBUG: { kind: 'bool', default: '0', doc: 'Debug mode; enables DEBUG_MASTER_OTP and closes internal routes.' },
  DEBUG_MASTER_OTP: { kind: 'string', doc: 'A code valid for any phone, honoured only when DEBUG=1; refused at startup in production.' },
  FIXED_OTP_LOGINS: {
    kind: 'otpList',
    default: '',
    doc: 'Demo logins `phone:code,phone:code` (code 4-6 digits): no SMS, code always valid; must be empty in production.',
  },
  SMS_API_KEY: { kind: 'string', doc: 'Kavenegar-style API key; empty means sign-in codes cannot be sent (503 sms_unavailable).' },
  SMS_TEMPLATE: { kind: 'string', default: 'verify', doc: 'Approved verify/lookup template name that carries %token.' },
  SMS_BASE_URL: { kind: 'url', default: 'https://api.kavenegar.com', doc: 'Base URL of the sms provider (the key goes into the path).' },
  SMS_PARENT_REPORT_TEMPLATE: {
    kind: 'string',
    default: 'parent-report',
    doc: "Approved verify/lookup template of the parent's weekly report (DESIGN §13; %token..%token20 carry the figures and the stop link's code, docs/deploy.md); empty turns parent reports off.",
  },
  GATEWAY_MERCHANT_ID: { kind: 'string', doc: 'Payment gateway merchant id (36-char UUID); empty means payments fail closed with 503.' },
  GATEWAY_BASE_URL: {
    kind: 'url',
    default: 'https://payment.zarinpal.com',
    doc: 'Gateway host; API under /pg/v4/payment/, StartPay under /pg/StartPay/.',
  },
  GATEWAY_REDIRECT: {
    kind: 'string',
    doc: 'Where the callback sends the browser: a frontend URL, or `-` to answer JSON. Defaults to FRONTEND_URL.',
  },
  PUBLIC_BASE_URL: {
    kind: 'url',
    doc: "The API's own public address (one origin per stage, DESIGN §1); pay links, gateway callbacks and redirect URIs are built from it, never from the request's Host. Locally http://localhost:<PORT>; unset in AWS means payments fail closed (503).",
  },
  FRONTEND_URL: {
    kind: 'url',
    default: 'http://localhost:3000/',
    doc: 'The web app; payment results redirect here with orderId and status.',
  },
  INVOICE_PREFIX: { kind: 'string', default: 'INV', doc: 'Invoice number prefix: `<prefix>-<order id padded to 6 digits>`.' },
  MARKETPLACE_BASE_URL: {
    kind: 'url',
    default: 'https://pardakht.cafebazaar.ir',
    doc: 'Marketplace developer API host; the API is under /devapi/v2/api/, OAuth under /devapi/v2/auth/ (providers.md §2).',
  },
  MARKETPLACE_PACKAGE_NAME: {
    kind: 'string',
    doc: 'Android package name registered with the marketplace; without it marketplace purchases fail closed.',
  },
  MARKETPLACE_API_SECRET: { kind: 'string', doc: 'Static Pishkhan API secret (new method); takes precedence over OAuth when set.' },
  MARKETPLACE_CLIENT_ID: { kind: 'string', doc: 'OAuth client id (old method).' },
  MARKETPLACE_CLIENT_SECRET: { kind: 'string', doc: 'OAuth client secret (old method).' },
  MARKETPLACE_REDIRECT_URI: {
    kind: 'url',
    doc: 'OAuth redirect URI registered with the marketplace; must equal {PUBLIC_BASE_URL}/api/payment/marketplace/verify (startup refuses otherwise); defaults to it.',
  },
  MARKETPLACE_AUTHORIZE_WINDOW_HOURS: { kind: 'int', default: '72', min: 1, doc: 'How long an authorization window stays open, hours.' },
  MARKETPLACE_DYNAMIC_PRICE_KEY: {
    kind: 'string',
    doc: 'Signs dynamic-price tokens; without it discount codes are refused on marketplace orders.',
  },
  MARKETPLACE_PUBLIC_KEY: {
    kind: 'string',
    doc: "The app's RSA public key from the marketplace's developer panel (base64 X.509); set, a subscription verify needs the purchase data the marketplace signed (purchaseData, dataSignature).",
  },
  MARKETPLACE_RENEWAL_WINDOW_HOURS: {
    kind: 'int',
    default: '24',
    min: 1,
    doc: 'A marketplace subscription whose period ends within this many hours (or has ended) is asked again for its renewal.',
  },
  OPENAI_API_KEY: { kind: 'string', doc: 'Key of the OpenAI-compatible model API; empty turns the tutor off.' },
  OPENAI_BASE_URL: { kind: 'url', default: 'https://api.openai.com/v1', doc: 'Base URL of the OpenAI-compatible API.' },
  AI_MODEL: { kind: 'string', default: 'gpt-4o-mini', doc: 'Chat model of the tutor.' },
  AI_EMBEDDING_MODEL: { kind: 'string', default: 'text-embedding-3-small', doc: 'Embedding model for textbook retrieval.' },
  AI_DAILY_QUOTA_FREE: { kind: 'int', default: '2', min: 0, doc: 'Tutor questions per Tehran day for users without a plan.' },
  AI_MAX_CONCURRENT_PER_WORKER: { kind: 'int', default: '12', min: 1, doc: 'Concurrent tutor answers per worker.' },
  HEARTS_ENFORCED: { kind: 'bool', default: '1', doc: 'Whether hearts gate answering (spec Limits).' },
  HEART_REFILL_SECONDS: { kind: 'int', default: '14400', min: 1, doc: 'One heart comes back after this many seconds (4 hours).' },
  TABLE_NAME: { kind: 'string', default: 'mathisland-local', doc: 'The DynamoDB table.' },
  DYNAMODB_ENDPOINT: { kind: 'url', doc: 'DynamoDB endpoint override (DynamoDB Local); unset in AWS.' },
  PORT: { kind: 'int', default: '3000', min: 1, doc: 'Port of the local runtime.' },
  DATA_DIR: { kind: 'string', default: '.data', doc: 'Local data: DynamoDB Local files and the generated secret key.' },
  BENCH_THROTTLE_LIMIT: {
    kind: 'int',
    min: 1,
    doc: "Bench only: every throttle scope allows this many requests per window instead of its own limit, for `npm run bench`'s load runs from one address; refused at startup when STAGE is production, never passed on by the stacks.",
  },
} as const satisfies Record<string, SettingDecl>;

export type SettingName = keyof typeof settingDecls;
