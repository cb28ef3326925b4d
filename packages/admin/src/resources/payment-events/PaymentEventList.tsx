/** Payment events (`GET /api/admin/payment-events`, filters orderId and kind): every order's audit rows, newest first. */
import { DataTable, TextInput } from 'react-admin';
import { queryChoices } from '../../api/contract';
import { ChoiceField, ChoiceInput, DateTime, IdField } from '../../common/fields';
import { optionalFilters } from '../../common/filters';
import { AdminList, Col } from '../../common/list';
import { RecordPageLink, useRecordPage } from '../../common/RecordPageLink';
import { columns, time } from '../../common/specs';
import { EventColumns } from './EventColumns';

const eventFilters = [
  ...optionalFilters('payment-events', ['from', 'to']),
  <TextInput key="orderId" source="orderId" alwaysOn />,
  <ChoiceInput key="kind" source="kind" group="paymentEventKind" ids={queryChoices('payment-events', 'kind')} alwaysOn />,
];

export function PaymentEventList() {
  // An event's order opens only for those who may view orders.
  const orderPage = useRecordPage('orders');
  return (
    <AdminList
      filters={eventFilters}
      mobile={{
        primaryText: <ChoiceField source="kind" group="paymentEventKind" />,
        secondaryText: <DateTime source="at" />,
        tertiaryText: <IdField source="orderId" />,
        rowClick: (_id, _resource, record) => orderPage(record.orderId) ?? false,
      }}
    >
      <DataTable bulkActionButtons={false} rowClick={false}>
        {columns(
          time('at'),
          <Col
            source="orderId"
            render={(r: any) => (
              <RecordPageLink resource="orders" id={r.orderId}>
                {r.orderId}
              </RecordPageLink>
            )}
          />,
        )}
        <EventColumns />
      </DataTable>
    </AdminList>
  );
}
