/**
 * Date and time pickers on Tehran time (DESIGN §9): MUI X's pickers, in the Jalali calendar with Persian digits in
 * Persian (date-fns-jalali) and the Gregorian one in English, as react-admin inputs.
 *
 * - {@link PickersProvider}: the pickers' calendar and words, following the panel's language.
 * - {@link TehranDateTimeInput}: an instant; the form holds ISO 8601 with Tehran's offset (or null: empty), and the
 *   picker shows and takes Tehran's wall clock whatever the browser's zone (`tehranTime.ts`).
 * - {@link TehranDayInput}: a Tehran day `YYYY-MM-DD` (the API's day filters: from, to).
 */

import type { SxProps, Theme } from '@mui/material';
import { AdapterDateFns } from '@mui/x-date-pickers/AdapterDateFns';
import { AdapterDateFnsJalali } from '@mui/x-date-pickers/AdapterDateFnsJalali';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { DateTimePicker } from '@mui/x-date-pickers/DateTimePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { enUS as enPickers, faIR as faPickers } from '@mui/x-date-pickers/locales';
import { enGB } from 'date-fns/locale/en-GB';
import { faIR } from 'date-fns-jalali/locale/fa-IR';
import type { ReactNode } from 'react';
import { FieldTitle, InputHelperText, type InputProps, useInput, useLocaleState, useResourceContext } from 'react-admin';
import { dayToWallClock, fromWallClock, toWallClock, wallClockToDay } from './tehranTime';

/** The pickers' adapter, calendar locale and words for the panel's language. */
export function PickersProvider({ children }: { children: ReactNode }) {
  const [locale] = useLocaleState();
  const persian = locale === 'fa';
  return (
    <LocalizationProvider
      dateAdapter={persian ? AdapterDateFnsJalali : AdapterDateFns}
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

type PickerInputProps = Omit<InputProps, 'format' | 'parse'> & { helperText?: ReactNode; className?: string; sx?: SxProps<Theme> };

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
  return { ...input, label, textField, className: `ra-input ra-input-${props.source} ${props.className ?? ''}` };
}

/** An instant picked in Tehran time (see the module's doc); the form value is ISO 8601 with Tehran's offset, or null. */
export function TehranDateTimeInput(props: PickerInputProps) {
  const { field, label, textField, className } = usePickerInput(props);
  const value = field.value === INVALID ? new Date(Number.NaN) : toWallClock(field.value);
  return (
    <DateTimePicker
      className={className}
      label={label}
      value={value}
      ampm={false}
      disabled={props.disabled}
      onChange={(date) => field.onChange(date === null ? null : (fromWallClock(date) ?? INVALID))}
      slotProps={{ textField, field: { clearable: true } }}
      sx={props.sx}
    />
  );
}

/** A Tehran day picked in the calendar; the form value is `YYYY-MM-DD`, or null. */
export function TehranDayInput(props: PickerInputProps) {
  const { field, label, textField, className } = usePickerInput(props);
  const value = field.value === INVALID ? new Date(Number.NaN) : dayToWallClock(field.value);
  return (
    <DatePicker
      className={className}
      label={label}
      value={value}
      disabled={props.disabled}
      onChange={(date) => field.onChange(date === null ? null : (wallClockToDay(date) ?? INVALID))}
      slotProps={{ textField, field: { clearable: true } }}
      sx={props.sx}
    />
  );
}
