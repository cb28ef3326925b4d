/**
 * Form validators made from the rules of the API's request bodies (the API description's schema of each field:
 * `bodyRule` in api/contract.ts), so a form refuses on screen what the API would refuse: texts are counted trimmed
 * (a title of spaces is blank), numbers are whole and inside the API's bounds, patterns are the API's.
 */
import { maxLength, maxValue, minLength, minValue, number, regex, required, type Validator } from 'react-admin';
import { bodyRule, type FieldRule, type OperationKey } from '../api/contract';

const isEmpty = (value: unknown) => value === undefined || value === null || value === '';

const wholeNumber =
  (message = 'app.validation.whole_number'): Validator =>
  (value) =>
    isEmpty(value) || Number.isInteger(Number(value)) ? undefined : message;

/** A text that is not only spaces (the API trims before counting). */
const notBlank: Validator = (value) =>
  typeof value === 'string' && value.length > 0 && value.trim() === '' ? 'app.validation.blank' : undefined;

/** A list of texts (a plan's features): at most `maxItems`, each inside the item's lengths once trimmed. */
const textList =
  (rule: FieldRule): Validator =>
  (value) => {
    if (!Array.isArray(value)) return undefined;
    if (rule.maxItems !== undefined && value.length > rule.maxItems) return 'app.validation.features_count';
    const min = rule.items?.minLength ?? 1;
    const max = rule.items?.maxLength ?? Number.POSITIVE_INFINITY;
    return value.some((f) => typeof f !== 'string' || f.trim().length < min || f.trim().length > max)
      ? 'app.validation.feature'
      : undefined;
  };

interface Messages {
  /** The message when the text does not match the API's pattern. */
  pattern?: string;
  /** The message of a fraction or a number under the minimum (money: "whole toman"). */
  whole?: string;
}

/**
 * The validators of body field `field` of operation `key` (`'POST /api/admin/plans'`, `'title'`): required when the
 * API requires it (or `required` says so), then its type's rules.
 */
export function fieldValidators(key: OperationKey, field: string, options: { required?: boolean } & Messages = {}): Validator[] {
  const { rule, required: apiRequired } = bodyRule(key, field);
  const validators: Validator[] = (options.required ?? apiRequired) ? [required()] : [];
  if (rule.type === 'integer' || rule.type === 'number') {
    validators.push(number());
    if (rule.type === 'integer') validators.push(wholeNumber(options.whole));
    const min = rule.minimum ?? (rule.exclusiveMinimum !== undefined ? rule.exclusiveMinimum + 1 : undefined);
    if (min !== undefined) validators.push(minValue(min, options.whole && min === 0 ? options.whole : undefined));
    if (rule.maximum !== undefined) validators.push(maxValue(rule.maximum));
  } else if (rule.type === 'array') {
    validators.push(textList(rule));
  } else {
    validators.push(notBlank);
    if (rule.minLength !== undefined && rule.minLength > 1) validators.push(minLength(rule.minLength, options.pattern));
    if (rule.maxLength !== undefined) validators.push(maxLength(rule.maxLength));
    if (rule.pattern) validators.push(regex(new RegExp(rule.pattern), options.pattern));
  }
  return validators;
}

/** The largest value or length the API takes for a body field (a reply's 5000 characters, a window's 720 hours). */
export const fieldMax = (key: OperationKey, field: string): number => {
  const { rule } = bodyRule(key, field);
  return rule.maxLength ?? rule.maximum ?? Number.POSITIVE_INFINITY;
};

/** Staff usernames: letters, digits and `_ . @ -` (any case; the API stores them lower case and refuses other characters). */
const USERNAME_CHARACTERS = /^[A-Za-z0-9_.@-]*$/;

const PLAN = 'POST /api/admin/plans';
const CODE = 'POST /api/admin/discount-codes';

export const validate = {
  title: fieldValidators(PLAN, 'title'),
  /** Whole toman. */
  price: fieldValidators(PLAN, 'price', { whole: 'app.validation.whole_toman' }),
  durationDays: fieldValidators(PLAN, 'durationDays'),
  aiDailyQuota: fieldValidators(PLAN, 'aiDailyQuota'),
  features: fieldValidators(PLAN, 'features'),
  /** Optional: empty means none (null). */
  badge: fieldValidators(PLAN, 'badge'),
  sku: fieldValidators(PLAN, 'marketplaceSku', { pattern: 'app.validation.sku' }),
  discountCode: fieldValidators(CODE, 'code', { pattern: 'app.validation.discount_code' }),
  percent: fieldValidators(CODE, 'percent'),
  maxUses: fieldValidators(CODE, 'maxUses'),
  perUserLimit: fieldValidators(CODE, 'perUserLimit', { required: true }),
  username: [
    ...fieldValidators('POST /api/admin/staff', 'username', { pattern: 'app.validation.username' }),
    regex(USERNAME_CHARACTERS, 'app.validation.username'),
  ],
  newPassword: fieldValidators('POST /api/admin/staff', 'password', { pattern: 'app.validation.password' }),
  changedPassword: fieldValidators('PATCH /api/admin/staff/{username}', 'password', { pattern: 'app.validation.password' }),
  notificationTitle: fieldValidators('POST /api/admin/notifications', 'title'),
  notificationBody: fieldValidators('POST /api/admin/notifications', 'body'),
};

/** A discount code's window: validUntil after validFrom. */
export function validateWindow(values: Record<string, any>) {
  if (values.validFrom && values.validUntil && new Date(values.validUntil) <= new Date(values.validFrom)) {
    return { validUntil: 'app.validation.valid_until' };
  }
  return {};
}
