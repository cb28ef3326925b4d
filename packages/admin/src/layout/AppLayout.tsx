/** The panel's frame: the menu (dashboard, resources, marketplace, API docs) and the app bar with its user menu. */
import MenuBookIcon from '@mui/icons-material/MenuBook';
import StorefrontIcon from '@mui/icons-material/Storefront';
import { ListItemIcon, MenuItem, Typography } from '@mui/material';
import { AppBar, Layout, type LayoutProps, Menu, useCanAccess, useSidebarState, useTranslate } from 'react-admin';
import { AppUserMenu } from './AppUserMenu';

/**
 * The API description (`/api/docs/`, Swagger UI served by the service to holders of `view_apidocs`; the session
 * cookie's `Path=/api` signs it in), in a new tab: it is no page of the panel.
 */
function ApiDocsItem() {
  const translate = useTranslate();
  const [open] = useSidebarState();
  const { canAccess } = useCanAccess({ resource: 'apidocs', action: 'show' });
  if (!canAccess) return null;
  return (
    // Styled as react-admin's menu items (MenuItemLink, which only links inside the panel).
    <MenuItem component="a" href="/api/docs/" target="_blank" rel="noopener" sx={{ color: 'text.secondary' }}>
      <ListItemIcon sx={{ minWidth: 40, color: 'text.secondary' }}>
        <MenuBookIcon />
      </ListItemIcon>
      {open ? (
        <Typography variant="inherit" noWrap sx={{ flexGrow: 1 }}>
          {translate('app.menu.apidocs')}
        </Typography>
      ) : null}
    </MenuItem>
  );
}

/** The menu: dashboard, the resources this staff member may list (react-admin asks `canAccess`), marketplace, API docs. */
function AppMenu() {
  const { canAccess } = useCanAccess({ resource: 'marketplace', action: 'list' });
  return (
    <Menu>
      <Menu.DashboardItem />
      <Menu.ResourceItems />
      {canAccess ? <Menu.Item to="/marketplace" primaryText="app.menu.marketplace" leftIcon={<StorefrontIcon />} /> : null}
      <ApiDocsItem />
    </Menu>
  );
}

/** The app bar with "sign out everywhere" in its user menu. */
const AppAppBar = () => <AppBar userMenu={<AppUserMenu />} />;

/** react-admin's layout with this menu and app bar. */
export const AppLayout = (props: LayoutProps) => <Layout {...props} menu={AppMenu} appBar={AppAppBar} />;
