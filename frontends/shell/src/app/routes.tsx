import { Route, Routes } from 'react-router';
import { Suspense } from 'react';
import { LOADING_TEXT } from '@uplift/platform';
import { LogoutRoute, RequireUplifter } from '../features/auth';
import { lazyNamed } from '../lib/lazy';
import { RemoteModule } from '../lib/remote';
import { Layout } from './layout';
import { REMOTE_PAGES } from './routes-config';

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
        {REMOTE_PAGES.map(({ path, remote, module }) =>
          path === '' ? (
            <Route key={path} index element={<RemoteModule remote={remote} module={module} />} />
          ) : (
            <Route key={path} path={`${path}/*`} element={<RemoteModule remote={remote} module={module} />} />
          ),
        )}
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
