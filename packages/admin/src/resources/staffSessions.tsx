/**
 * Ending staff sessions from the panel (DESIGN §12; docs/admin-api.md "Session and conventions"):
 * - {@link EndSessionsButton}, on a staff member's page (superusers): after a confirmation, every session of that
 *   member ends at once, wherever it was opened; their password stays.
 * - {@link AppUserMenu}, the app bar's user menu with "sign out everywhere" above react-admin's own sign-out: after a
 *   confirmation, every session of the signed-in staff member ends, this one too, and the panel goes to its login.
 */

import NoAccountsIcon from '@mui/icons-material/NoAccounts';
import LogoutIcon from '@mui/icons-material/PhonelinkErase';
import { ListItemIcon, ListItemText, MenuItem } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import {
  Confirm,
  Logout,
  UserMenu,
  useCanAccess,
  useDataProvider,
  useLogout,
  useNotify,
  useRecordContext,
  useTranslate,
  useUserMenu,
} from 'react-admin';
import type { AdminDataProvider } from '../dataProvider';
import { ConfirmedAction } from './common';

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

/** The user menu's "sign out everywhere": asks, ends every session of the caller, then signs this browser out. */
function SignOutEverywhereItem() {
  const translate = useTranslate();
  const userMenu = useUserMenu();
  const dataProvider = useDataProvider<AdminDataProvider>();
  const notify = useNotify();
  const logout = useLogout();
  const [open, setOpen] = useState(false);
  const { mutate, isPending } = useMutation({
    mutationFn: () => dataProvider.signOutEverywhere(),
    onSuccess: () => {
      setOpen(false);
      userMenu?.onClose();
      void logout();
    },
    onError: (error: Error) => {
      setOpen(false);
      notify(error.message, { type: 'error' });
    },
  });
  return (
    <>
      <MenuItem onClick={() => setOpen(true)} disabled={isPending} className="sign-out-everywhere">
        <ListItemIcon>
          <LogoutIcon fontSize="small" />
        </ListItemIcon>
        <ListItemText>{translate('app.account.sign_out_everywhere')}</ListItemText>
      </MenuItem>
      <Confirm
        isOpen={open}
        loading={isPending}
        title="app.account.sign_out_everywhere_title"
        content="app.account.sign_out_everywhere_confirm"
        onConfirm={() => mutate()}
        onClose={() => setOpen(false)}
      />
    </>
  );
}

/** The app bar's user menu: sign out everywhere, then the ordinary sign-out. */
export const AppUserMenu = () => (
  <UserMenu>
    <SignOutEverywhereItem />
    <Logout />
  </UserMenu>
);
