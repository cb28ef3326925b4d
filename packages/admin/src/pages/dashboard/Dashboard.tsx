/**
 * The dashboard: today's sign-ins, new users, orders, paid orders and revenue (`GET /api/admin/dashboard`,
 * Tehran's day), and the charts of the last 30 Tehran days (`DashboardCharts.tsx`). Every signed-in staff member sees
 * it.
 */
import { Alert, Card, CardContent, Grid, Skeleton, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { Title, useDataProvider, useGetIdentity, useLocaleState, useTranslate } from 'react-admin';
import type { AdminDataProvider, Dashboard as DashboardData } from '../../api/dataProvider';
import { formatDay, formatMoney, useErrorText } from '../../common/fields';
import { intlLocale } from '../../i18n';

const DashboardCharts = lazy(() => import('./DashboardCharts'));

const FIGURES: (keyof Omit<DashboardData, 'day'>)[] = ['signIns', 'newUsers', 'orders', 'paidOrders', 'revenue'];

export function Dashboard() {
  const translate = useTranslate();
  const errorText = useErrorText();
  const [locale] = useLocaleState();
  const { identity } = useGetIdentity();
  const dataProvider = useDataProvider<AdminDataProvider>();
  const { data, error, isPending } = useQuery({ queryKey: ['dashboard'], queryFn: () => dataProvider.dashboard(), retry: false });
  const show = (key: (typeof FIGURES)[number], value: number) =>
    key === 'revenue' ? formatMoney(value, locale, translate('app.toman')) : value.toLocaleString(intlLocale(locale));
  return (
    <>
      <Title title={translate('app.dashboard.title')} />
      <Typography variant="h5" component="h1" sx={{ mt: 2, mb: 1 }}>
        {identity ? translate('app.dashboard.welcome', { name: identity.fullName }) : translate('app.dashboard.title')}
      </Typography>
      {data ? (
        <Typography color="text.secondary" sx={{ mb: 2 }} data-testid="dashboard-day">
          {translate('app.dashboard.today', { day: formatDay(data.day, locale) })}
        </Typography>
      ) : null}
      {error ? (
        <Alert severity="info" data-testid="dashboard-unavailable">
          {translate('app.dashboard.unavailable', { error: errorText(error) })}
        </Alert>
      ) : (
        <Grid container spacing={2}>
          {FIGURES.map((key) => (
            <Grid key={key} size={{ xs: 12, sm: 6, md: 4, lg: 2.4 }}>
              <Card data-testid={`dashboard-${key}`}>
                <CardContent>
                  <Typography color="text.secondary" gutterBottom>
                    {translate(`app.dashboard.${key}`)}
                  </Typography>
                  <Typography variant="h4" component="p">
                    {isPending || !data ? <Skeleton width="60%" /> : show(key, data[key])}
                  </Typography>
                </CardContent>
              </Card>
            </Grid>
          ))}
        </Grid>
      )}
      <Suspense fallback={<Skeleton variant="rectangular" height={360} sx={{ mt: 2 }} />}>
        <DashboardCharts />
      </Suspense>
    </>
  );
}
