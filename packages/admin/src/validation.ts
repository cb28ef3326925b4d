/**
 * Form validators that mirror the admin API's body rules (docs/admin-api.md "Resources", `LIMITS` in contract.ts),
 * so a form refuses on screen what the API would refuse: texts are counted trimmed (a title of spaces is
 * blank), numbers are whole and inside the API's bounds.
 */
import { maxLength, maxValue, minLength, minValue, number, regex, required, type Validator } from 'react-admin';
import { DISCOUNT_CODE_PATTERN, LIMITS, MIN_PASSWORD_LENGTH, SKU_PATTERN, USERNAME_PATTERN } from './contract';

const isEmpty = (value: unknown) => value === undefined || value === null || value === '';

const wholeNumber =
  (message = 'app.validation.whole_number'): Validator =>
  (value) =>
    isEmpty(value) || Number.isInteger(Number(value)) ? undefined : message;

/** A text that is not only spaces (the API trims before counting). */
const notBlank: Validator = (value) =>
  typeof value === 'string' && value.length > 0 && value.trim() === '' ? 'app.validation.blank' : undefined;

/** A text required and 1-`max` characters once trimmed. */
const text = (max: number): Validator[] => [required(), notBlank, maxLength(max)];

/** A plan's features: at most 20, each 1-200 characters (trimmed). */
const features: Validator = (value) => {
  if (!Array.isArray(value)) return undefined;
  if (value.length > LIMITS.features) return 'app.validation.features_count';
  return value.some((f) => typeof f !== 'string' || f.trim() === '' || f.trim().length > LIMITS.feature)
    ? 'app.validation.feature'
    : undefined;
};

export const validate = {
  title: text(LIMITS.title),
  /** Whole toman, 0 to 1 000 000 000. */
  price: [
    required(),
    number(),
    wholeNumber('app.validation.whole_toman'),
    minValue(0, 'app.validation.whole_toman'),
    maxValue(LIMITS.price),
  ],
  durationDays: [required(), number(), wholeNumber(), minValue(1), maxValue(LIMITS.durationDays)],
  aiDailyQuota: [required(), number(), wholeNumber(), minValue(0), maxValue(LIMITS.aiDailyQuota)],
  features: [features],
  /** Optional: empty means none (null). */
  badge: [notBlank, maxLength(LIMITS.badge)],
  sku: [regex(SKU_PATTERN, 'app.validation.sku')],
  discountCode: [required(), regex(DISCOUNT_CODE_PATTERN, 'app.validation.discount_code')],
  percent: [required(), number(), wholeNumber(), minValue(1), maxValue(100)],
  maxUses: [number(), wholeNumber(), minValue(1), maxValue(LIMITS.maxUses)],
  perUserLimit: [required(), number(), wholeNumber(), minValue(1), maxValue(LIMITS.perUserLimit)],
  username: [required(), regex(USERNAME_PATTERN, 'app.validation.username')],
  newPassword: [required(), minLength(MIN_PASSWORD_LENGTH, 'app.validation.password'), maxLength(LIMITS.password)],
  changedPassword: [minLength(MIN_PASSWORD_LENGTH, 'app.validation.password'), maxLength(LIMITS.password)],
  notificationTitle: text(LIMITS.notificationTitle),
  notificationBody: text(LIMITS.notificationBody),
};

/** A discount code's window: validUntil after validFrom. */
export function validateWindow(values: Record<string, any>) {
  if (values.validFrom && values.validUntil && new Date(values.validUntil) <= new Date(values.validFrom)) {
    return { validUntil: 'app.validation.valid_until' };
  }
  return {};
}
