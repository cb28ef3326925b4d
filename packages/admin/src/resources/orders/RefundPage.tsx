/**
 * The refund confirmation page, `/orders/:id/refund` (spec: "refund a paid order (with a confirmation page)").
 *
 * It reads `GET /api/admin/orders/{id}/refund` (what the refund will take back: the days off the buyer's
 * subscription, the end date before and after, the referrer's commission) and shows it; Confirm POSTs
 * `{ confirm: true }` and then shows what was done (days taken back, commission reversed). The preview needs only
 * `view_order` (the API's rule), so a staff member without `change_order` still sees what a refund would take back;
 * the page then says which permission is missing and offers no Confirm. A refusal by the API (403, 409) is shown on
 * the page as the API worded it, and without the preview there is nothing to confirm.
 */
import UndoIcon from '@mui/icons-material/Undo';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableRow,
  Typography,
} from '@mui/material';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Title, useCanAccess, useGetOne } from 'react-admin';
import { Link, useParams } from 'react-router-dom';
import { formatMoney, formatTime } from '../../common/fields';
import { usePageTools } from '../../common/usePageTools';
import { intlLocale } from '../../i18n';

function Row({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <TableRow>
      <TableCell component="th" sx={{ fontWeight: 600, width: '45%' }}>
        {label}
      </TableCell>
      <TableCell data-testid={testId}>{children}</TableCell>
    </TableRow>
  );
}

export function RefundPage() {
  const { id = '' } = useParams();
  const { translate, errorText, locale, notify, queryClient, dataProvider } = usePageTools();
  const { canAccess, isPending: accessPending } = useCanAccess({ resource: 'orders', action: 'refund' });
  const order = useGetOne('orders', { id });
  const preview = useQuery({
    queryKey: ['orders', 'refund-preview', id],
    queryFn: () => dataProvider.refundPreview(id),
    enabled: order.data?.status === 'paid',
    retry: false,
  });
  const refund = useMutation({
    mutationFn: () => dataProvider.refundOrder(id),
    onSuccess: () => {
      notify('app.refund.done', { type: 'info' });
      void queryClient.invalidateQueries({ queryKey: ['orders'] });
    },
  });

  const number = (n: number) => n.toLocaleString(intlLocale(locale));
  const days = (n: number) => translate('app.days', { smart_count: n, days: number(n) });
  const money = (n: number) => formatMoney(n, locale, translate('app.toman'));
  const time = (iso: string | null) => formatTime(iso, locale);

  let body: ReactNode;
  if (order.isPending || accessPending) body = <CircularProgress />;
  else if (order.error) body = <Alert severity="error">{errorText(order.error)}</Alert>;
  else if (refund.data) {
    const done = refund.data;
    body = (
      <>
        <Alert severity="success" data-testid="refund-done" sx={{ mb: 2 }}>
          {translate('app.refund.done')}
        </Alert>
        <Table size="small">
          <TableBody>
            <Row label={translate('app.refund.days_taken_back')} testId="days-taken-back">
              {days(done.daysTakenBack)}
            </Row>
            <Row label={translate('app.refund.commission_reversed')} testId="commission-reversed">
              {money(done.commissionReversed ?? 0)}
            </Row>
            <Row label={translate('resources.orders.fields.status')}>
              {translate(`choices.status.${done.status}`, { _: String(done.status) })}
            </Row>
          </TableBody>
        </Table>
      </>
    );
  } else if (order.data?.status !== 'paid')
    body = (
      <Alert severity="warning" data-testid="refund-not-paid">
        {translate('app.refund.not_paid', { status: translate(`choices.status.${order.data?.status}`, { _: String(order.data?.status) }) })}
      </Alert>
    );
  else {
    const p = preview.data;
    const previewError = preview.error as (Error & { status?: number }) | null;
    body = (
      <>
        <Typography sx={{ mb: 1 }}>{translate('app.refund.intro')}</Typography>
        {preview.isPending ? (
          <CircularProgress size={24} />
        ) : p ? (
          <Table size="small" data-testid="refund-preview">
            <TableBody>
              <Row label={translate('resources.orders.fields.userPublicId')}>
                <bdi>{p.userPublicId ?? p.userId}</bdi>
              </Row>
              <Row label={translate('resources.orders.fields.planTitle')}>{p.planTitle}</Row>
              <Row label={translate('app.refund.amount')}>{money(p.amount)}</Row>
              <Row label={translate('app.refund.days')} testId="preview-days">
                {days(p.days)}
              </Row>
              <Row label={translate('app.refund.expires_before')}>{time(p.subscriptionExpiresAt.before)}</Row>
              <Row label={translate('app.refund.expires_after')}>{time(p.subscriptionExpiresAt.after)}</Row>
              <Row label={translate('app.refund.commission')} testId="preview-commission">
                {p.commission
                  ? `${money(p.commission.amount)} (${translate('app.refund.referrer')}: ${p.commission.referrerPublicId ?? p.commission.referrerId})`
                  : translate('app.refund.commission_none')}
              </Row>
            </TableBody>
          </Table>
        ) : (
          <Alert severity="error" data-testid="refund-preview-unavailable">
            {translate('app.refund.preview_unavailable', { error: errorText(previewError) })}
          </Alert>
        )}
        {refund.error ? (
          <Alert severity="error" sx={{ mt: 2 }} data-testid="refund-refused">
            {translate('app.refund.refused', { error: errorText(refund.error) })}
          </Alert>
        ) : null}
        {canAccess ? (
          <Stack direction="row" spacing={2} sx={{ mt: 3 }}>
            <Button
              variant="contained"
              color="warning"
              startIcon={<UndoIcon />}
              disabled={refund.isPending || !p}
              onClick={() => refund.mutate()}
              data-testid="confirm-refund"
            >
              {translate('app.refund.confirm')}
            </Button>
          </Stack>
        ) : (
          <Alert severity="error" sx={{ mt: 2 }} data-testid="refund-refused">
            {translate('app.permission_missing', { permission: 'change_order' })}
          </Alert>
        )}
      </>
    );
  }

  return (
    <Card sx={{ mt: 2, maxWidth: 720 }}>
      <Title title={translate('app.refund.title', { id })} />
      <CardContent>
        <Typography variant="h5" component="h1" gutterBottom>
          {translate('app.refund.title', { id })}
        </Typography>
        {body}
        <Box sx={{ mt: 3 }}>
          <Button component={Link} to={`/orders/${id}/show`}>
            {translate('app.refund.back')}
          </Button>
        </Box>
      </CardContent>
    </Card>
  );
}
