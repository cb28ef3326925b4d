/** Staff accounts (superuser): the list. */
import { DataTable, TextField } from 'react-admin';
import { DateTime } from '../../common/fields';
import { optionalFilters } from '../../common/filters';
import { AdminList, Col } from '../../common/list';
import { bool, columns, time } from '../../common/specs';
import { PermissionList } from './Permissions';

export const StaffList = () => (
  <AdminList
    filters={optionalFilters('staff', ['q'])}
    mobile={{ primaryText: <TextField source="username" />, secondaryText: <DateTime source="createdAt" />, rowClick: 'show' }}
  >
    <DataTable rowClick="show" bulkActionButtons={false}>
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
