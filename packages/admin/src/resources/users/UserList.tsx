/** Learners: search by public id (`User123456`), phone or part of the display name (`q`). Read-only. */
import { DataTable, SearchInput, useTranslate } from 'react-admin';
import { useBulkActions } from '../../common/BulkActions';
import { AdminList } from '../../common/list';
import { bool, columns, num, phone, phoneRow, text, time } from '../../common/specs';

function UserSearch(props: { source: string; alwaysOn?: boolean }) {
  const translate = useTranslate();
  return <SearchInput {...props} placeholder={translate('app.users.search_hint')} sx={{ minWidth: { sm: 440 } }} />;
}

const userFilters = [<UserSearch key="q" source="q" alwaysOn />];

export function UserList() {
  const bulkActions = useBulkActions('users');
  return (
    <AdminList filters={userFilters} mobile={phoneRow('show', 'publicId', text('displayName', { emptyText: '—' }), phone('phone'))}>
      <DataTable rowClick="show" bulkActionButtons={bulkActions}>
        {columns(
          'publicId',
          'displayName',
          phone('phone'),
          num('gradeId'),
          num('xp'),
          bool('subscription.active'),
          time('subscription.expiresAt'),
          time('createdAt'),
          time('lastLoginAt'),
        )}
      </DataTable>
    </AdminList>
  );
}
