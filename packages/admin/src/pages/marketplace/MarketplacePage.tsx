/**
 * The marketplace connection (DESIGN §8): the mode (static secret, OAuth or none), whether it is connected, and
 * the authorize window (`GET /api/admin/marketplace`). With `change_marketplacecredential` a button opens the
 * window (`POST /api/admin/marketplace/authorize-window` `{ hours }`, 1-720; empty: the API's default, 72; answers
 * `{ authorizeUrl, expiresAt }`), shows the authorize link and opens it in a new browser window, where the
 * marketplace asks the developer account to allow the app. A static secret needs no window (it takes precedence).
 * Below, the connection's history (`GET /api/admin/history?model=marketplacecredential&objectId=connection`): each
 * window opened, by whom, and each credential the owner's approval stored, on behalf of whoever opened that window.
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
import { useMutation, useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Title, useCanAccess } from 'react-admin';
import { type AuthorizeWindow, asciiDigits, type Marketplace } from '../../api/dataProvider';
import { formatTime } from '../../common/fields';
import { usePageTools } from '../../common/usePageTools';
import { fieldMax } from '../../common/validation';
import { intlLocale } from '../../i18n';
import { RecordHistory } from '../../resources/history/RecordHistory';

/** The longest authorize window the API opens, in hours. */
const MAX_HOURS = fieldMax('POST /api/admin/marketplace/authorize-window', 'hours');

export function MarketplacePage() {
  const { translate, errorText, locale, notify, queryClient, dataProvider } = usePageTools();
  const { canAccess: canView, isPending: viewPending } = useCanAccess({ resource: 'marketplace', action: 'list' });
  const { canAccess: canChange } = useCanAccess({ resource: 'marketplace', action: 'authorize' });
  const [hours, setHours] = useState('');
  const state = useQuery({ queryKey: ['marketplace'], queryFn: () => dataProvider.marketplace(), enabled: canView === true, retry: false });
  const open = useMutation({
    mutationFn: () => dataProvider.openAuthorizeWindow(hours.trim() ? Number(asciiDigits(hours)) : undefined),
    onSuccess: (answer: AuthorizeWindow) => {
      queryClient.setQueryData(['marketplace'], (old: Marketplace | undefined) =>
        old ? { ...old, window: { open: true, expiresAt: answer.expiresAt, authorizeUrl: answer.authorizeUrl } } : old,
      );
      void queryClient.invalidateQueries({ queryKey: ['marketplace'] });
      void queryClient.invalidateQueries({ queryKey: ['history'] });
      notify('app.marketplace.opened', { type: 'info' });
      window.open(answer.authorizeUrl, '_blank', 'noopener');
    },
    onError: (error: Error) => notify(error.message, { type: 'error' }),
  });
  const hoursNumber = Number(asciiDigits(hours));
  // Empty: the API's default window.
  const hoursValid = !hours.trim() || (/^[0-9]{1,3}$/.test(asciiDigits(hours.trim())) && hoursNumber >= 1 && hoursNumber <= MAX_HOURS);

  const until = (iso: string | null) => formatTime(iso, locale);

  let body: ReactNode;
  if (viewPending || state.isPending) body = <CircularProgress />;
  else if (!canView)
    body = <Alert severity="error">{translate('app.permission_missing', { permission: 'view_marketplacecredential' })}</Alert>;
  else if (state.error) body = <Alert severity="error">{errorText(state.error)}</Alert>;
  else {
    const m = state.data!;
    const link = m.window.authorizeUrl;
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
                {m.window.open
                  ? translate('app.marketplace.window_open', { until: until(m.window.expiresAt) })
                  : translate('app.marketplace.window_closed')}
              </TableCell>
            </TableRow>
          </TableBody>
        </Table>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 2, maxWidth: 560 }} data-testid="marketplace-mode-hint">
          {translate(`app.marketplace.mode_hint.${m.mode}`, { _: '' })}
        </Typography>
        {canChange ? (
          <Stack direction="row" spacing={2} sx={{ mt: 3, alignItems: 'center' }}>
            <TextField
              size="small"
              label={translate('app.marketplace.hours')}
              value={hours}
              onChange={(e) => setHours(e.target.value)}
              error={!hoursValid}
              helperText={translate('app.marketplace.hours_hint', { max: MAX_HOURS.toLocaleString(intlLocale(locale)) })}
              slotProps={{ htmlInput: { inputMode: 'numeric' } }}
            />
            <Button
              variant="contained"
              startIcon={<LinkIcon />}
              disabled={!hoursValid || open.isPending}
              onClick={() => open.mutate()}
              sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
            >
              {translate('app.marketplace.open_window')}
            </Button>
          </Stack>
        ) : null}
        {link && m.window.open ? (
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
        <Typography variant="h6" component="h2" sx={{ mt: 4 }}>
          {translate('app.tabs.history')}
        </Typography>
        <RecordHistory model="marketplacecredential" objectId="connection" />
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
