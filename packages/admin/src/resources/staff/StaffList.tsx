/**
 * Staff accounts (superuser): the list. Ticking members offers «پایان نشست‌ها» (end sessions, `POST
 * /api/admin/staff/bulk`); one's own row cannot be ticked (the user menu's «خروج از همه‌جا» ends one's own).
 */
import { DataTable, TextField, useGetIdentity } from 'react-admin';
import { useBulkActions } from '../../common/BulkActions';
import { DateTime } from '../../common/fields';
import { optionalFilters } from '../../common/filters';
import { AdminList, Col } from '../../common/list';
import { bool, columns, time } from '../../common/specs';
import { PermissionList } from './Permissions';

export function StaffList() {
  const bulkActions = useBulkActions('staff');
  const { identity } = useGetIdentity();
  return (
    <AdminList
      filters={optionalFilters('staff', ['q'])}
      mobile={{ primaryText: <TextField source="username" />, secondaryText: <DateTime source="createdAt" />, rowClick: 'show' }}
    >
      <DataTable rowClick="show" bulkActionButtons={bulkActions} isRowSelectable={(row) => row.username !== identity?.id}>
        {columns(
          'username',
          bool('isSuperuser'),
          bool('active'),
          <Col source="permissions" render={(r: any) => <PermissionList permissions={r.permissions ?? []} />} />,
          time('createdAt'),
        )}
      </DataTable>
    </AdminList>
  );
}
