/** Learners: search by public id (`User123456`), phone or part of the display name (`q`). Read-only. */
import { BooleanField, DataTable, SearchInput, TextField, useTranslate } from 'react-admin';
import { useBulkActions } from '../../common/BulkActions';
import { DateTime, Num } from '../../common/fields';
import { AdminList, Col } from '../../common/list';

function UserSearch(props: { source: string; alwaysOn?: boolean }) {
  const translate = useTranslate();
  return <SearchInput {...props} placeholder={translate('app.users.search_hint')} sx={{ minWidth: { sm: 440 } }} />;
}

const userFilters = [<UserSearch key="q" source="q" alwaysOn />];

export function UserList() {
  const bulkActions = useBulkActions('users');
  return (
    <AdminList
      filters={userFilters}
      mobile={{
        primaryText: <TextField source="publicId" />,
        secondaryText: <TextField source="displayName" emptyText="—" />,
        tertiaryText: <TextField source="phone" />,
        rowClick: 'show',
      }}
    >
      <DataTable rowClick="show" bulkActionButtons={bulkActions}>
        <Col source="publicId" />
        <Col source="displayName" />
        <Col source="phone" />
        <Col source="gradeId" field={Num} />
        <Col source="xp" field={Num} />
        <Col source="subscription.active" field={BooleanField} />
        <Col source="subscription.expiresAt" field={DateTime} />
        <Col source="createdAt" field={DateTime} />
        <Col source="lastLoginAt" field={DateTime} />
      </DataTable>
    </AdminList>
  );
}
