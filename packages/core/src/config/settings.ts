/**
 * Reads and validates every setting declared in `infra/settings.ts` (DESIGN §4). This is the only module
 * that reads `process.env` for configuration.
 *
 * Errors: throws {@link SettingsError} (message names the setting and what is wrong) on a bad value (e.g. a
 * MARKETPLACE_PUBLIC_KEY that is no RSA public key), on an invalid FIXED_OTP_LOGINS list, and on debug codes, fixed logins or the bench's throttle override when STAGE is
 * `production` (spec Authentication 3 and 4). Callers let it stop startup.
 */
import { type SettingName, settingDecls } from '../../../../infra/settings';
import { marketplacePublicKey } from '../providers/cafebazaarPurchaseData';

export class SettingsError extends Error {
  override name = 'SettingsError';
}

/** One fixed-code demo login (spec Authentication 3). */
export type FixedOtpLogins = ReadonlyMap<string, string>;

export interface Settings {
  stage: string;
  isProduction: boolean;
  secretKey?: string;
  internalServiceKey?: string;
  /**
   * The values of the secret origin header `x-origin-verify` accepted now (DESIGN §12): ORIGIN_VERIFY_SECRET and,
   * during a rotation, ORIGIN_VERIFY_PREVIOUS. Empty: no request is accepted (fail closed).
   */
  originVerify: string[];
  debug: boolean;
  debugMasterOtp?: string;
  fixedOtpLogins: FixedOtpLogins;
  /** `parentReportTemplate`: SMS_PARENT_REPORT_TEMPLATE, undefined when off. */
  sms: { apiKey?: string; template: string; baseUrl: string; parentReportTemplate?: string };
  gateway: { merchantId?: string; baseUrl: string; redirect: string };
  /** The API's public base URL without a trailing slash (PUBLIC_BASE_URL), or undefined when unset. */
  publicBaseUrl?: string;
  frontendUrl: string;
  invoicePrefix: string;
  marketplace: {
    baseUrl: string;
    packageName?: string;
    apiSecret?: string;
    clientId?: string;
    clientSecret?: string;
    /** The OAuth redirect URI: MARKETPLACE_REDIRECT_URI, else `{PUBLIC_BASE_URL}/api/payment/marketplace/verify`. */
    redirectUri?: string;
    authorizeWindowHours: number;
    dynamicPriceKey?: string;
    renewalWindowHours: number;
    /** MARKETPLACE_PUBLIC_KEY: the app's RSA public key (base64 X.509); set, subscription verifies need signed purchase data. */
    publicKey?: string;
  };
  ai: {
    apiKey?: string;
    baseUrl: string;
    model: string;
    embeddingModel: string;
    dailyQuotaFree: number;
    maxConcurrentPerWorker: number;
  };
  hearts: { enforced: boolean; refillSeconds: number; max: number };
  tableName: string;
  dynamodbEndpoint?: string;
  port: number;
  dataDir: string;
  /** BENCH_THROTTLE_LIMIT: replaces every throttle scope's limit (load runs of `npm run bench`); never in production. */
  benchThrottleLimit?: number;
}

type Env = Record<string, string | undefined>;

/** The raw value of a setting: env value, else its default; `''` stays `''` (explicitly off). */
function raw(env: Env, name: SettingName): string | undefined {
  const value = env[name];
  if (value !== undefined) return value;
  return (settingDecls[name] as { default?: string }).default;
}

/** A string setting; unset or empty means `undefined` (off). */
function str(env: Env, name: SettingName): string | undefined {
  const value = raw(env, name)?.trim();
  return value ? value : undefined;
}

function url(env: Env, name: SettingName): string | undefined {
  const value = str(env, name);
  if (value === undefined) return undefined;
  try {
    new URL(value);
  } catch {
    throw new SettingsError(`${name} must be an absolute URL, got "${value}"`);
  }
  return value.replace(/\/+$/, '');
}

function int(env: Env, name: SettingName): number {
  const value = str(env, name) ?? '';
  const decl = settingDecls[name] as { min?: number };
  if (!/^\d+$/.test(value)) throw new SettingsError(`${name} must be a whole number, got "${value}"`);
  const n = Number(value);
  if (decl.min !== undefined && n < decl.min) throw new SettingsError(`${name} must be at least ${decl.min}, got ${n}`);
  return n;
}

