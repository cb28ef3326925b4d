/**
 * The marketplace purchase on an order's page (docs/admin-api.md `StaffOrder.marketplace`): the period the
 * marketplace sold (this order's, and the subscription's current one), the purchase token's digest prefix (never the
 * token), the renewal state and the marketplace's last answer, so the money of a marketplace order reads in one
 * place. Shown only when a marketplace purchase paid the order.
 */
import { Box, Table, TableBody, TableCell, TableRow, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useLocaleState, useRecordContext, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { formatTime } from '../../common/fields';
import { intlLocale } from '../../i18n';

interface StoreAnswer {
  at: string | null;
  outcome: 'valid' | 'not_found';
  httpStatus: number;
  validUntil: string | null;
  autoRenewing: boolean | null;
}

export function OrderMarketplace() {
  const record = useRecordContext();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const purchase = record?.marketplace;
  if (!record || !purchase) return null;
  const t = (key: string, options?: Record<string, unknown>) => translate(`app.orders.marketplace.${key}`, options);
  const number = (n: number) => n.toLocaleString(intlLocale(locale));
  const yesNo = (value: boolean | null) => (value === null ? '—' : t(value ? 'yes' : 'no'));
  const choice = (group: string, value: string | null) => (value ? translate(`choices.${group}.${value}`, { _: value }) : '—');
  const answer = purchase.lastAnswer as StoreAnswer | null;
  // A subscription's renewals, or an in-app product's refund watch: both are the marketplace's checks.
  const checks = purchase.renewalState ?? purchase.refundWatch ?? null;
  const rows: Array<[string, ReactNode]> = [
    ['token', <code key="token" dir="ltr">{`${purchase.tokenDigestPrefix}…`}</code>],
    ['productType', choice('productType', purchase.productType)],
    ['orderPeriod', formatTime(record.validUntil, locale)],
    ['validUntil', formatTime(purchase.validUntil, locale)],
    ['autoRenewing', yesNo(purchase.autoRenewing)],
    [
      'renewalState',
      purchase.endedReason
        ? `${choice('renewalState', checks)} (${choice('endedReason', purchase.endedReason)}, ${formatTime(purchase.endedAt, locale)})`
        : choice('renewalState', checks),
    ],
    [
      'periods',
      <span key="periods">
        {number(purchase.periods)} — {t('current_order')}{' '}
        <Link to={`/orders/${purchase.lastOrderId}/show`}>#{number(purchase.lastOrderId)}</Link>
      </span>,
    ],
    ['nextCheckAt', formatTime(purchase.nextCheckAt, locale)],
    [
      'lastAnswer',
      answer
        ? t('answer', {
            outcome: choice('storeAnswer', answer.outcome),
            status: number(answer.httpStatus),
            at: formatTime(answer.at, locale),
            until: answer.validUntil ? t('answer_until', { until: formatTime(answer.validUntil, locale) }) : '',
            renews: answer.autoRenewing === null ? '' : t(answer.autoRenewing ? 'answer_renews' : 'answer_stops'),
          })
        : '—',
    ],
  ];
  return (
    <Box sx={{ mt: 2 }} data-testid="order-marketplace">
      <Typography variant="h6">{t('title')}</Typography>
      <Table size="small" sx={{ maxWidth: 820 }}>
        <TableBody>
          {rows.map(([key, value]) => (
            <TableRow key={key}>
              <TableCell component="th" scope="row" sx={{ fontWeight: 600, width: 240 }}>
                {t(key)}
              </TableCell>
              <TableCell>{value}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}
