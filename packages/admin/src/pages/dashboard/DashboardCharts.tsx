/**
 * The dashboard's charts of the last 30 Tehran days (`GET /api/admin/stats?days=30`, oldest first): sign-ins, new
 * users, orders and paid orders as lines, revenue in toman as bars, with MUI X Charts. Days read in the Jalali calendar
 * in Persian (axis labels like «۵ آذر»), every number in the panel's digits; right to left, the oldest day is at the
 * right. Loaded as its own chunk (the charts library is large and only the dashboard needs it).
 */
import { Alert, Card, CardContent, Grid, Skeleton, Typography } from '@mui/material';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useLocaleState, useTranslate } from 'react-admin';
import type { AdminDataProvider } from '../../api/dataProvider';
import { formatMoney, useErrorText } from '../../common/fields';
import { formatNumber, intlLocale } from '../../i18n';

/** How many Tehran days the charts show. */
export const CHART_DAYS = 30;

const COUNTS = ['signIns', 'newUsers', 'orders', 'paidOrders'] as const;

/** A Tehran day `YYYY-MM-DD` as an axis label: day and month in the locale's calendar (`۵ آذر`). */
const dayLabel = (day: string, locale: string) =>
  new Date(`${day}T12:00:00Z`).toLocaleDateString(intlLocale(locale), { timeZone: 'UTC', day: 'numeric', month: 'short' });

export default function DashboardCharts() {
  const translate = useTranslate();
  const errorText = useErrorText();
  const [locale] = useLocaleState();
  const dataProvider = useDataProvider<AdminDataProvider>();
  const { data, error } = useQuery({ queryKey: ['stats', CHART_DAYS], queryFn: () => dataProvider.stats(CHART_DAYS), retry: false });
  if (error) return <Alert severity="info">{translate('app.charts.unavailable', { error: errorText(error) })}</Alert>;
  const rtl = locale === 'fa';
  const days = data?.days ?? [];
  const xAxis = [
    {
      scaleType: 'band' as const,
      // Room for a Persian label's height (a shorter axis ellipsizes every label away).
      height: 40,
      data: days.map((d) => d.day),
      valueFormatter: (day: string) => dayLabel(day, locale),
      // A label every fifth day, today's included, so 30 labels never crowd each other out.
      tickLabelInterval: (_day: string, index: number) => (days.length - 1 - index) % 5 === 0,
      reverse: rtl,
    },
  ];
  const count = (value: number | null) => (value === null ? '' : formatNumber(value, locale));
  const yAxis = [{ position: rtl ? ('right' as const) : ('left' as const), valueFormatter: count, width: 70 }];
  return (
    <Card sx={{ mt: 2 }} data-testid="dashboard-charts">
      <CardContent>
        <Typography variant="h6" gutterBottom>
          {translate('app.charts.title')}
        </Typography>
        {data ? (
          <Grid container spacing={2}>
            <Grid size={{ xs: 12, lg: 7 }} data-testid="chart-counts">
              <LineChart
                height={300}
                xAxis={xAxis}
                yAxis={yAxis}
                series={COUNTS.map((key) => ({
                  id: key,
                  label: translate(`app.charts.${key}`),
                  data: days.map((d) => d[key]),
                  valueFormatter: count,
                }))}
              />
            </Grid>
            <Grid size={{ xs: 12, lg: 5 }} data-testid="chart-revenue">
              <BarChart
                height={300}
                xAxis={xAxis}
                yAxis={[{ ...yAxis[0], valueFormatter: count, width: 90 }]}
                series={[
                  {
                    id: 'revenue',
                    label: translate('app.charts.revenue'),
                    data: days.map((d) => d.revenue),
                    valueFormatter: (value: number | null) => (value === null ? '' : formatMoney(value, locale, translate('app.toman'))),
                  },
                ]}
              />
            </Grid>
          </Grid>
        ) : (
          <Skeleton variant="rectangular" height={300} />
        )}
      </CardContent>
    </Card>
  );
}
