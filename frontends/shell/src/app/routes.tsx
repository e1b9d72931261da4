import { Route, Routes } from 'react-router';
import { Suspense } from 'react';
import { LOADING_TEXT } from '@uplift/platform';
import { LogoutRoute, RequireUplifter } from '../features/auth';
import { lazyNamed } from '../lib/lazy';
import { RemoteModule } from '../lib/remote';
import { Layout } from './layout';

// Pages few visitors open: fetched when they do.
const DashboardPage = lazyNamed(() => import('../features/dashboard/components/dashboard-page'), 'DashboardPage');
const ResetPasswordPage = lazyNamed(() => import('../features/auth/components/reset-password-page'), 'ResetPasswordPage');
const loading = <p>{LOADING_TEXT}</p>;

function NotFound() {
  return (
    <main className="u-page">
      <h1>Page not found</h1>
      <p>There is nothing at this address.</p>
    </main>
  );
}

/** The shell owns the router; each remote renders its own routes below its prefix. */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<RemoteModule remote="home" module="./App" />} />
        {/* Home's other pages; exposed separately so each keeps relative routes under its prefix. */}
        <Route path="ideas/*" element={<RemoteModule remote="home" module="./Ideas" />} />
        <Route path="website-score/*" element={<RemoteModule remote="home" module="./WebsiteScore" />} />
        <Route path="studio/*" element={<RemoteModule remote="home" module="./Studio" />} />
        <Route path="analytics/*" element={<RemoteModule remote="analytics" module="./App" />} />
        <Route path="connections/*" element={<RemoteModule remote="connections" module="./App" />} />
        <Route path="logout" element={<LogoutRoute />} />
        <Route
          path="reset-password"
          element={
            <Suspense fallback={loading}>
              <ResetPasswordPage />
            </Suspense>
          }
        />
        <Route
          path="dashboard"
          element={
            <RequireUplifter redirectTo="/">
              <Suspense fallback={loading}>
                <DashboardPage />
              </Suspense>
            </RequireUplifter>
          }
        />
        <Route path="*" element={<NotFound />} />
      </Route>
    </Routes>
  );
}
