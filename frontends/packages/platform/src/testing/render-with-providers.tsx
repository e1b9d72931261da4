/**
 * The one way a unit test renders a component: inside the providers the shell
 * gives every page (query client, session, widget settings, account security,
 * router), so a test sees what the app sees (exported with the other test
 * helpers as `@uplift/platform/testing`).
 */
import type { ComponentType, ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, renderHook, type RenderResult } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation, useNavigationType, type NavigationType } from 'react-router';
import { AccountSecurityProvider, type AccountSecurity } from '../auth/account-security';
import { SessionProvider, type Session } from '../auth/session';
import { queryDefaults } from '../query/query-defaults';
import { WidgetSettingsProvider, type WidgetSettings } from '../third-party/widget-settings';

export interface RenderOptions {
  /** Where the router starts; '/' unless told. */
  path?: string;
  /** The route pattern the element is mounted at, for its `useParams`; every path unless told. */
  route?: string;
  /** Other pages (route pattern → element), for a test that follows a link or a redirect. */
  routes?: Record<string, ReactNode>;
  /** Signed out unless told. */
  session?: Session;
  /** The app's query defaults unless told (pass one to seed its cache or change its retries). */
  queryClient?: QueryClient;
  widgets?: WidgetSettings;
  accountSecurity?: AccountSecurity;
  /** An app's own providers (the shell's configuration, auth actions), inside the platform's and outside the router. */
  wrapper?: ComponentType<{ children: ReactNode }>;
}

export interface Rendered extends RenderResult {
  queryClient: QueryClient;
  user: ReturnType<typeof userEvent.setup>;
  /** The router's address now: pathname and search. */
  location: () => string;
  /** How the router got there: PUSH, REPLACE or POP. */
  navigationType: () => NavigationType;
}

export const signedOut: Session = { status: 'signedOut', user: null };

/** A signed-in session for the user `uid` (jane@example.com unless told). */
export function signedInAs(uid: string, email = 'jane@example.com'): Session {
  return { status: 'signedIn', user: { uid, email, displayName: null, photoURL: null } };
}

export function testQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: queryDefaults });
}

/** Records where the router is, without putting anything on the page. */
function LocationProbe({ into }: { into: Where }) {
  const { pathname, search } = useLocation();
  into.location = `${pathname}${search}`;
  into.type = useNavigationType();
  return null;
}

interface Where {
  location: string;
  type: NavigationType;
}

/** The providers around whatever is rendered, and where its router is. */
function providers(options: RenderOptions) {
  const { path = '/', session = signedOut, queryClient = testQueryClient(), widgets = {}, accountSecurity, wrapper: Wrapper } = options;
  const where: Where = { location: path, type: 'POP' as NavigationType };
  function Providers({ children }: { children: ReactNode }) {
    let tree = (
      <MemoryRouter initialEntries={[path]}>
        {children}
        <LocationProbe into={where} />
      </MemoryRouter>
    );
    if (accountSecurity) tree = <AccountSecurityProvider value={accountSecurity}>{tree}</AccountSecurityProvider>;
    if (Wrapper) tree = <Wrapper>{tree}</Wrapper>;
    return (
      <QueryClientProvider client={queryClient}>
        <SessionProvider session={session}>
          <WidgetSettingsProvider value={widgets}>{tree}</WidgetSettingsProvider>
        </SessionProvider>
      </QueryClientProvider>
    );
  }
  return {
    wrapper: Providers,
    extras: {
      queryClient,
      location: () => where.location,
      navigationType: () => where.type,
    },
  };
}

export function renderWithProviders(ui: ReactNode, options: RenderOptions = {}): Rendered {
  const { route = '*', routes = {} } = options;
  const { wrapper, extras } = providers(options);
  const result = render(
    <Routes>
      <Route path={route} element={ui} />
      {Object.entries(routes).map(([pattern, element]) => (
        <Route key={pattern} path={pattern} element={element} />
      ))}
    </Routes>,
    { wrapper },
  );
  return { ...result, ...extras, user: userEvent.setup() };
}

/** A hook under the same providers (its component sits inside the router, outside any route). */
export function renderHookWithProviders<Result>(hook: () => Result, options: Omit<RenderOptions, 'route' | 'routes'> = {}) {
  const { wrapper, extras } = providers(options);
  return { ...renderHook(hook, { wrapper }), ...extras };
}
