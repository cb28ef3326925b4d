/**
 * CSV of the admin exports (DESIGN §9; docs/admin-api.md "CSV export"): RFC 4180 (comma, CRLF, a field quoted when it
 * holds a quote, comma or line break, quotes doubled), UTF-8 with a byte order mark so a spreadsheet reads Persian text
 * as UTF-8, and cells made safe against formula injection (OWASP "CSV Injection"): a text cell that begins with
 * `=`, `+`, `-`, `@`, a tab or a carriage return is prefixed with `'`, so a spreadsheet shows it as text and never runs
 * it. Numbers and booleans the service wrote are left as they are. Each time column comes twice: ISO 8601 (UTC) and
 * its Jalali date with Tehran time (`<name>Jalali`, `1405/08/29 11:30:00`).
 */
import { jalaliDate, jalaliDateTime } from '@mathisland/core/calendar';

/** A row of a list as the API answers it. */
export type Row = Record<string, unknown>;

/** One column: its header and how a row's cell is read. */
export interface Column {
  header: string;
  value: (row: Row) => unknown;
}

/** The byte order mark that starts every export. */
export const BOM = '\uFEFF';

const FORMULA_START = /^[=+\-@\t\r]/;

/** A field of a row, by a dotted path (`subscription.planTitle`). */
const read = (row: Row, path: string): unknown =>
  path.split('.').reduce<unknown>((value, key) => (value && typeof value === 'object' ? (value as Row)[key] : undefined), row);

/** Column `field` (header: the field's path, or `header`). */
export const field = (path: string, header = path): Column => ({ header, value: (row) => read(row, path) });

/** Two columns for time `path` (an ISO time, or epoch ms): ISO 8601 and its Jalali date and Tehran time. */
export function time(path: string, header = path): Column[] {
  const ms = (row: Row) => {
    const value = read(row, path);
    const at = typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : Number.NaN;
    return Number.isFinite(at) ? at : undefined;
  };
  return [
    { header, value: (row) => (ms(row) === undefined ? null : new Date(ms(row) as number).toISOString()) },
    { header: `${header}Jalali`, value: (row) => (ms(row) === undefined ? null : jalaliDateTime(ms(row) as number)) },
  ];
}

/** Two columns for a Tehran day `path` (`YYYY-MM-DD`): as it is, and its Jalali date. */
export const day = (path: string): Column[] => [
  field(path),
  { header: `${path}Jalali`, value: (row) => (typeof read(row, path) === 'string' ? jalaliDate(read(row, path) as string) : null) },
];

/** A value as the text of its cell: empty for none, lists joined by `; `, objects as JSON, text made formula-safe. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const text = Array.isArray(value)
    ? value.map((v) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v))).join('; ')
    : typeof value === 'object'
      ? JSON.stringify(value)
      : String(value);
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** One CSV field: quoted when it holds a quote, a comma or a line break. */
const csvField = (text: string): string => (/[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);

/** The CSV line (CRLF-terminated) of `cells`. */
export const csvLine = (cells: readonly string[]): string => `${cells.map(csvField).join(',')}\r\n`;

/** The header line of `columns`. */
export const headerLine = (columns: readonly Column[]): string => csvLine(columns.map((c) => c.header));

/** The lines of `rows` under `columns`. */
export const rowLines = (columns: readonly Column[], rows: readonly Row[]): string =>
  rows.map((row) => csvLine(columns.map((c) => cellText(c.value(row))))).join('');
