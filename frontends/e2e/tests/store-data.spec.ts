import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { freshEmail, openSignedOut, PASSWORD, seedShop, signUpThroughUi } from './support';

/** The real order export of the shared corpus, read in place. */
function corpusExport(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const rel = 'shared/corpus/orders/orders_export_1.csv';
  const found = [resolve(here, '../../../..', rel), resolve('/work', rel)].find((p) => existsSync(p));
  if (!found) throw new Error(`the real order export ${rel} is missing`);
  return readFileSync(found, 'utf8');
}

async function signUpAt(page: Page, path: string): Promise<void> {
  await openSignedOut(page, path);
  await signUpThroughUi(page, freshEmail('store'), PASSWORD);
}

test('connect a Shopify shop, watch the import, then see Analytics and the daily report', async ({ page }) => {
  test.setTimeout(120_000);
  const shop = await seedShop(page);
  await signUpAt(page, '/connections');

  await page.getByLabel('Shop domain').fill(shop.domain);
  await page.getByRole('button', { name: 'Connect Shopify' }).click();

  // Shopify's consent page (the simulator's), then back to Connections.
  await expect(page.getByRole('button', { name: 'Install app' })).toBeVisible();
  await page.getByRole('button', { name: 'Install app' }).click();
  await expect(page).toHaveURL(/\/connections/);
  await expect(page.getByText('Your Shopify store is connected.')).toBeVisible();
  await expect(page.getByRole('progressbar', { name: 'Shopify import progress' })).toBeVisible();

  const card = page.getByRole('region', { name: 'Shopify' });
  await expect(card.getByText('Connected', { exact: true })).toBeVisible();
  // The shop's name and zone arrive with the import's first step, which the
  // injected slow answers delay: wait for the import, then read them.
  await expect(card.getByText(/Last synced/)).toBeVisible({ timeout: 60_000 });
  // The note that announced the import says it has ended.
  await expect(page.getByRole('status').filter({ hasText: 'Your Shopify store is connected and its orders are imported.' })).toBeVisible();
  await expect(page.getByText('Importing your orders…')).toHaveCount(0);
  await expect(card.getByText(shop.name)).toBeVisible();
  await expect(card.getByText('America/New_York')).toBeVisible();
  await expect(card.getByText(/\d[\d,]* orders/)).toBeVisible();
  await expect(page.getByRole('progressbar')).toHaveCount(0);

  await page.getByRole('link', { name: 'Analytics' }).first().click();
  await expect(page.getByRole('heading', { name: 'Analytics', level: 1 })).toBeVisible();
  await expect(page.getByText('Daily sales and orders')).toBeVisible();
  // The plot arrives in a chunk of its own once there are numbers to draw.
  await expect(page.getByRole('figure', { name: 'Daily sales and orders' }).locator('svg.recharts-surface').first()).toBeVisible();
  // The last 30 days of a shop with daily orders: every headline has a value.
  const totalSales = page.getByRole('group', { name: 'Total sales' });
  await expect(totalSales.getByText(/\$[1-9][\d,]*\.\d\d/)).toBeVisible();
  await expect(page.getByRole('group', { name: 'Conversion rate' }).getByText(/\d+\.\d+\s?%/).first()).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Top products by net sales' })).toBeVisible();
  await expect(page.getByRole('table').first().getByRole('row')).toHaveCount(32); // a header, 30 days and the total

  // Every metric says how it is counted.
  await page.getByRole('button', { name: 'How Net sales is counted' }).first().hover();
  await expect(page.getByRole('tooltip')).toHaveText('Net sales = gross sales − discounts − returns');

  await page.getByRole('link', { name: 'Home' }).first().click();
  await expect(page.getByRole('heading', { name: /^Yesterday \([A-Z][a-z]{2} \d{1,2}, \d{4}\)$/ })).toBeVisible();
  await expect(page.getByText(/Best seller: /)).toBeVisible();
});

test('signed out, Analytics asks to sign in, as Connections does', async ({ page }) => {
  await openSignedOut(page, '/analytics');
  await expect(page.getByRole('heading', { name: "Sign in to see your store's numbers" })).toBeVisible();
  await expect(page.getByText('Your account is still being set up')).toHaveCount(0);
  await page.getByRole('link', { name: 'Connections' }).first().click();
  await expect(page.getByRole('heading', { name: 'Sign in to connect your store' })).toBeVisible();
});

test('import an order export, see its numbers, and a bad file names the row and column', async ({ page }) => {
  const csv = corpusExport();
  await signUpAt(page, '/connections');

  // A bad file first: it imports nothing and says where the problem is.
  const lines = csv.split('\n');
  lines[29] = lines[29]!.replace('2025-12-06 ', '2025-13-06 ');
  const fileInput = page.getByLabel('Order export (CSV)');
  await fileInput.setInputFiles({ name: 'orders_bad.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n')) });
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('Row 30, column "Created at"');

  await fileInput.setInputFiles({ name: 'orders_export_1.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(page.getByText('Imported 51 orders from Dec 6, 2025 to Dec 6, 2025 (INR)')).toBeVisible();

  // The corpus README's totals: 51 orders, gross sales 585942.00, no discounts.
  await page.goto('/analytics?range=custom&from=2025-12-06&to=2025-12-06');
  await expect(page.getByRole('group', { name: 'Orders' }).getByText('51', { exact: true })).toBeVisible();
  const day = page.getByRole('row', { name: /Dec 6, 2025/ });
  await expect(day).toContainText('585,942.00');
});