function bool(env: Env, name: SettingName): boolean {
  const value = (str(env, name) ?? '').toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(value)) return true;
  if (['0', 'false', 'no', 'off'].includes(value)) return false;
  throw new SettingsError(`${name} must be 1 or 0, got "${value}"`);
}

/**
 * Parses FIXED_OTP_LOGINS: `phone:code` pairs separated by commas; phone is `+`? and 7-15 ASCII digits,
 * code 4 to 6 ASCII digits; a phone may appear once. Empty means none.
 */
export function parseFixedOtpLogins(value: string | undefined): FixedOtpLogins {
  const logins = new Map<string, string>();
  const text = (value ?? '').trim();
  if (!text) return logins;
  for (const entry of text.split(',')) {
    const pair = entry.trim();
    const match = /^(\+?[0-9]{7,15}):([0-9]{4,6})$/.exec(pair);
    if (!match) {
      throw new SettingsError(
        `FIXED_OTP_LOGINS: "${pair}" is not phone:code (phone of 7-15 digits, code of 4-6 digits); expected e.g. 09120000000:123456,09120000001:4321`,
      );
    }
    const [, phone, code] = match as unknown as [string, string, string];
    if (logins.has(phone)) throw new SettingsError(`FIXED_OTP_LOGINS: phone ${phone} is listed twice`);
    logins.set(phone, code);
  }
  return logins;
}

/** The path the marketplace redirects the account owner back to (spec Authentication 9). */
export const MARKETPLACE_REDIRECT_PATH = '/api/payment/marketplace/verify';

/**
 * The OAuth redirect URI of the marketplace (spec Authentication 9; DESIGN §8): MARKETPLACE_REDIRECT_URI must
 * equal `{PUBLIC_BASE_URL}/api/payment/marketplace/verify`; unset, it is that address. Errors:
 * {@link SettingsError} when it is set and differs (or PUBLIC_BASE_URL is unset, so nothing can be checked).
 */
function marketplaceRedirectUri(env: Env, publicBaseUrl: string | undefined): string | undefined {
  const expected = publicBaseUrl ? `${publicBaseUrl}${MARKETPLACE_REDIRECT_PATH}` : undefined;
  const configured = url(env, 'MARKETPLACE_REDIRECT_URI');
  if (configured !== undefined && configured !== expected) {
    throw new SettingsError(
      `MARKETPLACE_REDIRECT_URI must equal {PUBLIC_BASE_URL}${MARKETPLACE_REDIRECT_PATH} (${expected ?? 'PUBLIC_BASE_URL is unset'}), got "${configured}"`,
    );
  }
  return expected;
}

/** MARKETPLACE_PUBLIC_KEY, checked to be a base64 X.509 RSA public key. Errors: {@link SettingsError}. */
function marketplaceKey(env: Env): string | undefined {
  const value = str(env, 'MARKETPLACE_PUBLIC_KEY');
  if (value === undefined) return undefined;
  try {
    marketplacePublicKey(value);
  } catch (error) {
    throw new SettingsError(
      `MARKETPLACE_PUBLIC_KEY ${(error as Error).message} (the base64 RSA public key of the marketplace's developer panel)`,
    );
  }
  return value;
}

