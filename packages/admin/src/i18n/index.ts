/**
 * Persian (default, right to left) and English, switchable from the app bar. Persian messages are
 * ra-language-farsi over ra-language-english (so a key the Persian pack lacks reads in English, never as a
 * raw key), then this panel's own labels. `onLocaleChange` lets the app turn the page's direction.
 */
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import farsiMessages from 'ra-language-farsi';
import type { I18nProvider, TranslationMessages } from 'react-admin';
import { perPermission } from '../api/contract';
import { pick } from './bilingual';
import { choices } from './choices';
import { panel } from './panel';
import { resources } from './resources';
import { toolMessages } from './tools';

export type Locale = 'fa' | 'en';
export const DEFAULT_LOCALE: Locale = 'fa';

type Messages = Record<string, unknown>;

function deepMerge(...sources: Messages[]): Messages {
  const out: Messages = {};
  for (const source of sources) {
    for (const [key, value] of Object.entries(source)) {
      const prev = out[key];
      out[key] =
        value && typeof value === 'object' && prev && typeof prev === 'object' ? deepMerge(prev as Messages, value as Messages) : value;
    }
  }
  return out;
}

/** A refusal naming a permission, for every permission of the API description. */
const permissionDenied = {
  fa: perPermission((p) => `برای این کار مجوز «${p}» لازم است.`),
  en: perPermission((p) => `This needs the “${p}” permission.`),
};

/** The panel's messages in `locale`, over react-admin's own (Persian: ra-language-farsi over the English pack). */
export function messagesOf(locale: Locale): Messages {
  return deepMerge(
    englishMessages as Messages,
    locale === 'fa' ? (farsiMessages as Messages) : {},
    pick(panel, locale),
    {
      resources: pick(resources, locale),
      choices: pick(choices, locale),
      app: { errors: { permission_denied: permissionDenied[locale] } },
    },
    toolMessages(locale),
  );
}

const messages = { fa: messagesOf('fa'), en: messagesOf('en') } as unknown as Record<Locale, TranslationMessages>;

export const directionOf = (locale: string): 'rtl' | 'ltr' => (locale === 'fa' ? 'rtl' : 'ltr');

/** The Intl locale of dates and numbers: the Persian (Jalali) calendar in Persian. */
export const intlLocale = (locale: string): string => (locale === 'fa' ? 'fa-IR-u-ca-persian' : 'en-GB');

/** A number in the locale's digits (Persian digits in Persian), with its grouping unless `grouping` is false. */
export const formatNumber = (n: number, locale: string, grouping = true): string =>
  n.toLocaleString(intlLocale(locale), { useGrouping: grouping, maximumFractionDigits: 2 });

/**
 * `text` with its ASCII digits in the locale's (Persian digits in Persian), every other character kept: for digit
 * strings that are not numbers, like a phone number (`09121234567` → `۰۹۱۲۱۲۳۴۵۶۷`) or a masked one.
 */
export const formatDigits = (text: string, locale: string): string =>
  locale === 'fa' ? text.replace(/[0-9]/g, (d) => String.fromCharCode(0x06f0 + Number(d))) : text;

/**
 * The translations. A number put into a message (`%{offsetBegin}` of the pagination bar, `%{smart_count}` of "3 items
 * selected") is written in the locale's digits: polyglot's interpolation goes through `replace` below, so the number
 * stays a number for the plural rules.
 */
export function createI18nProvider(onLocaleChange: (locale: Locale) => void): I18nProvider {
  let current: string = DEFAULT_LOCALE;
  function replace(this: string, pattern: RegExp, value: (...args: any[]) => unknown): string {
    return String.prototype.replace.call(this, pattern, (...args: any[]) => {
      const out = value(...args);
      // Without grouping: such a number is as often an id (order #1234) as a count.
      return typeof out === 'number' ? formatNumber(out, current, false) : String(out);
    });
  }
  const base = polyglotI18nProvider(
    (locale) => messages[(locale as Locale) in messages ? (locale as Locale) : DEFAULT_LOCALE],
    DEFAULT_LOCALE,
    [
      { locale: 'fa', name: 'فارسی' },
      { locale: 'en', name: 'English' },
    ],
    { replace },
  );
  return {
    ...base,
    changeLocale: async (locale, options) => {
      await base.changeLocale(locale, options);
      current = locale;
      onLocaleChange(locale as Locale);
    },
  };
}
