/** Test helpers for the Connections page: a fake gateway on `fetch` and the page under a router. */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation, useNavigationType } from 'react-router';
import { vi } from 'vitest';
import { SessionProvider, queryDefaults, type Session } from '@uplift/platform';
import { ConnectionsPage } from './connections-page';

export const signedIn: Session = {
  status: 'signedIn',
  user: { uid: 'u1', email: 'jane@example.com', displayName: null, photoURL: null },
};

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

export type Handler = (init: RequestInit | undefined) => Response | Promise<Response>;

export const CONNECTIONS = 'GET /internal/categories/cat1/connections';

/** A fake gateway: handlers keyed by "METHOD path"; the signed-in user's category is cat1. */
export function gateway(handlers: Record<string, Handler>) {
  const all: Record<string, Handler> = {
    'GET /internal/users/u1': () => json({ id: 'u1', categoryId: 'cat1' }),
    ...handlers,
  };
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const key = `${init?.method ?? 'GET'} ${new URL(String(input)).pathname}`;
    const handler = all[key];
    return handler ? handler(init) : json({ message: `unexpected ${key}` }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    fetchMock,
    /** The request inits of every call to `key` ("METHOD path"), in order. */
    calls: (key: string) =>
      fetchMock.mock.calls
        .filter(([input, init]) => `${init?.method ?? 'GET'} ${new URL(String(input)).pathname}` === key)
        .map(([, init]) => init),
  };
}

/** Where the router is, and how it got there (PUSH, REPLACE or POP). */
function LocationProbe() {
  const { pathname, search } = useLocation();
  const type = useNavigationType();
  return <div data-testid="location" data-navigation={type}>{`${pathname}${search}`}</div>;
}

export function renderPage(
  path = '/connections',
  { session = signedIn, queryClient = new QueryClient({ defaultOptions: queryDefaults }) } = {},
) {
  render(
    <QueryClientProvider client={queryClient}>
      <SessionProvider session={session}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route
              path="connections"
              element={
                <>
                  <ConnectionsPage />
                  <LocationProbe />
                </>
              }
            />
          </Routes>
        </MemoryRouter>
      </SessionProvider>
    </QueryClientProvider>,
  );
  return { queryClient };
}
