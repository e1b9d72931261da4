/** Test helpers for the Connections page: a fake gateway on `fetch` and the page under a router. */
import type { QueryClient } from '@tanstack/react-query';
import { type Session } from '@uplift/platform';
import { fakeGateway, json, renderWithProviders, signedInAs, type GatewayRoute } from '@uplift/platform/testing';
import { ConnectionsPage } from './connections-page';

export const signedIn = signedInAs('u1');

export const CONNECTIONS = 'GET /internal/categories/cat1/connections';

/** The fake gateway with the signed-in user, whose category is cat1. */
export function gateway(routes: Record<string, GatewayRoute>) {
  return fakeGateway({ 'GET /internal/users/u1': () => json({ id: 'u1', categoryId: 'cat1' }), ...routes });
}

export function renderPage(path = '/connections', { session = signedIn, queryClient }: { session?: Session; queryClient?: QueryClient } = {}) {
  return renderWithProviders(<ConnectionsPage />, { path, route: 'connections', session, queryClient });
}
