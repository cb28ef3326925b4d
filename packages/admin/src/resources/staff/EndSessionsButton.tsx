/**
 * "End sessions" on a staff member's page (superusers; DESIGN §12): after a confirmation, every session of that member
 * ends at once, wherever it was opened; their password stays.
 */
import NoAccountsIcon from '@mui/icons-material/NoAccounts';
import { useCanAccess, useDataProvider, useNotify, useRecordContext } from 'react-admin';
import type { AdminDataProvider } from '../../api/dataProvider';
import { ConfirmedAction } from '../../common/actions';

/** "End sessions" of the staff member whose page this is (shown to those who may change staff: superusers). */
export function EndSessionsButton() {
  const record = useRecordContext<{ id: string; username: string }>();
  const { canAccess } = useCanAccess({ resource: 'staff', action: 'edit' });
  const dataProvider = useDataProvider<AdminDataProvider>();
  const notify = useNotify();
  if (!record || !canAccess) return null;
  const who = { username: record.username };
  return (
    <ConfirmedAction
      label="app.staff.end_sessions"
      color="warning"
      icon={<NoAccountsIcon />}
      title="app.staff.end_sessions_title"
      titleOptions={who}
      content="app.staff.end_sessions_confirm"
      contentOptions={who}
      run={() => dataProvider.endStaffSessions(record.id)}
      onDone={() => notify('app.staff.sessions_ended', { type: 'info', messageArgs: who })}
    />
  );
}
