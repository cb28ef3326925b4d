/** Orders: the list, filtered by status, provider and learner. */
import { DataTable, TextField, TextInput } from 'react-admin';
import { queryChoices } from '../../api/contract';
import { ChoiceField, ChoiceInput, DateTime, IdField, Money, StatusChip } from '../../common/fields';
import { optionalFilters } from '../../common/filters';
import { AdminList, Col } from '../../common/list';

const orderFilters = [
  ...optionalFilters('orders', ['publicId', 'q', 'from', 'to']),
  <ChoiceInput key="status" source="status" group="status" ids={queryChoices('orders', 'status')} alwaysOn />,
  <ChoiceInput key="provider" source="provider" group="provider" ids={queryChoices('orders', 'provider')} />,
  <TextInput key="userId" source="userId" />,
];

export const OrderList = () => (
  <AdminList
    filters={orderFilters}
    mobile={{
      primaryText: <TextField source="planTitle" />,
      secondaryText: <Money source="amount" />,
      tertiaryText: <StatusChip source="status" group="status" />,
      rowClick: 'show',
    }}
  >
    <DataTable rowClick="show" bulkActionButtons={false}>
      <Col source="id" field={IdField} />
      <Col source="userPublicId" render={(r: any) => r.userPublicId ?? r.userId} />
      <Col source="planTitle" />
      <Col source="amount" field={Money} />
      <Col source="status" field={(p: any) => <StatusChip {...p} group="status" />} />
      <Col source="provider" field={(p: any) => <ChoiceField {...p} group="provider" />} />
      <Col source="createdAt" field={DateTime} />
      <Col source="paidAt" field={DateTime} />
    </DataTable>
  </AdminList>
);
