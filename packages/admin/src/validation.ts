/** Form validators that mirror the admin API's checks (so a form refuses what the API would). */
import { maxLength, maxValue, minLength, minValue, number, regex, required } from 'react-admin';
import { DISCOUNT_CODE_PATTERN, MIN_PASSWORD_LENGTH, SKU_PATTERN, USERNAME_PATTERN } from './contract';

const wholeNumber =
  (message = 'app.validation.whole_number') =>
  (value: unknown) =>
    value === undefined || value === null || value === '' || Number.isInteger(Number(value)) ? undefined : message;

export const validate = {
  title: [required(), maxLength(100)],
  /** Whole toman, 0 or more (plan price ≥ 0 integer). */
  price: [required(), number(), wholeNumber('app.validation.whole_toman'), minValue(0, 'app.validation.whole_toman')],
  durationDays: [required(), number(), wholeNumber(), minValue(1), maxValue(3650)],
  aiDailyQuota: [required(), number(), wholeNumber(), minValue(0), maxValue(1000)],
  badge: [maxLength(40)],
  sku: [maxLength(64), regex(SKU_PATTERN, 'app.validation.sku')],
  discountCode: [required(), regex(DISCOUNT_CODE_PATTERN, 'app.validation.discount_code')],
  percent: [required(), number(), wholeNumber(), minValue(1), maxValue(100)],
  maxUses: [number(), wholeNumber(), minValue(1)],
  perUserLimit: [number(), wholeNumber(), minValue(1)],
  username: [required(), regex(USERNAME_PATTERN, 'app.validation.username')],
  newPassword: [required(), minLength(MIN_PASSWORD_LENGTH, 'app.validation.password'), maxLength(256)],
  changedPassword: [minLength(MIN_PASSWORD_LENGTH, 'app.validation.password'), maxLength(256)],
  text: [required(), maxLength(2000)],
  notificationTitle: [required(), maxLength(100)],
  notificationBody: [required(), maxLength(1000)],
  userId: [number(), wholeNumber(), minValue(1)],
};

/** A discount code's window: validUntil after validFrom. */
export function validateWindow(values: Record<string, any>) {
  if (values.validFrom && values.validUntil && new Date(values.validUntil) <= new Date(values.validFrom)) {
    return { validUntil: 'app.validation.valid_until' };
  }
  return {};
}
