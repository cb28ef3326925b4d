/** Support tickets: the list (filters status, userId; latest activity first). */
import { DataTable, TextInput } from 'react-admin';
import { queryChoices } from '../../api/contract';
import { useBulkActions } from '../../common/BulkActions';
import { ChoiceInput } from '../../common/fields';
import { optionalFilters } from '../../common/filters';
import { AdminList, Col } from '../../common/list';
import { columns, id, num, phoneRow, status, time } from '../../common/specs';

const ticketFilters = [
  ...optionalFilters('tickets', ['q', 'from', 'to']),
  <ChoiceInput key="status" source="status" group="ticket" ids={queryChoices('tickets', 'status')} alwaysOn />,
  <TextInput key="userId" source="userId" />,
];

export function TicketList() {
  const bulkActions = useBulkActions('tickets');
  return (
    <AdminList filters={ticketFilters} mobile={phoneRow('show', 'subject', time('updatedAt'), status('status', 'ticket'))}>
      <DataTable rowClick="show" bulkActionButtons={bulkActions}>
        {columns(
          id('id'),
          'subject',
          <Col source="userPublicId" render={(r: any) => r.userPublicId ?? r.userId} />,
          status('status', 'ticket'),
          num('messageCount'),
          time('createdAt'),
          time('updatedAt'),
        )}
      </DataTable>
    </AdminList>
  );
}
