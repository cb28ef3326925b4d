/**
 * The app bar's user menu (DESIGN §12; docs/admin-api.md "Session and conventions"): "change password" (its page),
 * "sign out everywhere" above
 * react-admin's own sign-out: after a confirmation, every session of the signed-in staff member ends, this one too,
 * and the panel goes to its login.
 */
import PasswordIcon from '@mui/icons-material/Password';
import LogoutIcon from '@mui/icons-material/PhonelinkErase';
import { ListItemIcon, ListItemText, MenuItem } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Confirm, Logout, UserMenu, useDataProvider, useLogout, useNotify, useTranslate, useUserMenu } from 'react-admin';
import { Link } from 'react-router-dom';
import type { AdminDataProvider } from '../api/dataProvider';

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
/** The user menu's "change password": the page of one's own password. */
function PasswordItem() {
  const translate = useTranslate();
  const userMenu = useUserMenu();
  return (
    <MenuItem component={Link} to="/password" onClick={() => userMenu?.onClose()}>
      <ListItemIcon>
        <PasswordIcon fontSize="small" />
      </ListItemIcon>
      <ListItemText>{translate('app.account.password_menu')}</ListItemText>
    </MenuItem>
  );
}

export const AppUserMenu = () => (
  <UserMenu>
    <PasswordItem />
    <SignOutEverywhereItem />
    <Logout />
  </UserMenu>
);
