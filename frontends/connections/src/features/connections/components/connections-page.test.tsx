import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { categoryKeys, configureHttp } from '@uplift/platform';
import { json } from '@uplift/platform/testing';
import { CONNECTIONS, gateway, renderPage } from './connections-test-kit';

describe('ConnectionsPage', () => {
  beforeEach(() => configureHttp({ baseUrl: 'http://gateway.test/' }));
  afterEach(() => vi.unstubAllGlobals());

  it('sets the title and shows both cards under their headings', async () => {
    gateway({ [CONNECTIONS]: () => json({}) });
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Connections' })).toBeTruthy();
    expect(await screen.findByRole('heading', { level: 2, name: 'Shopify' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Import an order export' })).toBeTruthy();
    // WooCommerce's card comes right after Shopify's.
    const headings = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(headings.slice(0, 3)).toEqual(['Shopify', 'WooCommerce', 'Import an order export']);
    expect(screen.getByText(/^Supported: Shopify \(orders, products, customers and sessions\), WooCommerce/)).toBeTruthy();
    expect(document.title).toBe('Connections · Uplift');
  });

  it("shows Shopify's error from the return address, drops the parameters without a new entry, and can be dismissed", async () => {
    gateway({ [CONNECTIONS]: () => json({ shopify: { status: 'NOT_CONNECTED' } }) });
    const message = 'Uplift needs permission to read read_orders. Please approve all requested permissions.';
    const page = renderPage(`/connections?tab=1&shopify=error&message=${encodeURIComponent(message)}`);

    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain(message);
    await waitFor(() => expect(page.location()).toBe('/connections?tab=1'));
    expect(page.navigationType()).toBe('REPLACE');
    // Still shown once the address no longer carries it.
    expect(screen.getByText(message)).toBeTruthy();

    await userEvent.click(within(alert).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText(message)).toBeNull();
  });

  it('confirms the connection on return from Shopify', async () => {
    gateway({
      [CONNECTIONS]: () => json({ shopify: { status: 'CONNECTED', shop: 'acme.myshopify.com', sync: { phase: 'QUEUED' } } }),
    });
    const page = renderPage('/connections?shopify=connected');
    expect(screen.getByRole('status').textContent).toContain('Your Shopify store is connected. Importing your orders…');
    await waitFor(() => expect(page.location()).toBe('/connections'));
    expect(await screen.findByRole('progressbar')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText(/Your Shopify store is connected/)).toBeNull();
  });

  it('says the orders are imported once the import it announced has ended', async () => {
    let phase = 'ORDERS';
    gateway({
      [CONNECTIONS]: () =>
        json({ shopify: { status: 'CONNECTED', shop: 'acme.myshopify.com', sync: { phase, percent: phase === 'DONE' ? 100 : 40 } } }),
    });
    renderPage('/connections?shopify=connected');
    expect(screen.getByRole('status').textContent).toContain('Importing your orders…');
    expect(await screen.findByRole('progressbar')).toBeTruthy();
    phase = 'DONE';
    // The page polls while the sync runs (every 2 s); the note follows it.
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('Your Shopify store is connected and its orders are imported.'), {
      timeout: 5_000,
    });
    expect(screen.queryByText(/Importing your orders/)).toBeNull();
  });

  it('confirms the WooCommerce connection on return from the store, then says when its orders are imported', async () => {
    let phase = 'QUEUED';
    gateway({
      [CONNECTIONS]: () =>
        json({ woocommerce: { status: 'CONNECTED', storeUrl: 'https://fernhill.example', sync: { phase, percent: phase === 'DONE' ? 100 : 10 } } }),
    });
    const page = renderPage('/connections?woocommerce=connected');
    expect(screen.getByRole('status').textContent).toContain('Your WooCommerce store is connected. Importing your orders…');
    await waitFor(() => expect(page.location()).toBe('/connections'));
    expect(page.navigationType()).toBe('REPLACE');
    expect(await screen.findByRole('progressbar')).toBeTruthy();
    phase = 'DONE';
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('Your WooCommerce store is connected and its orders are imported.'), {
      timeout: 5_000,
    });
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText(/Your WooCommerce store is connected/)).toBeNull();
  });

  it("shows WooCommerce's error from the return address and drops the parameters", async () => {
    gateway({ [CONNECTIONS]: () => json({}) });
    const message = 'You did not approve Uplift on your store. Connect again to try once more.';
    const page = renderPage(`/connections?woocommerce=error&message=${encodeURIComponent(message)}`);
    expect(screen.getByRole('alert').textContent).toContain(message);
    await waitFor(() => expect(page.location()).toBe('/connections'));
    expect(screen.getByText(message)).toBeTruthy();
  });

  it('refreshes the numbers cached elsewhere when a WooCommerce sync ends', async () => {
    let phase = 'ORDERS';
    const api = gateway({
      [CONNECTIONS]: () => json({ woocommerce: { status: 'CONNECTED', storeUrl: 'https://fernhill.example', sync: { phase } } }),
      'GET /internal/categories/cat1/business-data/metrics': () => json({ source: 'woocommerce' }),
    });
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const metricsKey = [...categoryKeys.detail('cat1'), 'metrics'];
    renderPage('/connections', { queryClient });
    expect(await screen.findByRole('progressbar')).toBeTruthy();
    await queryClient.prefetchQuery({ queryKey: metricsKey, queryFn: () => 'before', staleTime: Infinity });
    expect(queryClient.getQueryState(metricsKey)?.isInvalidated).toBe(false);
    phase = 'DONE';
    await waitFor(() => expect(queryClient.getQueryState(metricsKey)?.isInvalidated).toBe(true), { timeout: 5_000 });
    expect(api.calls(CONNECTIONS).length).toBeGreaterThanOrEqual(2);
  });

  it("shows why the connections could not load", async () => {
    gateway({ [CONNECTIONS]: () => json({ message: 'You may not see this business.' }, 403) });
    renderPage();
    expect((await screen.findByRole('alert')).textContent).toContain('You may not see this business.');
    expect(screen.queryByRole('region', { name: 'Shopify' })).toBeNull();
  });

  it('asks visitors to sign in and calls nothing', () => {
    const api = gateway({});
    renderPage('/connections', { session: { status: 'signedOut', user: null } });
    expect(screen.getByRole('heading', { name: 'Sign in to connect your store' })).toBeTruthy();
    expect(api.fetchMock).not.toHaveBeenCalled();
  });
});
