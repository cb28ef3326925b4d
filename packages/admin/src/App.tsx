/**
 * The staff panel: react-admin under `/admin/` (a BrowserRouter with that basename around `<Admin>`: react-admin's
 * own `basename` alone renders a blank page), Persian right to left by default with English from the app bar's
 * language menu, telemetry off, every page behind the sign-in. Each resource lives in its own folder of
 * `resources/` (list, show, edit and its own pages), as in react-admin's demo.
 */
import { CacheProvider } from '@emotion/react';
import { useEffect, useMemo, useState } from 'react';
import { Admin, CustomRoutes, Resource } from 'react-admin';
import { BrowserRouter, Route } from 'react-router-dom';
import { createAuthProvider } from './api/authProvider';
import { createDataProvider } from './api/dataProvider';
import { createI18nProvider, DEFAULT_LOCALE, directionOf, type Locale } from './i18n';
import { AppLayout } from './layout/AppLayout';
import { PasswordPage } from './pages/account/PasswordPage';
import { Dashboard } from './pages/dashboard/Dashboard';
import { MarketplacePage } from './pages/marketplace/MarketplacePage';
import discountCodes from './resources/discount-codes';
import history from './resources/history';
import notifications from './resources/notifications';
import offers from './resources/offers';
import orders from './resources/orders';
import otpRecords from './resources/otp-records';
import paymentEvents from './resources/payment-events';
import plans from './resources/plans';
import sessions from './resources/sessions';
import staff from './resources/staff';
import tickets from './resources/tickets';
import tutorFeedback from './resources/tutor-feedback';
import tutorUsage from './resources/tutor-usage';
import users from './resources/users';
import { emotionCaches, themeFor } from './theme';

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
          <Resource name="users" {...users} />
          <Resource name="orders" {...orders} />
          <Resource name="payment-events" {...paymentEvents} />
          <Resource name="plans" {...plans} />
          <Resource name="discount-codes" {...discountCodes} />
          <Resource name="offers" {...offers} />
          <Resource name="tickets" {...tickets} />
          <Resource name="notifications" {...notifications} />
          <Resource name="tutor-feedback" {...tutorFeedback} />
          <Resource name="tutor-usage" {...tutorUsage} />
          <Resource name="staff" {...staff} />
          <Resource name="sessions" {...sessions} />
          <Resource name="otp-records" {...otpRecords} />
          <Resource name="history" {...history} />
          <CustomRoutes>
            <Route path="/marketplace" element={<MarketplacePage />} />
            <Route path="/password" element={<PasswordPage />} />
          </CustomRoutes>
        </Admin>
      </CacheProvider>
    </BrowserRouter>
  );
}
