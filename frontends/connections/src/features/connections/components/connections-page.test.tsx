import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureHttp } from '@uplift/platform';
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