/** Reads all settings from `env` (default `process.env`). See the module doc for the errors. */
export function loadSettings(env: Env = process.env): Settings {
  const stage = str(env, 'STAGE') ?? 'local';
  const isProduction = stage === 'production';
  const debug = bool(env, 'DEBUG');
  const fixedOtpLogins = parseFixedOtpLogins(raw(env, 'FIXED_OTP_LOGINS'));
  const debugMasterOtp = str(env, 'DEBUG_MASTER_OTP');
  if (isProduction && fixedOtpLogins.size > 0) {
    throw new SettingsError('FIXED_OTP_LOGINS must be empty when STAGE is production');
  }
  if (isProduction && (debugMasterOtp || debug)) {
    throw new SettingsError('DEBUG and DEBUG_MASTER_OTP must not be set when STAGE is production');
  }
  const benchThrottleLimit = str(env, 'BENCH_THROTTLE_LIMIT') === undefined ? undefined : int(env, 'BENCH_THROTTLE_LIMIT');
  if (isProduction && benchThrottleLimit !== undefined) {
    throw new SettingsError('BENCH_THROTTLE_LIMIT must not be set when STAGE is production');
  }
  if (debugMasterOtp && !/^[0-9]{4,6}$/.test(debugMasterOtp)) {
    throw new SettingsError('DEBUG_MASTER_OTP must be 4 to 6 digits');
  }
  const frontendUrl = url(env, 'FRONTEND_URL') as string;
  const redirect = str(env, 'GATEWAY_REDIRECT') ?? frontendUrl;
  if (redirect !== '-') url({ GATEWAY_REDIRECT: redirect }, 'GATEWAY_REDIRECT');
  const publicBaseUrl = url(env, 'PUBLIC_BASE_URL');

  return {
    stage,
    isProduction,
    secretKey: str(env, 'SECRET_KEY'),
    internalServiceKey: str(env, 'INTERNAL_SERVICE_KEY'),
    originVerify: [str(env, 'ORIGIN_VERIFY_SECRET'), str(env, 'ORIGIN_VERIFY_PREVIOUS')].filter((v): v is string => v !== undefined),
    debug,
    debugMasterOtp: debug ? debugMasterOtp : undefined,
    fixedOtpLogins,
    sms: {
      apiKey: str(env, 'SMS_API_KEY'),
      template: str(env, 'SMS_TEMPLATE') ?? 'verify',
      baseUrl: url(env, 'SMS_BASE_URL') as string,
      parentReportTemplate: str(env, 'SMS_PARENT_REPORT_TEMPLATE'),
    },
    gateway: {
      merchantId: str(env, 'GATEWAY_MERCHANT_ID'),
      baseUrl: url(env, 'GATEWAY_BASE_URL') as string,
      redirect: redirect.replace(/\/+$/, ''),
    },
    publicBaseUrl,
    frontendUrl,
    invoicePrefix: str(env, 'INVOICE_PREFIX') ?? 'INV',
    marketplace: {
      baseUrl: url(env, 'MARKETPLACE_BASE_URL') as string,
      packageName: str(env, 'MARKETPLACE_PACKAGE_NAME'),
      apiSecret: str(env, 'MARKETPLACE_API_SECRET'),
      clientId: str(env, 'MARKETPLACE_CLIENT_ID'),
      clientSecret: str(env, 'MARKETPLACE_CLIENT_SECRET'),
      redirectUri: marketplaceRedirectUri(env, publicBaseUrl),
      authorizeWindowHours: int(env, 'MARKETPLACE_AUTHORIZE_WINDOW_HOURS'),
      dynamicPriceKey: str(env, 'MARKETPLACE_DYNAMIC_PRICE_KEY'),
      renewalWindowHours: int(env, 'MARKETPLACE_RENEWAL_WINDOW_HOURS'),
      publicKey: marketplaceKey(env),
    },
    ai: {
      apiKey: str(env, 'OPENAI_API_KEY'),
      baseUrl: url(env, 'OPENAI_BASE_URL') as string,
      model: str(env, 'AI_MODEL') as string,
      embeddingModel: str(env, 'AI_EMBEDDING_MODEL') as string,
      dailyQuotaFree: int(env, 'AI_DAILY_QUOTA_FREE'),
      maxConcurrentPerWorker: int(env, 'AI_MAX_CONCURRENT_PER_WORKER'),
    },
    hearts: { enforced: bool(env, 'HEARTS_ENFORCED'), refillSeconds: int(env, 'HEART_REFILL_SECONDS'), max: 5 },
    tableName: str(env, 'TABLE_NAME') as string,
    dynamodbEndpoint: url(env, 'DYNAMODB_ENDPOINT'),
    port: int(env, 'PORT'),
    dataDir: str(env, 'DATA_DIR') ?? '.data',
    ...(benchThrottleLimit === undefined ? {} : { benchThrottleLimit }),
  };
}
