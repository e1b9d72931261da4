import { expect, test, type Page } from '@playwright/test';
import { freshEmail, openSignedOut, PASSWORD, signUpThroughUi } from './support';

/** The local stack's demo shop, the demo tea shop's own. */
const demoShop = 'uplift-demo.myshopify.com';

async function connectDemoShop(page: Page) {
  await openSignedOut(page, '/connections');
  await signUpThroughUi(page, freshEmail('demo-shop'), PASSWORD);
  await page.getByLabel('Shop domain').fill(demoShop);
  await page.getByRole('button', { name: 'Connect Shopify' }).click();
  await page.getByRole('button', { name: 'Install app' }).click();
  await expect(page.getByRole('region', { name: 'Shopify' }).getByText(/Last synced/)).toBeVisible({ timeout: 150_000 });
}

/**
 * Two local accounts connect the demo shop in turn: the
 * second one's consent on Shopify proves the shop, so it moves there, and the
 * first account's Connections page says so and offers to connect it again.
 */
test('a second account connects the demo shop; the first is told it moved', async ({ page, browser }) => {
  test.setTimeout(360_000);
  await connectDemoShop(page);
  await expect(page.getByRole('region', { name: 'Shopify' }).getByText(/^In Uplift: [1-9]/)).toBeVisible();

  const other = await browser.newContext();
  const second = await other.newPage();
  await connectDemoShop(second);
  const card = second.getByRole('region', { name: 'Shopify' });
  await expect(card.getByText(demoShop).first()).toBeVisible();
  await expect(card.getByText(/^In Uplift: [1-9]/)).toBeVisible();
  await expect(second.getByText('This shop is already connected to another Uplift account.')).toHaveCount(0);
  await other.close();

  await page.reload();
  const first = page.getByRole('region', { name: 'Shopify' });
  await expect(first.getByRole('status')).toHaveText(/was connected by another Uplift account/);
  await expect(first.getByText(/^In Uplift: /)).toHaveCount(0);
  await expect(first.getByLabel('Shop domain')).toHaveValue(demoShop);
  await expect(first.getByRole('button', { name: 'Connect again' })).toBeVisible();
});
