/** Staff accounts (superuser): the list. */
import { BooleanField, DataTable, TextField } from 'react-admin';
import { DateTime } from '../../common/fields';
import { optionalFilters } from '../../common/filters';
import { AdminList, Col } from '../../common/list';
import { PermissionList } from './Permissions';

export const StaffList = () => (
  <AdminList
    filters={optionalFilters('staff', ['q'])}
    mobile={{ primaryText: <TextField source="username" />, secondaryText: <DateTime source="createdAt" />, rowClick: 'show' }}
  >
    <DataTable rowClick="show" bulkActionButtons={false}>
      <Col source="username" />
      <Col source="isSuperuser" field={BooleanField} />
      <Col source="active" field={BooleanField} />
      <Col source="permissions" render={(r: any) => <PermissionList permissions={r.permissions ?? []} />} />
      <Col source="createdAt" field={DateTime} />
    </DataTable>
  </AdminList>
);
