import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  browser,
  configureHttp,
  type GetConnectionsResponseJson,
  type SyncProgressJson,
  type WooCommerceConnectionJson,
} from '@uplift/platform';
import { describedBy, json } from '@uplift/platform/testing';
import { CONNECTIONS, gateway, renderPage } from './connections-test-kit';

const CONNECT = 'POST /internal/categories/cat1/connections/woocommerce';
const SYNC = 'POST /internal/categories/cat1/connections/woocommerce/sync';
const DISCONNECT = 'DELETE /internal/categories/cat1/connections/woocommerce';

const connected = (sync: SyncProgressJson, extra: WooCommerceConnectionJson = {}): GetConnectionsResponseJson => ({
  shopify: { status: 'NOT_CONNECTED' },
  woocommerce: {
    status: 'CONNECTED',
    storeUrl: 'https://fernhill.example',
    name: 'Fernhill Goods',
    currency: 'GBP',
    timezone: 'Europe/London',
    connectedAt: '2026-11-01T09:00:00Z',
    sync,
    ...extra,
  },
});

const card = () => screen.findByRole('region', { name: 'WooCommerce' });

describe('WooCommerce card', () => {
  let assign: ReturnType<typeof vi.spyOn>;

  beforeEach(() => {
    configureHttp({ baseUrl: 'http://gateway.test/' });
    assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
  });
  afterEach(() => vi.unstubAllGlobals());

  it("posts the store's address, shows a busy button while waiting, then goes to the store's approval page", async () => {
    let answer!: (response: Response) => void;
    const api = gateway({
      [CONNECTIONS]: () => json({ woocommerce: { status: 'NOT_CONNECTED' } }),
      [CONNECT]: () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    renderPage();
    const woo = await card();
    const input = within(woo).getByLabelText('Store address');
    expect(input.getAttribute('placeholder')).toBe('https://yourstore.com');
    const button = within(woo).getByRole('button', { name: 'Connect WooCommerce' });
    expect((button as HTMLButtonElement).disabled).toBe(true);

    await userEvent.type(input, '  https://fernhill.example ');
    await userEvent.click(button);

    await waitFor(() => expect(api.calls(CONNECT)).toHaveLength(1));
    expect(JSON.parse(String(api.calls(CONNECT)[0]?.body))).toEqual({ storeUrl: 'https://fernhill.example' });
    expect(button.getAttribute('aria-busy')).toBe('true');
    expect(assign).not.toHaveBeenCalled();

    await act(async () => answer(json({ redirectUrl: 'https://fernhill.example/wc-auth/v1/authorize?app_name=Uplift' })));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://fernhill.example/wc-auth/v1/authorize?app_name=Uplift'));
  });

  it("shows the server's 400 under the field, focused there, and stays on the page", async () => {
    const refusal = "Your store's address must start with https://. Uplift sends your store's keys only over a secure connection.";
    gateway({
      [CONNECTIONS]: () => json({}),
      [CONNECT]: () => json({ message: refusal, code: 3 }, 400),
    });
    renderPage();
    const woo = await card();
    const input = within(woo).getByLabelText('Store address');
    await userEvent.type(input, 'http://fernhill.example');
    await userEvent.click(within(woo).getByRole('button', { name: 'Connect WooCommerce' }));
    expect((await within(woo).findByRole('alert')).textContent).toBe(refusal);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(input)).toEqual([refusal]);
    await waitFor(() => expect(document.activeElement).toBe(input));
    expect(assign).not.toHaveBeenCalled();
    await userEvent.type(input, 'x');
    expect(input.hasAttribute('aria-invalid')).toBe(false);
    expect(within(woo).queryByRole('alert')).toBeNull();
  });

  it('says what went wrong when the server gives no address to go to', async () => {
    gateway({ [CONNECTIONS]: () => json({}), [CONNECT]: () => json({}) });
    renderPage();
    const woo = await card();
    await userEvent.type(within(woo).getByLabelText('Store address'), 'fernhill.example');
    await userEvent.click(within(woo).getByRole('button', { name: 'Connect WooCommerce' }));
    expect(await within(woo).findByRole('alert')).toBeTruthy();
    expect(assign).not.toHaveBeenCalled();
  });

  it("shows the store, its currency and zone and a progress bar beside the store's counts, until the import is done", async () => {
    let polls = 0;
    const api = gateway({
      [CONNECTIONS]: () =>
        json(
          ++polls === 1
            ? connected({ phase: 'ORDERS', orders: 600, percent: 35 }, { stored: { orders: 600, products: 24, customers: 310 } })
            : connected(
                { phase: 'DONE', orders: 1709, percent: 100, lastSyncedAt: new Date().toISOString() },
                { stored: { orders: 1651, products: 24, customers: 310 } },
              ),
        ),
    });
    renderPage();
    const woo = await card();
    expect(within(woo).getByText('Connected')).toBeTruthy();
    expect(within(woo).getByText('Fernhill Goods')).toBeTruthy();
    expect(within(woo).getByText('fernhill.example')).toBeTruthy();
    expect(within(woo).getByText(/Currency: GBP/).textContent).toContain('Time zone: Europe/London');
    expect(within(woo).getByRole('progressbar', { name: 'WooCommerce import progress' }).getAttribute('aria-valuenow')).toBe('35');
    expect(within(woo).getByText(/Importing orders and refunds \(35%\)/)).toBeTruthy();
    expect(within(woo).getByText('In Uplift: 600 orders · 24 products · 310 customers')).toBeTruthy();
    expect((within(woo).getByRole('button', { name: 'Sync now' }) as HTMLButtonElement).disabled).toBe(true);
    expect(within(woo).getByText('Sessions and conversion rate: not available, WooCommerce does not share them.')).toBeTruthy();

    expect(await within(woo).findByText('Last synced just now', undefined, { timeout: 4_000 })).toBeTruthy();
    expect(within(woo).queryByRole('progressbar')).toBeNull();
    // The store's counts as stored, not the sync's own 1,709 orders read.
    expect(within(woo).getByText('In Uplift: 1,651 orders · 24 products · 310 customers')).toBeTruthy();
    expect(api.calls(CONNECTIONS)).toHaveLength(2);
  });

  it("keeps the store's counts through a sync of what changed: never the sync's own", async () => {
    let polls = 0;
    const stored = { orders: 1651, products: 24, customers: 310 };
    gateway({
      [CONNECTIONS]: () =>
        json(
          ++polls === 1
            ? // A sync of what changed has read nothing yet, then two orders.
              connected({ phase: 'ORDERS', percent: 50, products: 24, customers: 310 }, { stored })
            : connected({ phase: 'DONE', orders: 2, percent: 100, lastSyncedAt: new Date().toISOString() }, { stored }),
        ),
    });
    renderPage();
    const woo = await card();
    expect(within(woo).getByRole('progressbar')).toBeTruthy();
    expect(within(woo).getByText('In Uplift: 1,651 orders · 24 products · 310 customers')).toBeTruthy();
    expect(within(woo).queryByText(/(?<![\d,])0 orders/)).toBeNull();
    expect(await within(woo).findByText('Last synced just now', undefined, { timeout: 4_000 })).toBeTruthy();
    expect(within(woo).getByText('In Uplift: 1,651 orders · 24 products · 310 customers')).toBeTruthy();
    expect(within(woo).queryByText(/^In Uplift: 2 orders/)).toBeNull();
  });

  it('says what is stored of a store with nothing in it yet, one of each in the singular', async () => {
    gateway({
      [CONNECTIONS]: () =>
        json(connected({ phase: 'DONE', lastSyncedAt: new Date().toISOString() }, { stored: { products: 1, customers: 1 } })),
    });
    renderPage();
    const woo = await card();
    expect(await within(woo).findByText('In Uplift: 0 orders · 1 product · 1 customer')).toBeTruthy();
  });

  it('says the sessions come from Google Analytics 4 when a GA4 property is connected, not that there are none', async () => {
    gateway({
      [CONNECTIONS]: () =>
        json({
          ...connected({ phase: 'DONE', lastSyncedAt: new Date().toISOString() }),
          ga4: { status: 'CONNECTED', propertyId: '420000001', propertyName: 'Fernhill - GA4', sessionsSource: 'ga4' },
        }),
    });
    renderPage();
    const woo = await card();
    expect(
      await within(woo).findByText('Sessions and conversion rate: from Google Analytics 4 (WooCommerce does not share them).'),
    ).toBeTruthy();
    expect(within(woo).queryByText(/not available/)).toBeNull();
  });

  it('syncs now on request and shows the queued sync', async () => {
    let synced = false;
    const api = gateway({
      [CONNECTIONS]: () => json(synced ? connected({ phase: 'QUEUED' }) : connected({ phase: 'DONE', lastSyncedAt: '2020-01-01T00:00:00Z' })),
      [SYNC]: () => {
        synced = true;
        return json({});
      },
    });
    renderPage();
    const woo = await card();
    await userEvent.click(within(woo).getByRole('button', { name: 'Sync now' }));
    expect(await within(woo).findByRole('progressbar')).toBeTruthy();
    expect(within(woo).getByText(/Waiting to start/)).toBeTruthy();
    expect(api.calls(SYNC)).toHaveLength(1);
  });

  it("shows the server's reason when Sync now is refused", async () => {
    gateway({
      [CONNECTIONS]: () => json(connected({ phase: 'DONE' })),
      [SYNC]: () => json({ message: 'No WooCommerce store is connected.' }, 412),
    });
    renderPage();
    const woo = await card();
    await userEvent.click(within(woo).getByRole('button', { name: 'Sync now' }));
    expect((await within(woo).findByRole('alert')).textContent).toContain('No WooCommerce store is connected.');
  });

  it('shows why a sync failed and tries again with the sync call', async () => {
    const api = gateway({
      [CONNECTIONS]: () => json(connected({ phase: 'FAILED', error: 'The store refused the API keys.' })),
      [SYNC]: () => json({}),
    });
    renderPage();
    const woo = await card();
    expect((await within(woo).findByRole('alert')).textContent).toBe('The store refused the API keys.');
    await userEvent.click(within(woo).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(api.calls(SYNC)).toHaveLength(1));
  });

  it('asks for confirmation, saying the imported numbers stay, before disconnecting', async () => {
    let disconnected = false;
    const api = gateway({
      [CONNECTIONS]: () => json(disconnected ? { woocommerce: { status: 'NOT_CONNECTED' } } : connected({ phase: 'DONE' })),
      [DISCONNECT]: () => {
        disconnected = true;
        return json({});
      },
    });
    renderPage();
    const woo = await card();

    await userEvent.click(within(woo).getByRole('button', { name: 'Disconnect' }));
    let dialog = screen.getByRole('dialog', { name: 'Disconnect WooCommerce?' });
    expect(dialog.textContent).toContain('Uplift stops syncing Fernhill Goods. The numbers already imported stay.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.calls(DISCONNECT)).toHaveLength(0);

    await userEvent.click(within(woo).getByRole('button', { name: 'Disconnect' }));
    dialog = screen.getByRole('dialog', { name: 'Disconnect WooCommerce?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Disconnect' }));
    await waitFor(() => expect(api.calls(DISCONNECT)).toHaveLength(1));
    expect(await within(woo).findByRole('button', { name: 'Connect WooCommerce' })).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("keeps the dialog open with the server's reason when the disconnect fails", async () => {
    gateway({
      [CONNECTIONS]: () => json(connected({ phase: 'DONE' })),
      [DISCONNECT]: () => json({ message: 'You may not change this business.' }, 403),
    });
    renderPage();
    const woo = await card();
    await userEvent.click(within(woo).getByRole('button', { name: 'Disconnect' }));
    const dialog = screen.getByRole('dialog', { name: 'Disconnect WooCommerce?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Disconnect' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain('You may not change this business.');
  });
});
