/**
 * The staff panel: react-admin under `/admin/` (a BrowserRouter with that basename around `<Admin>`: react-admin's
 * own `basename` alone renders a blank page), Persian right to left by default with English from the app bar's
 * language menu, telemetry off, every page behind the sign-in.
 */
import { CacheProvider } from '@emotion/react';
import BadgeIcon from '@mui/icons-material/Badge';
import ForumIcon from '@mui/icons-material/Forum';
import LocalOfferIcon from '@mui/icons-material/LocalOffer';
import MenuBookIcon from '@mui/icons-material/MenuBook';
import NotificationsIcon from '@mui/icons-material/Notifications';
import PeopleIcon from '@mui/icons-material/People';
import PsychologyIcon from '@mui/icons-material/Psychology';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import SavingsIcon from '@mui/icons-material/Savings';
import ShoppingCartIcon from '@mui/icons-material/ShoppingCart';
import SmsIcon from '@mui/icons-material/Sms';
import StorefrontIcon from '@mui/icons-material/Storefront';
import StyleIcon from '@mui/icons-material/Style';
import TimelineIcon from '@mui/icons-material/Timeline';
import VpnKeyIcon from '@mui/icons-material/VpnKey';
import { ListItemIcon, MenuItem, Typography } from '@mui/material';
import { useEffect, useMemo, useState } from 'react';
import {
  Admin,
  AppBar,
  CustomRoutes,
  Layout,
  type LayoutProps,
  Menu,
  Resource,
  useCanAccess,
  useSidebarState,
  useTranslate,
} from 'react-admin';
import { BrowserRouter, Route } from 'react-router-dom';
import { createAuthProvider } from './authProvider';
import { createDataProvider } from './dataProvider';
import { createI18nProvider, DEFAULT_LOCALE, directionOf, type Locale } from './i18n';
import { Dashboard } from './pages/Dashboard';
import { MarketplacePage } from './pages/MarketplacePage';
import { RefundPage } from './pages/RefundPage';
import { DiscountCodeCreate, DiscountCodeEdit, DiscountCodeList, DiscountCodeShow, OfferEdit, OfferList } from './resources/discounts';
import { NotificationCreate, NotificationList } from './resources/notifications';
import { OrderList, OrderShow, PaymentEventList } from './resources/orders';
import { PlanCreate, PlanEdit, PlanList, PlanShow } from './resources/plans';
import { AppUserMenu } from './resources/staffSessions';
import { OtpRecordList, SessionList, StaffCreate, StaffEdit, StaffList, StaffShow } from './resources/superuser';
import { TicketList, TicketShow } from './resources/tickets';
import { TutorFeedbackList, TutorUsageList } from './resources/tutor';
import { UserList, UserShow } from './resources/users';
import { emotionCaches, themeFor } from './theme';

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
  const { canAccess } = useCanAccess({ resource: 'marketplace', action: 'show' });
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

const AppLayout = (props: LayoutProps) => <Layout {...props} menu={AppMenu} appBar={AppAppBar} />;

/** The locale react-admin kept from the last visit (its store in localStorage), for the first paint's direction. */
function storedLocale(): Locale {
  try {
    const stored = JSON.parse(localStorage.getItem('RaStore.locale') ?? 'null');
    return stored === 'en' || stored === 'fa' ? stored : DEFAULT_LOCALE;
  } catch {
    return DEFAULT_LOCALE;
  }
}

export function App() {
  const [direction, setDirection] = useState(() => directionOf(storedLocale()));
  const providers = useMemo(
    () => ({
      dataProvider: createDataProvider(),
      authProvider: createAuthProvider(),
      i18nProvider: createI18nProvider((locale) => setDirection(directionOf(locale))),
    }),
    [],
  );
  const theme = useMemo(() => themeFor(direction), [direction]);
  useEffect(() => {
    document.documentElement.dir = direction;
    document.documentElement.lang = direction === 'rtl' ? 'fa' : 'en';
  }, [direction]);

  return (
    <BrowserRouter basename="/admin">
      <CacheProvider value={emotionCaches[direction]}>
        <Admin {...providers} disableTelemetry requireAuth title="app.title" theme={theme} layout={AppLayout} dashboard={Dashboard}>
          <Resource name="users" list={UserList} show={UserShow} icon={PeopleIcon} recordRepresentation="publicId" />
          <Resource name="orders" list={OrderList} show={OrderShow} icon={ShoppingCartIcon} recordRepresentation={(r) => `#${r.id}`}>
            <Route path=":id/refund" element={<RefundPage />} />
          </Resource>
          <Resource name="payment-events" list={PaymentEventList} icon={ReceiptLongIcon} />
          <Resource
            name="plans"
            list={PlanList}
            show={PlanShow}
            edit={PlanEdit}
            create={PlanCreate}
            icon={SavingsIcon}
            recordRepresentation="title"
          />
          <Resource
            name="discount-codes"
            list={DiscountCodeList}
            show={DiscountCodeShow}
            edit={DiscountCodeEdit}
            create={DiscountCodeCreate}
            icon={LocalOfferIcon}
            recordRepresentation="code"
          />
          <Resource name="offers" list={OfferList} edit={OfferEdit} icon={StyleIcon} recordRepresentation="code" />
          <Resource name="tickets" list={TicketList} show={TicketShow} icon={ForumIcon} recordRepresentation="subject" />
          <Resource name="notifications" list={NotificationList} create={NotificationCreate} icon={NotificationsIcon} />
          <Resource name="tutor-feedback" list={TutorFeedbackList} icon={PsychologyIcon} />
          <Resource name="tutor-usage" list={TutorUsageList} icon={TimelineIcon} />
          <Resource
            name="staff"
            list={StaffList}
            show={StaffShow}
            edit={StaffEdit}
            create={StaffCreate}
            icon={BadgeIcon}
            recordRepresentation="username"
          />
          <Resource name="sessions" list={SessionList} icon={VpnKeyIcon} />
          <Resource name="otp-records" list={OtpRecordList} icon={SmsIcon} />
          <CustomRoutes>
            <Route path="/marketplace" element={<MarketplacePage />} />
          </CustomRoutes>
        </Admin>
      </CacheProvider>
    </BrowserRouter>
  );
}
