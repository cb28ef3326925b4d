/**
 * Compact column and field lists for lists and show pages: `columns(id('id'), 'title', money('price'), num('days'))`
 * and `fields(...)` with the same specs, so a screen says which fields it shows and how, one short spec each (a plain
 * string is a text). A spec may also be an element, placed as it is.
 */
import { type ComponentType, isValidElement, type ReactElement } from 'react';
import { BooleanField, type SimpleListProps, TextField } from 'react-admin';
import { ChoiceField, DateTime, IdField, Money, Num, PhoneField, StatusChip } from './fields';
import { Col } from './list';

export interface Spec {
  source: string;
  Field: ComponentType<any>;
  props?: Record<string, unknown>;
}
type SpecLike = string | Spec | ReactElement;

/** A spec maker for `Field`: `spec(DayField)('streak.lastDay', { emptyText: '—' })`. */
export const spec =
  (Field: ComponentType<any>) =>
  (source: string, props?: Record<string, unknown>): Spec => ({ source, Field, props });

export const text = spec(TextField);
export const num = spec(Num);
export const id = spec(IdField);
/** A phone number in the panel's digits, left to right. */
export const phone = spec(PhoneField);
export const money = spec(Money);
export const time = spec(DateTime);
export const bool = spec(BooleanField);
/** A value of one of the API's enums, translated (`choices.<group>.<value>`). */
export const choice = (source: string, group: string, props?: Record<string, unknown>) => spec(ChoiceField)(source, { group, ...props });
/** A status as a coloured chip; empty shows `emptyText` when given (a show page's "—"), else nothing. */
export const status = (source: string, group: string, props?: Record<string, unknown>) => spec(StatusChip)(source, { group, ...props });

const toSpec = (s: string | Spec): Spec => (typeof s === 'string' ? text(s) : s);

const element = (s: SpecLike): ReactElement => {
  if (isValidElement(s)) return s;
  const { source, Field, props } = toSpec(s as string | Spec);
  return <Field source={source} {...props} />;
};

/**
 * A phone's compact row (react-admin's SimpleList): its primary, secondary and tertiary texts, and its row click. The
 * tertiary text is at the row's end, beside the primary one: SimpleList wraps only a text or function in its own
 * `RaSimpleList-tertiary` span (floated to the end, dimmed), so an element gets that span here.
 */
export const phoneRow = (
  rowClick: SimpleListProps['rowClick'],
  primary: SpecLike,
  secondary: SpecLike,
  tertiary?: SpecLike,
): SimpleListProps => ({
  primaryText: element(primary),
  secondaryText: element(secondary),
  ...(tertiary ? { tertiaryText: <span className="RaSimpleList-tertiary">{element(tertiary)}</span> } : {}),
  rowClick,
});

/** Table columns of `specs` (DataTable). */
export const columns = (...specs: SpecLike[]): ReactElement[] =>
  specs.map((s) => {
    if (isValidElement(s)) return s;
    const { source, Field, props } = toSpec(s as string | Spec);
    return <Col key={source} source={source} field={props ? (p: any) => <Field {...p} {...props} /> : Field} />;
  });

/** Show-page fields of `specs` (SimpleShowLayout, a tab). */
export const fields = (...specs: SpecLike[]): ReactElement[] =>
  specs.map((s) => {
    if (isValidElement(s)) return s;
    const { source, Field, props } = toSpec(s as string | Spec);
    return <Field key={source} source={source} {...props} />;
  });
