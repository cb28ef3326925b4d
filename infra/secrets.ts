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

/**
 * The origin secret (DESIGN §12): a second Secrets Manager secret per stage, `mathisland/<stage>/origin`, a JSON
 * object `{ "current": "...", "previous": "..." }` made by `stacks/Secrets.ts` (a random `current`, an empty
 * `previous`). CloudFront sends `current` as the origin header `x-origin-verify` on every request to the API and
 * the tutor's function URL (`stacks/edge.ts`); the functions read the secret (its ARN in ORIGIN_SECRET_ID) and
 * accept either value, so it can be rotated by hand without a refused request (docs/deploy.md "The edge").
 * Kept apart from the app secret because adding a name to that one regenerates its whole value.
 *
 * Each field and the setting it becomes (`infra/settings.ts`); locally the settings come from the environment.
 */
export const originSecretFields = { current: 'ORIGIN_VERIFY_SECRET', previous: 'ORIGIN_VERIFY_PREVIOUS' } as const;

/** The settings that hold the origin secret's values: never in a function's environment. */
export const originSecretNames = Object.values(originSecretFields);
