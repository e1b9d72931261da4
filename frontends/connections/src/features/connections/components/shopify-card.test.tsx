import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  browser,
  configureHttp,
  type GetConnectionsResponseJson,
  type ShopifyConnectionJson,
  type SyncProgressJson,
} from '@uplift/platform';
import { describedBy, json } from '@uplift/platform/testing';
import { CONNECTIONS, gateway, renderPage } from './connections-test-kit';

const CONNECT = 'POST /internal/categories/cat1/connections/shopify';
const SYNC = 'POST /internal/categories/cat1/connections/shopify/sync';
const DISCONNECT = 'DELETE /internal/categories/cat1/connections/shopify';

const connected = (sync: SyncProgressJson, extra: ShopifyConnectionJson = {}): GetConnectionsResponseJson => ({
  shopify: {
    status: 'CONNECTED',
    shop: 'acme-anvils.myshopify.com',
    name: 'Acme Anvils',
    currency: 'EUR',
    timezone: 'Europe/Berlin',
    connectedAt: '2025-05-01T09:00:00Z',
    sync,
    ...extra,
  },
});

const card = () => screen.findByRole('region', { name: 'Shopify' });

describe('Shopify card', () => {
  let assign: ReturnType<typeof vi.spyOn>;

  beforeEach(() => {
    configureHttp({ baseUrl: 'http://gateway.test/' });
    assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
  });
  afterEach(() => vi.unstubAllGlobals());

  it('posts the shop domain, shows a busy button while waiting, then goes to the returned address', async () => {
    let answer!: (response: Response) => void;
    const api = gateway({
      [CONNECTIONS]: () => json({ shopify: { status: 'NOT_CONNECTED' } }),
      [CONNECT]: () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    renderPage();
    const shopify = await card();
    const input = within(shopify).getByLabelText('Shop domain');
    expect(input.getAttribute('placeholder')).toBe('your-store.myshopify.com');
    const button = within(shopify).getByRole('button', { name: 'Connect Shopify' });
    expect((button as HTMLButtonElement).disabled).toBe(true);

    await userEvent.type(input, '  acme-anvils.myshopify.com ');
    await userEvent.click(button);

    await waitFor(() => expect(api.calls(CONNECT)).toHaveLength(1));
    expect(JSON.parse(String(api.calls(CONNECT)[0]?.body))).toEqual({ shop: 'acme-anvils.myshopify.com' });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    expect(button.getAttribute('aria-busy')).toBe('true');
    expect(assign).not.toHaveBeenCalled();

    await act(async () => answer(json({ redirectUrl: 'https://acme-anvils.myshopify.com/admin/oauth/authorize?x=1' })));
    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith('https://acme-anvils.myshopify.com/admin/oauth/authorize?x=1'),
    );
  });

  it("shows the server's message in the card when the domain is refused, and stays on the page", async () => {
    gateway({
      [CONNECTIONS]: () => json({}),
      [CONNECT]: () => json({ message: 'acme.com is not a Shopify domain: use name.myshopify.com.', code: 3 }, 400),
    });
    renderPage();
    const shopify = await card();
    await userEvent.type(within(shopify).getByLabelText('Shop domain'), 'acme.com');
    await userEvent.click(within(shopify).getByRole('button', { name: 'Connect Shopify' }));
    expect((await within(shopify).findByRole('alert')).textContent).toBe(
      'acme.com is not a Shopify domain: use name.myshopify.com.',
    );
    // The message is the field's error: it describes the input and marks it invalid, until the domain is edited.
    const input = within(shopify).getByLabelText('Shop domain');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(input)).toEqual(['acme.com is not a Shopify domain: use name.myshopify.com.']);
    expect(assign).not.toHaveBeenCalled();
    expect((within(shopify).getByRole('button', { name: 'Connect Shopify' }) as HTMLButtonElement).disabled).toBe(false);
    await userEvent.clear(input);
    expect(input.hasAttribute('aria-invalid')).toBe(false);
    expect(within(shopify).queryByRole('alert')).toBeNull();
  });

  it('shows the shop and a progress bar with the stored counts while the first import runs, and refreshes until it is done', async () => {
    let polls = 0;
    const api = gateway({
      [CONNECTIONS]: () =>
        json(
          ++polls === 1
            ? connected({ phase: 'ORDERS', orders: 1200, percent: 40 }, { stored: { orders: 1200, products: 8, customers: 1 } })
            : connected(
                { phase: 'DONE', orders: 1500, products: 9, customers: 310, percent: 100, lastSyncedAt: new Date().toISOString() },
                { stored: { orders: 1500, products: 9, customers: 310 } },
              ),
        ),
    });
    renderPage();
    const shopify = await card();
    expect(within(shopify).getByText('Connected')).toBeTruthy();
    expect(within(shopify).getByText('Acme Anvils')).toBeTruthy();
    expect(within(shopify).getByText('acme-anvils.myshopify.com')).toBeTruthy();
    expect(within(shopify).getByText(/Currency: EUR/).textContent).toContain('Time zone: Europe/Berlin');

    const bar = within(shopify).getByRole('progressbar');
    expect(bar.getAttribute('aria-valuenow')).toBe('40');
    expect(within(shopify).getByText('In Uplift: 1,200 orders · 8 products · 1 customer')).toBeTruthy();
    expect(within(shopify).getByText(/Importing orders \(40%\)/)).toBeTruthy();
    expect((within(shopify).getByRole('button', { name: 'Sync now' }) as HTMLButtonElement).disabled).toBe(true);

    // The 2 s poll brings the finished sync; then the bar gives way to the last sync.
    expect(await within(shopify).findByText('Last synced just now', undefined, { timeout: 4_000 })).toBeTruthy();
    expect(within(shopify).queryByRole('progressbar')).toBeNull();
    expect(within(shopify).getByText('In Uplift: 1,500 orders · 9 products · 310 customers')).toBeTruthy();
    expect(api.calls(CONNECTIONS)).toHaveLength(2);
  });

  it("keeps the store's counts through a sync of what changed: never the sync's own", async () => {
    let polls = 0;
    const stored = { orders: 1500, products: 9, customers: 310 };
    gateway({
      [CONNECTIONS]: () =>
        json(
          ++polls === 1
            ? // A sync of what changed has brought in nothing yet, then one order.
              connected({ phase: 'ORDERS', percent: 50 }, { stored })
            : connected({ phase: 'DONE', orders: 1, percent: 100, lastSyncedAt: new Date().toISOString() }, { stored }),
        ),
    });
    renderPage();
    const shopify = await card();
    expect(within(shopify).getByRole('progressbar')).toBeTruthy();
    expect(within(shopify).getByText('In Uplift: 1,500 orders · 9 products · 310 customers')).toBeTruthy();
    expect(within(shopify).queryByText(/(?<![\d,])0 orders/)).toBeNull();
    expect(await within(shopify).findByText('Last synced just now', undefined, { timeout: 4_000 })).toBeTruthy();
    expect(within(shopify).getByText('In Uplift: 1,500 orders · 9 products · 310 customers')).toBeTruthy();
    expect(within(shopify).queryByText(/^In Uplift: 1 order/)).toBeNull();
  });

  it('says whether sessions and conversion rate are available', async () => {
    gateway({ [CONNECTIONS]: () => json(connected({ phase: 'DONE' }, { sessionsAvailable: true })) });
    renderPage();
    expect(await within(await card()).findByText('Sessions and conversion rate: available from Shopify.')).toBeTruthy();
  });

  it('syncs now on request and shows the queued sync', async () => {
    let synced = false;
    const api = gateway({
      [CONNECTIONS]: () =>
        json(synced ? connected({ phase: 'QUEUED' }) : connected({ phase: 'DONE', orders: 3, lastSyncedAt: '2020-01-01T00:00:00Z' })),
      [SYNC]: () => {
        synced = true;
        return json({});
      },
    });
    renderPage();
    const shopify = await card();
    await userEvent.click(within(shopify).getByRole('button', { name: 'Sync now' }));
    expect(await within(shopify).findByRole('progressbar')).toBeTruthy();
    expect(within(shopify).getByText(/Waiting to start/)).toBeTruthy();
    expect(api.calls(SYNC)).toHaveLength(1);
    expect(api.calls(SYNC)[0]?.body).toBe('{}');
  });

  it("shows why a sync failed and tries again with the sync call", async () => {
    const api = gateway({
      [CONNECTIONS]: () => json(connected({ phase: 'FAILED', error: 'Shopify refused the access token.' })),
      [SYNC]: () => json({}),
    });
    renderPage();
    const shopify = await card();
    expect((await within(shopify).findByRole('alert')).textContent).toBe('Shopify refused the access token.');
    await userEvent.click(within(shopify).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(api.calls(SYNC)).toHaveLength(1));
  });

  it('asks for confirmation before disconnecting, and only then calls DELETE', async () => {
    let disconnected = false;
    const api = gateway({
      [CONNECTIONS]: () => json(disconnected ? { shopify: { status: 'NOT_CONNECTED' } } : connected({ phase: 'DONE' })),
      [DISCONNECT]: () => {
        disconnected = true;
        return json({});
      },
    });
    renderPage();
    const shopify = await card();

    await userEvent.click(within(shopify).getByRole('button', { name: 'Disconnect' }));
    let dialog = screen.getByRole('dialog', { name: 'Disconnect Shopify?' });
    expect(dialog.textContent).toContain('The numbers already imported stay.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.calls(DISCONNECT)).toHaveLength(0);

    await userEvent.click(within(shopify).getByRole('button', { name: 'Disconnect' }));
    dialog = screen.getByRole('dialog', { name: 'Disconnect Shopify?' });
    expect(api.calls(DISCONNECT)).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Disconnect' }));

    await waitFor(() => expect(api.calls(DISCONNECT)).toHaveLength(1));
    expect(await within(shopify).findByRole('button', { name: 'Connect Shopify' })).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('says the app was uninstalled and offers to connect the same shop again', async () => {
    const api = gateway({
      [CONNECTIONS]: () => json({ shopify: { status: 'UNINSTALLED', shop: 'acme-anvils.myshopify.com', name: 'Acme Anvils' } }),
      [CONNECT]: () => json({ redirectUrl: 'https://shopify.test/approve' }),
    });
    renderPage();
    const shopify = await card();
    expect(within(shopify).getByText(/uninstalled from Acme Anvils on Shopify/)).toBeTruthy();
    expect((within(shopify).getByLabelText('Shop domain') as HTMLInputElement).value).toBe('acme-anvils.myshopify.com');
    await userEvent.click(within(shopify).getByRole('button', { name: 'Connect again' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://shopify.test/approve'));
    expect(JSON.parse(String(api.calls(CONNECT)[0]?.body))).toEqual({ shop: 'acme-anvils.myshopify.com' });
  });

  it('says the shop moved to another account and offers to connect it again', async () => {
    gateway({
      [CONNECTIONS]: () => json({ shopify: { status: 'MOVED', shop: 'acme-anvils.myshopify.com', name: 'Acme Anvils', stored: {} } }),
    });
    renderPage();
    const shopify = await card();
    expect(within(shopify).getByRole('status').textContent).toMatch(/^Acme Anvils was connected by another Uplift account/);
    expect(within(shopify).queryByText(/In Uplift: /)).toBeNull();
    expect((within(shopify).getByLabelText('Shop domain') as HTMLInputElement).value).toBe('acme-anvils.myshopify.com');
    expect(within(shopify).getByRole('button', { name: 'Connect again' })).toBeTruthy();
  });
});
