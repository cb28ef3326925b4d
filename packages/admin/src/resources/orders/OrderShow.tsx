/**
 * An order's page: its fields, the cancel and refund buttons (`OrderActions.tsx`), a marketplace order's purchase
 * (`OrderMarketplace.tsx`) and the order's payment events, which show what the gateway or the marketplace answered.
 */
import { Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import {
  DataTable,
  FunctionField,
  ListButton,
  ListContextProvider,
  ResourceContextProvider,
  Show,
  TopToolbar,
  useDataProvider,
  useList,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import type { AdminDataProvider } from '../../api/dataProvider';
import { MoneyText, StatusChip } from '../../common/fields';
import { choice, columns, fields, id, money, num, text, time } from '../../common/specs';
import { DetailsAndHistory } from '../history/RecordHistory';
import { EventColumns } from '../payment-events/EventColumns';
import { CancelOrderButton, RefundButton } from './OrderActions';
import { OrderMarketplace } from './OrderMarketplace';

const OrderShowActions = () => (
  <TopToolbar>
    <ListButton />
    <CancelOrderButton />
    <RefundButton />
  </TopToolbar>
);

/** The order's payment events (its audit rows), read-only. */
function OrderEvents() {
  const record = useRecordContext();
  const dataProvider = useDataProvider<AdminDataProvider>();
  const translate = useTranslate();
  const { data, isPending, error } = useQuery({
    queryKey: ['orders', 'events', record?.id],
    queryFn: () => dataProvider.orderEvents(record!.id),
    enabled: record !== undefined,
  });
  const listContext = useList({ data: data ?? [], isPending, perPage: 200, resource: 'payment-events' });
  return (
    <>
      <Typography variant="h6" sx={{ mt: 2 }}>
        {translate('app.orders.events')}
      </Typography>
      {error ? (
        <Typography color="error">{translate((error as Error).message, { _: (error as Error).message })}</Typography>
      ) : (
        <ListContextProvider value={listContext}>
          <ResourceContextProvider value="payment-events">
            <DataTable bulkActionButtons={false} rowClick={false}>
              {columns(time('at'))}
              <EventColumns />
            </DataTable>
          </ResourceContextProvider>
        </ListContextProvider>
      )}
    </>
  );
}

export const OrderShow = () => (
  <Show actions={<OrderShowActions />}>
    <DetailsAndHistory model="order">
      {fields(id('id'))}
      <FunctionField source="status" render={() => <StatusChip source="status" group="status" />} />
      <FunctionField source="userPublicId" render={(r: any) => r.userPublicId ?? r.user?.publicId ?? r.userId} />
      {fields(
        text('planTitle'),
        choice('provider', 'provider'),
        money('listPrice'),
        text('discountCode', { emptyText: '—' }),
        money('discount'),
        money('amount'),
        text('invoiceNumber', { emptyText: '—' }),
        time('createdAt'),
        time('paidAt', { emptyText: '—' }),
        choice('paidVia', 'via', { emptyText: '—' }),
        text('refId', { emptyText: '—' }),
        num('grant.days', { emptyText: '—' }),
      )}
      <FunctionField source="commission" render={(r: any) => (r.commission ? <MoneyText amount={r.commission.amount} /> : '—')} />
      {fields(
        time('cancelledAt', { emptyText: '—' }),
        text('cancelledBy', { emptyText: '—' }),
        time('refundedAt', { emptyText: '—' }),
        text('refundedBy', { emptyText: '—' }),
        choice('endedVia', 'endedVia', { emptyText: '—' }),
      )}
      <OrderMarketplace />
      <OrderEvents />
    </DetailsAndHistory>
  </Show>
);
