/** Support tickets: the list (filters status, userId; latest activity first). */
import { DataTable, TextField, TextInput } from 'react-admin';
import { queryChoices } from '../../api/contract';
import { useBulkActions } from '../../common/BulkActions';
import { ChoiceInput, DateTime, IdField, Num, StatusChip } from '../../common/fields';
import { optionalFilters } from '../../common/filters';
import { AdminList, Col } from '../../common/list';

const ticketFilters = [
  ...optionalFilters('tickets', ['q', 'from', 'to']),
  <ChoiceInput key="status" source="status" group="ticket" ids={queryChoices('tickets', 'status')} alwaysOn />,
  <TextInput key="userId" source="userId" />,
];

export function TicketList() {
  const bulkActions = useBulkActions('tickets');
  return (
    <AdminList
      filters={ticketFilters}
      mobile={{
        primaryText: <TextField source="subject" />,
        secondaryText: <DateTime source="updatedAt" />,
        tertiaryText: <StatusChip source="status" group="ticket" />,
        rowClick: 'show',
      }}
    >
      <DataTable rowClick="show" bulkActionButtons={bulkActions}>
        <Col source="id" field={IdField} />
        <Col source="subject" />
        <Col source="userPublicId" render={(r: any) => r.userPublicId ?? r.userId} />
        <Col source="status" field={(p: any) => <StatusChip {...p} group="ticket" />} />
        <Col source="messageCount" field={Num} />
        <Col source="createdAt" field={DateTime} />
        <Col source="updatedAt" field={DateTime} />
      </DataTable>
    </AdminList>
  );
}
