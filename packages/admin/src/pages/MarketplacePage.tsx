/**
 * The marketplace connection (DESIGN §8): the mode (static secret, OAuth or none), whether it is connected, and
 * the authorize window. With `change_marketplacecredential` a button opens the window
 * (`POST /api/admin/marketplace/authorize-window` `{ hours }`), shows the authorize link and opens it in a new
 * browser window, where the marketplace asks the developer account to allow the app.
 */
import LinkIcon from '@mui/icons-material/Link';
import {
  Alert,
  Button,
  Card,
  CardContent,
  CircularProgress,
  Link,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Title, useCanAccess, useDataProvider, useLocaleState, useNotify, useTranslate } from 'react-admin';
import type { AdminDataProvider, Marketplace } from '../dataProvider';
import { TEHRAN } from '../fields';
import { intlLocale } from '../i18n';

export function MarketplacePage() {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const dataProvider = useDataProvider<AdminDataProvider>();
  const { canAccess: canView, isPending: viewPending } = useCanAccess({ resource: 'marketplace', action: 'show' });
  const { canAccess: canChange } = useCanAccess({ resource: 'marketplace', action: 'authorize' });
  const [hours, setHours] = useState('1');
  const state = useQuery({ queryKey: ['marketplace'], queryFn: () => dataProvider.marketplace(), enabled: canView === true, retry: false });
  const open = useMutation({
    mutationFn: () => dataProvider.openAuthorizeWindow(Number(hours) || undefined),
    onSuccess: (answer: Marketplace | { authorizeUrl: string; expiresAt: string }) => {
      // The contract answers the connection's state; DESIGN §8 just `{ authorizeUrl, expiresAt }`: take either.
      const url = 'authorizeUrl' in answer ? answer.authorizeUrl : answer.window?.authorizeUrl;
      if ('mode' in answer) queryClient.setQueryData(['marketplace'], answer);
      else {
        queryClient.setQueryData(['marketplace'], (old: Marketplace | undefined) =>
          old ? { ...old, window: { open: true, expiresAt: answer.expiresAt, authorizeUrl: answer.authorizeUrl } } : old,
        );
        void queryClient.invalidateQueries({ queryKey: ['marketplace'] });
      }
      notify('app.marketplace.opened', { type: 'info' });
      if (url) window.open(url, '_blank', 'noopener');
    },
    onError: (error: Error) => notify(error.message, { type: 'error' }),
  });
  const hoursValid = /^[0-9]{1,3}$/.test(hours) && Number(hours) >= 1;

  const until = (iso: string | null | undefined) =>
    iso ? new Date(iso).toLocaleString(intlLocale(locale), { timeZone: TEHRAN, dateStyle: 'medium', timeStyle: 'short' }) : '';

  let body: ReactNode;
  if (viewPending || state.isPending) body = <CircularProgress />;
  else if (!canView)
    body = <Alert severity="error">{translate('app.permission_missing', { permission: 'view_marketplacecredential' })}</Alert>;
  else if (state.error) body = <Alert severity="error">{(state.error as Error).message}</Alert>;
  else {
    const m = state.data!;
    const link = m.window?.authorizeUrl;
    body = (
      <>
        <Table size="small" sx={{ maxWidth: 560 }}>
          <TableBody>
            <TableRow>
              <TableCell component="th">{translate('app.marketplace.mode')}</TableCell>
              <TableCell data-testid="marketplace-mode">{translate(`choices.mode.${m.mode}`, { _: m.mode })}</TableCell>
            </TableRow>
            <TableRow>
              <TableCell component="th">{translate('app.marketplace.connected')}</TableCell>
              <TableCell>{translate(m.connected ? 'app.yes' : 'app.no')}</TableCell>
            </TableRow>
            <TableRow>
              <TableCell component="th">{translate('app.marketplace.window')}</TableCell>
              <TableCell>
                {m.window?.open
                  ? translate('app.marketplace.window_open', { until: until(m.window.expiresAt) })
                  : translate('app.marketplace.window_closed')}
              </TableCell>
            </TableRow>
          </TableBody>
        </Table>
        {canChange ? (
          <Stack direction="row" spacing={2} sx={{ mt: 3, alignItems: 'center' }}>
            <TextField
              size="small"
              label={translate('app.marketplace.hours')}
              value={hours}
              onChange={(e) => setHours(e.target.value)}
              error={!hoursValid}
              slotProps={{ htmlInput: { inputMode: 'numeric' } }}
            />
            <Button variant="contained" startIcon={<LinkIcon />} disabled={!hoursValid || open.isPending} onClick={() => open.mutate()}>
              {translate('app.marketplace.open_window')}
            </Button>
          </Stack>
        ) : null}
        {link && m.window?.open ? (
          <Alert severity="info" sx={{ mt: 3 }}>
            <Typography sx={{ fontWeight: 600 }}>{translate('app.marketplace.link')}</Typography>
            <Link
              href={link}
              target="_blank"
              rel="noopener"
              sx={{ direction: 'ltr', display: 'inline-block', wordBreak: 'break-all' }}
              data-testid="authorize-link"
            >
              {link}
            </Link>
            <Typography variant="body2" sx={{ mt: 1 }}>
              {translate('app.marketplace.link_hint')}
            </Typography>
          </Alert>
        ) : null}
      </>
    );
  }
  return (
    <Card sx={{ mt: 2 }}>
      <Title title={translate('app.marketplace.title')} />
      <CardContent>
        <Typography variant="h5" component="h1" gutterBottom>
          {translate('app.marketplace.title')}
        </Typography>
        {body}
      </CardContent>
    </Card>
  );
}
