/** Test helpers for the Connections page: a fake gateway on `fetch` and the page under a router. */
import type { QueryClient } from '@tanstack/react-query';
import { vi } from 'vitest';
import { type Session } from '@uplift/platform';
import { renderWithProviders, signedInAs } from '@uplift/platform/testing';
import { ConnectionsPage } from './connections-page';

export const signedIn = signedInAs('u1');

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

export function renderPage(path = '/connections', { session = signedIn, queryClient }: { session?: Session; queryClient?: QueryClient } = {}) {
  return renderWithProviders(<ConnectionsPage />, { path, route: 'connections', session, queryClient });
}
