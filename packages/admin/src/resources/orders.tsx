/**
 * Orders: the list (filters status, provider, userId), the show page with the order's payment events, and the
 * two staff actions, which need `change_order`: cancel a pending order (after a confirm dialog) and refund a
 * paid one (through the confirmation page, `pages/RefundPage.tsx`). Without the permission neither button is
 * shown. A marketplace order's page also shows its marketplace purchase (`orderMarketplace.tsx`), and the payment
 * events show what the marketplace answered.
 */
import CancelIcon from '@mui/icons-material/Cancel';
import UndoIcon from '@mui/icons-material/Undo';
import { Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  DataTable,
  FunctionField,
  ListButton,
  ListContextProvider,
  NumberField,
  ResourceContextProvider,
  Show,
  SimpleShowLayout,
  TextField,
  TextInput,
  TopToolbar,
  useCanAccess,
  useDataProvider,
  useList,
  useLocaleState,
  useNotify,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { Link } from 'react-router-dom';
import { ORDER_STATUSES, PAYMENT_EVENT_KINDS, PAYMENT_PATHS, PAYMENT_RESULTS, PROVIDERS } from '../contract';
import type { AdminDataProvider } from '../dataProvider';
import { ChoiceField, ChoiceInput, DateTime, formatTime, Money, MoneyText, StatusChip } from '../fields';
import { AdminList, Col, ConfirmedAction } from './common';
import { OrderMarketplace } from './orderMarketplace';

const orderFilters = [
  <ChoiceInput key="status" source="status" group="status" ids={ORDER_STATUSES} alwaysOn />,
  <ChoiceInput key="provider" source="provider" group="provider" ids={PROVIDERS} />,
  <TextInput key="userId" source="userId" />,
];

export const OrderList = () => (
  <AdminList filters={orderFilters}>
    <DataTable rowClick="show" bulkActionButtons={false}>
      <Col source="id" />
      <Col source="userPublicId" render={(r: any) => r.userPublicId ?? r.userId} />
      <Col source="planTitle" />
      <Col source="amount" field={Money} />
      <Col source="status" field={(p: any) => <StatusChip {...p} group="status" />} />
      <Col source="provider" field={(p: any) => <ChoiceField {...p} group="provider" ids={PROVIDERS} />} />
      <Col source="createdAt" field={DateTime} />
      <Col source="paidAt" field={DateTime} />
    </DataTable>
  </AdminList>
);

/** The refund button: only for a paid order, only with change_order; leads to the confirmation page. */
export function RefundButton() {
  const record = useRecordContext();
  const { canAccess } = useCanAccess({ resource: 'orders', action: 'refund' });
  if (record?.status !== 'paid' || !canAccess) return null;
  return (
    <Button component={Link} to={`/orders/${record.id}/refund`} label="app.orders.refund" color="warning">
      <UndoIcon />
    </Button>
  );
}

/** The cancel button: only for a pending order, only with change_order; asks before it cancels. */
export function CancelOrderButton() {
  const record = useRecordContext();
  const { canAccess } = useCanAccess({ resource: 'orders', action: 'cancel' });
  const dataProvider = useDataProvider<AdminDataProvider>();
  const notify = useNotify();
  const queryClient = useQueryClient();
  if (record?.status !== 'pending' || !canAccess) return null;
  return (
    <ConfirmedAction
      label="app.orders.cancel"
      color="error"
      icon={<CancelIcon />}
      title="app.orders.cancel_confirm_title"
      titleOptions={{ id: record.id }}
      content="app.orders.cancel_confirm"
      run={() => dataProvider.cancelOrder(record.id)}
      onDone={() => {
        notify('app.orders.cancelled', { type: 'info' });
        void queryClient.invalidateQueries({ queryKey: ['orders'] });
      }}
    />
  );
}

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
              <Col source="at" field={DateTime} />
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
    <SimpleShowLayout sx={{ '& .RaLabeled-label': { fontWeight: 600 } }}>
      <NumberField source="id" options={{ useGrouping: false }} />
      <FunctionField source="status" render={() => <StatusChip source="status" group="status" />} />
      <FunctionField source="userPublicId" render={(r: any) => r.userPublicId ?? r.user?.publicId ?? r.userId} />
      <TextField source="planTitle" />
      <ChoiceField source="provider" group="provider" ids={PROVIDERS} />
      <Money source="listPrice" />
      <TextField source="discountCode" emptyText="—" />
      <Money source="discount" />
      <Money source="amount" />
      <TextField source="invoiceNumber" emptyText="—" />
      <DateTime source="createdAt" />
      <DateTime source="paidAt" emptyText="—" />
      <ChoiceField source="paidVia" group="via" ids={PAYMENT_PATHS} emptyText="—" />
      <TextField source="refId" emptyText="—" />
      <NumberField source="grant.days" emptyText="—" />
      <FunctionField source="commission" render={(r: any) => (r.commission ? <MoneyText amount={r.commission.amount} /> : '—')} />
      <DateTime source="cancelledAt" emptyText="—" />
      <TextField source="cancelledBy" emptyText="—" />
      <DateTime source="refundedAt" emptyText="—" />
      <TextField source="refundedBy" emptyText="—" />
      <ChoiceField source="endedVia" group="endedVia" ids={['marketplace']} emptyText="—" />
      <OrderMarketplace />
      <OrderEvents />
    </SimpleShowLayout>
  </Show>
);

// The payment events resource (`GET /api/admin/payment-events`, filters orderId and kind).
const eventFilters = [
  <TextInput key="orderId" source="orderId" alwaysOn />,
  <ChoiceInput key="kind" source="kind" group="paymentEventKind" ids={PAYMENT_EVENT_KINDS} alwaysOn />,
];

/** A payment event's epoch-ms time field (the marketplace's `validUntil`) in Tehran time. */
function EventTime({ source }: { source: string }) {
  const record = useRecordContext();
  const [locale] = useLocaleState();
  return <>{record?.[source] === undefined ? '' : formatTime(record[source], locale)}</>;
}

/**
 * The columns of a payment event after its time: kind, path, result (translated), reason, the gateway's codes and
 * what the marketplace answered (its HTTP status, the period end it reported, whether it renews).
 */
function EventColumns() {
  return (
    <>
      <Col source="kind" field={(p: any) => <ChoiceField {...p} group="paymentEventKind" ids={PAYMENT_EVENT_KINDS} />} />
      <Col source="via" field={(p: any) => <ChoiceField {...p} group="via" ids={PAYMENT_PATHS} />} />
      <Col source="result" field={(p: any) => <ChoiceField {...p} group="result" ids={PAYMENT_RESULTS} />} />
      <Col source="ignored" render={(r: any) => (r.ignored ? '✓' : '')} />
      <Col source="reason" />
      <Col source="gatewayCode" />
      <Col source="refId" />
      <Col source="marketplaceStatus" />
      <Col source="validUntil" render={() => <EventTime source="validUntil" />} />
      <Col source="autoRenewing" render={(r: any) => (r.autoRenewing === undefined ? '' : r.autoRenewing ? '✓' : '✗')} />
    </>
  );
}

export const PaymentEventList = () => (
  <AdminList filters={eventFilters}>
    <DataTable bulkActionButtons={false} rowClick={false}>
      <Col source="at" field={DateTime} />
      <Col source="orderId" render={(r: any) => <Link to={`/orders/${r.orderId}/show`}>{r.orderId}</Link>} />
      <EventColumns />
    </DataTable>
  </AdminList>
);
