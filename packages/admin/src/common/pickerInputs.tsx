/**
 * Date and time pickers on Tehran time (DESIGN §9): MUI X's pickers, in the Jalali calendar with Persian digits in
 * Persian (date-fns-jalali) and the Gregorian one in English, as react-admin inputs. Loaded on demand by `pickers.tsx`
 * (a chunk of its own: MUI X's pickers and the two calendars' date-fns are a sixth of the panel's code).
 *
 * - {@link PickersProvider}: the pickers' calendar and words, following the panel's language (around each input).
 * - {@link TehranDateTimeInput}: an instant; the form holds ISO 8601 with Tehran's offset (or null: empty), and the
 *   picker shows and takes Tehran's wall clock whatever the browser's zone (`tehranTime.ts`).
 * - {@link TehranDayInput}: a Tehran day `YYYY-MM-DD` (the API's day filters: from, to).
 */

import { Box, type SxProps, type Theme } from '@mui/material';
import { AdapterDateFns } from '@mui/x-date-pickers/AdapterDateFns';
import { AdapterDateFnsJalali } from '@mui/x-date-pickers/AdapterDateFnsJalali';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { DateTimePicker } from '@mui/x-date-pickers/DateTimePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { enUS as enPickers, faIR as faPickers } from '@mui/x-date-pickers/locales';
import { enGB } from 'date-fns/locale/en-GB';
import { faIR } from 'date-fns-jalali/locale/fa-IR';
import type React from 'react';
import type { ReactNode } from 'react';
import { FieldTitle, InputHelperText, type InputProps, useInput, useLocaleState, useResourceContext } from 'react-admin';
import { dayToWallClock, fromWallClock, toWallClock, wallClockToDay } from './tehranTime';

const PERSIAN_DIGITS = '۰۱۲۳۴۵۶۷۸۹';
const toPersianDigits = (text: string) => text.replace(/[0-9]/g, (d) => PERSIAN_DIGITS[Number(d)] as string);
const toLatinDigits = (text: string) => text.replace(/[۰-۹]/g, (d) => String(PERSIAN_DIGITS.indexOf(d)));

/**
 * The Jalali adapter writing Persian digits: date-fns-jalali's format writes Latin ones, and MUI X shows a field's
 * and a calendar's numbers as its adapter formats them (it learns the digits from the adapter).
 */
class PersianAdapter extends AdapterDateFnsJalali {
  constructor(...args: ConstructorParameters<typeof AdapterDateFnsJalali>) {
    super(...args);
    const latin = this.formatByString;
    this.formatByString = (value, formatString) => toPersianDigits(latin(value, formatString));
    const parse = this.parse;
    this.parse = (value, format) => parse(toLatinDigits(value), format);
    // MUI X tells a year's width by a leading Latin zero ('0001'), which Persian digits lack: say it.
    this.formatTokenMap = { ...this.formatTokenMap, yyyy: { sectionType: 'year', contentType: 'digit', maxLength: 4 } };
  }
}

/**
 * Persian digits typed into a field (a Persian keyboard) become Latin ones before the field reads them: MUI X reads a
 * key from the section's text and takes it for a Latin digit, which it then writes in the adapter's digits.
 */
function latinTyping(event: React.FormEvent<HTMLElement>) {
  const target = event.target as HTMLElement;
  if (target.textContent && /[۰-۹]/.test(target.textContent)) target.textContent = toLatinDigits(target.textContent);
}

/** The pickers' adapter, calendar locale and words for the panel's language. */
function PickersProvider({ children }: { children: ReactNode }) {
  const [locale] = useLocaleState();
  const persian = locale === 'fa';
  return (
    <LocalizationProvider
      dateAdapter={persian ? PersianAdapter : AdapterDateFns}
      adapterLocale={persian ? faIR : enGB}
      localeText={(persian ? faPickers : enPickers).components.MuiLocalizationProvider.defaultProps.localeText}
    >
      {children}
    </LocalizationProvider>
  );
}

/** A value the picker could not read (a half-typed date): the form refuses it instead of saving "no date". */
const INVALID = 'invalid';
const validTime = (value: unknown) => (value === INVALID ? 'app.validation.time' : undefined);

export type PickerInputProps = Omit<InputProps, 'format' | 'parse'> & { helperText?: ReactNode; className?: string; sx?: SxProps<Theme> };

/** The label, helper text and error of a picker input, as react-admin's own inputs show them. */
function usePickerInput(props: PickerInputProps) {
  const resource = useResourceContext(props);
  const validate = [validTime, ...(Array.isArray(props.validate) ? props.validate : props.validate ? [props.validate] : [])];
  const input = useInput({ ...props, validate });
  const { fieldState, isRequired } = input;
  const error = fieldState.error?.message;
  const textField = {
    name: props.source,
    size: 'small' as const,
    error: Boolean(fieldState.error && (fieldState.isTouched || input.formState.isSubmitted)),
    helperText:
      props.helperText === false ? undefined : (
        <InputHelperText
          error={fieldState.error && (fieldState.isTouched || input.formState.isSubmitted) ? error : undefined}
          helperText={props.helperText}
        />
      ),
    onBlur: input.field.onBlur,
  };
  const label = <FieldTitle label={props.label} source={props.source} resource={resource} isRequired={isRequired} />;
  const [locale] = useLocaleState();
  return {
    ...input,
    label,
    textField,
    /** Around the picker: typed Persian digits as Latin ones. */
    onInputCapture: locale === 'fa' ? latinTyping : undefined,
    className: `ra-input ra-input-${props.source} ${props.className ?? ''}`,
  };
}

/** An instant picked in Tehran time (see the module's doc); the form value is ISO 8601 with Tehran's offset, or null. */
export function TehranDateTimeInput(props: PickerInputProps) {
  const { field, label, textField, className, onInputCapture } = usePickerInput(props);
  const value = field.value === INVALID ? new Date(Number.NaN) : toWallClock(field.value);
  return (
    <PickersProvider>
      <Box component="span" onInputCapture={onInputCapture} sx={{ display: 'contents' }}>
        <DateTimePicker
          className={className}
          label={label}
          value={value}
          ampm={false}
          // Date first, then the time, in every language (the Jalali adapter's own default puts the time first).
          format="yyyy/MM/dd HH:mm"
          disabled={props.disabled}
          onChange={(date) => field.onChange(date === null ? null : (fromWallClock(date) ?? INVALID))}
          slotProps={{ textField, field: { clearable: true } }}
          sx={props.sx}
        />
      </Box>
    </PickersProvider>
  );
}

/** A Tehran day picked in the calendar; the form value is `YYYY-MM-DD`, or null. */
export function TehranDayInput(props: PickerInputProps) {
  const { field, label, textField, className, onInputCapture } = usePickerInput(props);
  const value = field.value === INVALID ? new Date(Number.NaN) : dayToWallClock(field.value);
  return (
    <PickersProvider>
      <Box component="span" onInputCapture={onInputCapture} sx={{ display: 'contents' }}>
        <DatePicker
          className={className}
          format="yyyy/MM/dd"
          label={label}
          value={value}
          disabled={props.disabled}
          onChange={(date) => field.onChange(date === null ? null : (wallClockToDay(date) ?? INVALID))}
          slotProps={{ textField, field: { clearable: true } }}
          sx={props.sx}
        />
      </Box>
    </PickersProvider>
  );
}
