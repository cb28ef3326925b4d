/** A staff member's page (superuser), with "end sessions" and edit. */
import { BooleanField, EditButton, FunctionField, Show, TextField, TopToolbar } from 'react-admin';
import { DateTime } from '../../common/fields';
import { DetailsAndHistory } from '../history/RecordHistory';
import { EndSessionsButton } from './EndSessionsButton';
import { PermissionList } from './Permissions';

const StaffShowActions = () => (
  <TopToolbar>
    <EndSessionsButton />
    <EditButton />
  </TopToolbar>
);

export const StaffShow = () => (
  <Show actions={<StaffShowActions />}>
    <DetailsAndHistory model="staff">
      <TextField source="username" />
      <BooleanField source="isSuperuser" />
      <BooleanField source="active" />
      <FunctionField source="permissions" render={(r: any) => <PermissionList permissions={r.permissions ?? []} />} />
      <DateTime source="createdAt" />
      <DateTime source="updatedAt" />
    </DetailsAndHistory>
  </Show>
);
