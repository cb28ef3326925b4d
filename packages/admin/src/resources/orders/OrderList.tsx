/** Orders: the list, filtered by status, provider and learner. */
import { DataTable, TextInput } from 'react-admin';
import { queryChoices } from '../../api/contract';
import { ChoiceInput } from '../../common/fields';
import { optionalFilters } from '../../common/filters';
import { AdminList, Col } from '../../common/list';
import { choice, columns, id, money, phoneRow, status, time } from '../../common/specs';

const orderFilters = [
  ...optionalFilters('orders', ['q', 'userPublicId', 'from', 'to']),
  <ChoiceInput key="status" source="status" group="status" ids={queryChoices('orders', 'status')} alwaysOn />,
  <ChoiceInput key="provider" source="provider" group="provider" ids={queryChoices('orders', 'provider')} />,
  <TextInput key="userId" source="userId" />,
];

export const OrderList = () => (
  <AdminList filters={orderFilters} mobile={phoneRow('show', 'planTitle', money('amount'), status('status', 'status'))}>
    <DataTable rowClick="show" bulkActionButtons={false}>
      {columns(
        id('id'),
        <Col source="userPublicId" render={(r: any) => r.userPublicId ?? r.userId} />,
        'planTitle',
        money('amount'),
        status('status', 'status'),
        choice('provider', 'provider'),
        time('createdAt'),
        time('paidAt'),
      )}
    </DataTable>
  </AdminList>
);
