/**
 * What a history entry changed (`changes: { <field>: [before, after] | "changed" }`, docs/admin-api.md "History"): each
 * field by its translated name, before → after in the panel's words (times in Tehran time, numbers in the panel's
 * digits, yes/no), a secret field only as "changed".
 */
import { Box, Typography } from '@mui/material';
import { useLocaleState, useRecordContext, useTranslate } from 'react-admin';
import { formatTime } from '../../common/fields';
import { formatNumber } from '../../i18n';

/** The react-admin resource of each history model (its field names and its pages). */
export const RESOURCE_OF_MODEL: Record<string, string> = {
  user: 'users',
  order: 'orders',
  paymentevent: 'payment-events',
  plan: 'plans',
  discountcode: 'discount-codes',
  offer: 'offers',
  ticket: 'tickets',
  notification: 'notifications',
  staff: 'staff',
  session: 'sessions',
  otprecord: 'otp-records',
  // A page, not a resource: its fields' names only (the history links no page to it).
  marketplacecredential: 'marketplace',
};

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** One value of a change, in the panel's words. */
function useValueText(): (value: unknown) => string {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const text = (value: unknown): string => {
    if (value === null || value === undefined || value === '') return '—';
    if (typeof value === 'boolean') return translate(value ? 'app.yes' : 'app.no');
    if (typeof value === 'number') return formatNumber(value, locale);
    if (typeof value === 'string') return ISO_TIME.test(value) ? formatTime(value, locale) : value;
    if (Array.isArray(value)) return value.length ? value.map(text).join('، ') : '—';
    return JSON.stringify(value);
  };
  return text;
}

/** The changes of the entry in the record context, one line a field. */
export function Changes() {
  const record = useRecordContext();
  const translate = useTranslate();
  const text = useValueText();
  const [locale] = useLocaleState();
  const arrow = locale === 'fa' ? '←' : '→';
  const changes = (record?.changes ?? {}) as Record<string, unknown>;
  const resource = RESOURCE_OF_MODEL[record?.model as string];
  const fields = Object.entries(changes);
  if (fields.length === 0) return null;
  return (
    <Box component="ul" sx={{ m: 0, p: 0, listStyle: 'none' }} data-testid="history-changes">
      {fields.map(([field, change]) => (
        <Typography component="li" variant="body2" key={field}>
          <b>{resource ? translate(`resources.${resource}.fields.${field}`, { _: field }) : field}</b>:{' '}
          {Array.isArray(change) ? `${text(change[0])} ${arrow} ${text(change[1])}` : translate('app.history.changed')}
        </Typography>
      ))}
    </Box>
  );
}
