/**
 * The date and time inputs on Tehran time (DESIGN §9; `pickerInputs.tsx`), loaded when a form or filter first shows
 * one: MUI X's pickers with the Jalali and Gregorian date-fns are about 270 kB the lists and pages without a date
 * input never need, so they are a chunk of their own (React.lazy) rather than part of the panel's first download.
 *
 * - {@link TehranDateTimeInput}: an instant; the form holds ISO 8601 with Tehran's offset, or null.
 * - {@link TehranDayInput}: a Tehran day `YYYY-MM-DD` (the API's day filters: from, to).
 */
import { lazy, Suspense } from 'react';
import type { PickerInputProps } from './pickerInputs';

const LazyDateTime = lazy(() => import('./pickerInputs').then((m) => ({ default: m.TehranDateTimeInput })));
const LazyDay = lazy(() => import('./pickerInputs').then((m) => ({ default: m.TehranDayInput })));

/** An instant picked in Tehran time, whatever the browser's zone. */
export const TehranDateTimeInput = (props: PickerInputProps) => (
  <Suspense fallback={null}>
    <LazyDateTime {...props} />
  </Suspense>
);

/** A Tehran day picked in the calendar. */
export const TehranDayInput = (props: PickerInputProps) => (
  <Suspense fallback={null}>
    <LazyDay {...props} />
  </Suspense>
);
