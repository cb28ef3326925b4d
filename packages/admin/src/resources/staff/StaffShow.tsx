/** A staff member's page (superuser), with "end sessions" and edit. */
import { EditButton, FunctionField, Show, TopToolbar } from 'react-admin';
import { bool, fields, text, time } from '../../common/specs';
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
      {fields(text('username'), bool('isSuperuser'), bool('active'))}
      <FunctionField source="permissions" render={(r: any) => <PermissionList permissions={r.permissions ?? []} />} />
      {fields(time('createdAt'), time('updatedAt'))}
    </DetailsAndHistory>
  </Show>
);
