/** What a page of staff actions uses: translations, the words of an error, the locale, notifications, the caches and the API. */
import { useQueryClient } from '@tanstack/react-query';
import { useDataProvider, useLocaleState, useNotify, useTranslate } from 'react-admin';
import type { AdminDataProvider } from '../api/dataProvider';
import { useErrorText } from './fields';

export function usePageTools() {
  const [locale] = useLocaleState();
  return {
    translate: useTranslate(),
    errorText: useErrorText(),
    locale,
    notify: useNotify(),
    queryClient: useQueryClient(),
    dataProvider: useDataProvider<AdminDataProvider>(),
  };
}
