/**
 * Names of the settings that are secrets (DESIGN §1, §4).
 *
 * In AWS they live in one Secrets Manager secret per stage (a JSON object keyed by these names, created by
 * `stacks/Secrets.ts`, read through Powertools Parameters). Locally they come from the environment or `.env`.
 * Everything else in `infra/settings.ts` is plain configuration passed as Lambda environment variables.
 */
export const secretNames = [
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
] as const;

export type SecretName = (typeof secretNames)[number];
