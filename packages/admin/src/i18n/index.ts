/**
 * Persian (default, right to left) and English, switchable from the app bar. Persian messages are
 * ra-language-farsi over ra-language-english (so a key the Persian pack lacks reads in English, never as a
 * raw key), then this panel's own labels. `onLocaleChange` lets the app turn the page's direction.
 */
import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from 'ra-language-english';
import farsiMessages from 'ra-language-farsi';
import type { I18nProvider, TranslationMessages } from 'react-admin';
import { en } from './en';
import { fa } from './fa';

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

const messages = {
  fa: deepMerge(englishMessages as Messages, farsiMessages as Messages, fa),
  en: deepMerge(englishMessages as Messages, en),
} as unknown as Record<Locale, TranslationMessages>;

export const directionOf = (locale: string): 'rtl' | 'ltr' => (locale === 'fa' ? 'rtl' : 'ltr');

/** The Intl locale of dates and numbers: the Persian (Jalali) calendar in Persian. */
export const intlLocale = (locale: string): string => (locale === 'fa' ? 'fa-IR-u-ca-persian' : 'en-GB');

export function createI18nProvider(onLocaleChange: (locale: Locale) => void): I18nProvider {
  const base = polyglotI18nProvider(
    (locale) => messages[(locale as Locale) in messages ? (locale as Locale) : DEFAULT_LOCALE],
    DEFAULT_LOCALE,
    [
      { locale: 'fa', name: 'فارسی' },
      { locale: 'en', name: 'English' },
    ],
  );
  return {
    ...base,
    changeLocale: async (locale, options) => {
      await base.changeLocale(locale, options);
      onLocaleChange(locale as Locale);
    },
  };
}
