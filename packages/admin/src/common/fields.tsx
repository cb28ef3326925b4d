/**
 * Fields shared by the screens: times in Tehran time (the Jalali calendar in Persian, Gregorian in English),
 * Tehran days, money in whole toman, the contract's choice lists with translated names, and how an API error reads.
 */
import { Chip, Typography } from '@mui/material';
import {
  DateField,
  type FieldProps,
  FunctionField,
  SelectInput,
  type SelectInputProps,
  useFieldValue,
  useLocaleState,
  useTranslate,
} from 'react-admin';
import { formatDigits, formatNumber, intlLocale } from '../i18n';

export const TEHRAN = 'Asia/Tehran';

/**
 * The words of a failed call, for a page that shows the error itself: its message translated when the panel words
 * that code (`app.errors.<code>`), else the API's `detail` as sent (http.ts `toHttpError`).
 */
export function useErrorText(): (error: unknown) => string {
  const translate = useTranslate();
  return (error) => {
    const message = (error as Error | null)?.message ?? '';
    return translate(message, { _: message });
  };
}

/** An ISO time in Tehran time: Jalali in Persian, Gregorian in English. */
export function DateTime(props: FieldProps & { showTime?: boolean }) {
  const [locale] = useLocaleState();
  const { showTime = true, ...rest } = props;
  return (
    <DateField
      {...rest}
      locales={intlLocale(locale)}
      showTime={showTime}
      options={{
        timeZone: TEHRAN,
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        ...(showTime ? { hour: '2-digit', minute: '2-digit' } : {}),
      }}
    />
  );
}

/** A time (ISO string, epoch ms or Date) in Tehran time, long form: `۲۹ آبان ۱۴۰۵، ۱۱:۳۰` in Persian. */
export function formatTime(value: string | number | Date | null | undefined, locale: string): string {
  if (value === null || value === undefined || value === '') return '—';
  const time = new Date(value);
  if (Number.isNaN(time.getTime())) return '—';
  return time.toLocaleString(intlLocale(locale), {
    timeZone: TEHRAN,
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
}

/** A Tehran day `YYYY-MM-DD` in the locale's calendar. */
export function formatDay(day: string | undefined, locale: string): string {
  if (!day || !/^\d{4}-\d{2}-\d{2}$/.test(day)) return day ?? '';
  return new Date(`${day}T12:00:00Z`).toLocaleDateString(intlLocale(locale), {
    timeZone: 'UTC',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
  });
}

export function DayField(props: FieldProps) {
  const [locale] = useLocaleState();
  const day = useFieldValue(props);
  return <FunctionField {...props} render={() => (day ? formatDay(day, locale) : (props.emptyText ?? '—'))} />;
}

/**
 * A number in the panel's digits (Persian digits in Persian): counts and percents grouped, ids (`id`, `grouping`
 * false) not; empty shows `emptyText`.
 */
export function Num(props: FieldProps & { grouping?: boolean }) {
  const [locale] = useLocaleState();
  const { grouping = true, ...rest } = props;
  const value = useFieldValue(props);
  return (
    <FunctionField
      {...rest}
      render={() => (typeof value === 'number' ? formatNumber(value, locale, grouping) : (value ?? props.emptyText ?? ''))}
    />
  );
}

/** An id (or any number read as a name, like an HTTP status) in the panel's digits, without grouping. */
export const IdField = (props: FieldProps) => <Num {...props} grouping={false} />;

/**
 * A phone number (or a masked one, `0912****567`) in the panel's digits, read left to right inside the right-to-left
 * page; empty shows `emptyText` (default `—`). Searches accept either digits (dataProvider.ts).
 */
export function PhoneField(props: FieldProps) {
  const [locale] = useLocaleState();
  const value = useFieldValue(props);
  return (
    <FunctionField
      {...props}
      render={() => (value ? <bdi dir="ltr">{formatDigits(String(value), locale)}</bdi> : (props.emptyText ?? '—'))}
    />
  );
}

export function formatMoney(amount: number | null | undefined, locale: string, toman: string): string {
  if (amount === null || amount === undefined) return '';
  return `${amount.toLocaleString(intlLocale(locale))} ${toman}`;
}

/** An amount in whole toman, with the locale's digits (for values outside a record's fields). */
export function MoneyText({ amount }: { amount: number | null | undefined }) {
  const [locale] = useLocaleState();
  const translate = useTranslate();
  return <>{formatMoney(amount, locale, translate('app.toman'))}</>;
}

/** Whole toman, with the locale's digits. */
export function Money(props: FieldProps) {
  const [locale] = useLocaleState();
  const translate = useTranslate();
  const source = props.source as string;
  return <FunctionField {...props} render={(record: any) => formatMoney(record?.[source], locale, translate('app.toman'))} />;
}

export const choicesOf = (group: string, ids: readonly string[]) => ids.map((id) => ({ id, name: `choices.${group}.${id}` }));

/** A value of one of the API's enums, by its translation `choices.<group>.<value>` (the value itself when none). */
export function ChoiceField(props: FieldProps & { group: string }) {
  const { group, ...rest } = props;
  const translate = useTranslate();
  const value = useFieldValue(props);
  return (
    <FunctionField
      {...rest}
      render={() =>
        value === undefined || value === null || value === ''
          ? (props.emptyText ?? '')
          : translate(`choices.${group}.${value}`, { _: String(value) })
      }
    />
  );
}

/** A choice among `ids` (an enum of the API description), each by its translation `choices.<group>.<id>`. */
export function ChoiceInput(props: Omit<SelectInputProps, 'choices'> & { group: string; ids: readonly string[] }) {
  const { group, ids, ...rest } = props;
  return <SelectInput {...rest} choices={choicesOf(group, ids)} />;
}

const STATUS_COLORS: Record<string, 'default' | 'success' | 'warning' | 'error' | 'info'> = {
  pending: 'warning',
  paid: 'success',
  failed: 'error',
  refunded: 'info',
  cancelled: 'default',
  open: 'warning',
  answered: 'info',
  closed: 'default',
  live: 'success',
  dead: 'error',
  expired: 'default',
  active: 'success',
  stopped: 'default',
  none: 'default',
  sent: 'success',
  uncertain: 'warning',
};

/** A status as a coloured chip with its translated name. */
export function StatusChip(props: FieldProps & { group: string }) {
  const translate = useTranslate();
  const value = useFieldValue(props);
  if (value === undefined || value === null) return props.emptyText ? <Typography variant="body2">{props.emptyText}</Typography> : null;
  return (
    <Chip
      size="small"
      color={STATUS_COLORS[String(value)] ?? 'default'}
      label={translate(`choices.${props.group}.${value}`, { _: String(value) })}
    />
  );
}
