/** Payment events (`GET /api/admin/payment-events`, filters orderId and kind): every order's audit rows, newest first. */
import { DataTable, TextInput } from 'react-admin';
import { Link } from 'react-router-dom';
import { queryChoices } from '../../api/contract';
import { ChoiceField, ChoiceInput, DateTime, IdField } from '../../common/fields';
import { optionalFilters } from '../../common/filters';
import { AdminList, Col } from '../../common/list';
import { columns, time } from '../../common/specs';
import { EventColumns } from './EventColumns';

const eventFilters = [
  ...optionalFilters('payment-events', ['from', 'to']),
  <TextInput key="orderId" source="orderId" alwaysOn />,
  <ChoiceInput key="kind" source="kind" group="paymentEventKind" ids={queryChoices('payment-events', 'kind')} alwaysOn />,
];

export const PaymentEventList = () => (
  <AdminList
    filters={eventFilters}
    mobile={{
      primaryText: <ChoiceField source="kind" group="paymentEventKind" />,
      secondaryText: <DateTime source="at" />,
      tertiaryText: <IdField source="orderId" />,
      rowClick: (_id, _resource, record) => `/orders/${record.orderId}/show`,
    }}
  >
    <DataTable bulkActionButtons={false} rowClick={false}>
      {columns(time('at'), <Col source="orderId" render={(r: any) => <Link to={`/orders/${r.orderId}/show`}>{r.orderId}</Link>} />)}
      <EventColumns />
    </DataTable>
  </AdminList>
);
