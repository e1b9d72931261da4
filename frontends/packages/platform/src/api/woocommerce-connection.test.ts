import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeGateway, json } from '../testing/fake-gateway';
import { disconnectWooCommerce } from './disconnect-woocommerce';
import { startWooCommerceConnect } from './start-woocommerce-connect';
import { syncWooCommerce } from './sync-woocommerce';

const BASE = '/internal/categories/cat1/connections/woocommerce';

afterEach(() => vi.unstubAllGlobals());

describe('the WooCommerce connection calls', () => {
  it('starts a connect with the address as typed and hands back where the browser goes', async () => {
    const gw = fakeGateway({ [`POST ${BASE}`]: () => json({ redirectUrl: 'https://shop.example/wc-auth/v1/authorize?x=1' }) });
    await expect(startWooCommerceConnect('cat1', 'shop.example')).resolves.toEqual({
      redirectUrl: 'https://shop.example/wc-auth/v1/authorize?x=1',
    });
    expect(JSON.parse(String(gw.calls(`POST ${BASE}`)[0]?.body))).toEqual({ storeUrl: 'shop.example' });
  });

  it("rejects with the server's 400 so the card can show it", async () => {
    fakeGateway({ [`POST ${BASE}`]: () => json({ message: "Enter your store's address, like https://your-store.com." }, 400) });
    await expect(startWooCommerceConnect('cat1', 'nope')).rejects.toMatchObject({ status: 400 });
  });

  it('syncs and disconnects on their own routes', async () => {
    const gw = fakeGateway({ [`POST ${BASE}/sync`]: () => json({}), [`DELETE ${BASE}`]: () => json({}) });
    await syncWooCommerce('cat1');
    await disconnectWooCommerce('cat1');
    expect(gw.calls(`POST ${BASE}/sync`)).toHaveLength(1);
    expect(gw.calls(`DELETE ${BASE}`)).toHaveLength(1);
  });
});
