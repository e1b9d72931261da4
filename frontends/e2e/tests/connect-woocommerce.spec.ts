import { expect, test, type Page } from '@playwright/test';
import { connectDemoWooStore, demoWooStore as demoStore, freshEmail, openSignedOut, PASSWORD, signUpThroughUi } from './support';

async function signUpAt(page: Page, path: string): Promise<void> {
  await openSignedOut(page, path);
  await signUpThroughUi(page, freshEmail('woo'), PASSWORD);
}

test('connect a WooCommerce store by its address, watch the import, then see its numbers in Analytics', async ({ page }) => {
  test.setTimeout(120_000);
  // The store's own name, as its WordPress index gives it without a key.
  const wpIndex = (await (await page.request.get(`${demoStore}/wp-json/`)).json()) as { name: string };
  expect(wpIndex.name).toBeTruthy();

  await signUpAt(page, '/connections');
  const card = page.getByRole('region', { name: 'WooCommerce' });
  await connectDemoWooStore(page);
  await expect(page.getByRole('status').filter({ hasText: /^Your WooCommerce store is connected/ })).toBeVisible();

  await expect(card.getByText('Connected', { exact: true })).toBeVisible();
  // Progress while the import runs (it may be over by the first look on a fast machine), then the last sync.
  const progress = card.getByRole('progressbar', { name: 'WooCommerce import progress' });
  const lastSynced = card.getByText(/^Last synced /);
  await expect(progress.or(lastSynced)).toBeVisible();
  await expect(lastSynced).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('status').filter({ hasText: 'Your WooCommerce store is connected and its orders are imported.' })).toBeVisible();
  await expect(card.getByText(wpIndex.name, { exact: true })).toBeVisible();
  await expect(card.getByText(/Currency: [A-Z]{3}/)).toBeVisible();
  await expect(card.getByText(/Time zone: /)).toBeVisible();
  // The store's size as stored, as Shopify's card says it: the demo store's orders, its products and customers.
  await expect(card.getByText(/^In Uplift: /)).toHaveText(/^In Uplift: [1-9][\d,]* orders · [1-9][\d,]* products · [1-9][\d,]* customers$/);
  await expect(progress).toHaveCount(0);

  await page.getByRole('link', { name: 'Analytics' }).first().click();
  await expect(page.getByRole('heading', { name: 'Analytics', level: 1 })).toBeVisible();
  await expect(page.getByText(/From your connected WooCommerce store/)).toBeVisible();
  await expect(page.getByText(/Shopify store/)).toHaveCount(0);
  // The last 30 days of a store with orders every day: sales and orders are not zero.
  await expect(page.getByRole('group', { name: 'Total sales' }).getByText(/[1-9][\d,]*\.\d\d/).first()).toBeVisible();
  await expect(page.getByRole('group', { name: 'Orders' }).getByText(/^[1-9][\d,]*$/).first()).toBeVisible();
});
