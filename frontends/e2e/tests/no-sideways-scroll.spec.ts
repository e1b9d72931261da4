import { expect, test, type Page } from '@playwright/test';
import { freshEmail, importOrderExport, openSignedOut, orderExport, PASSWORD, signUpThroughUi } from './support';

/**
 * No page scrolls sideways at any width: every route at a
 * phone's 375 px and a laptop's 1280 px, signed out and signed in with store
 * data where the route shows some.
 */
const ROUTES = ['/', '/analytics', '/analytics?range=90d', '/connections', '/studio', '/website-score', '/ideas/unknown', '/reset-password', '/dashboard'];

async function expectNoSidewaysScroll(page: Page, who: string) {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    for (const route of ROUTES) {
      await page.goto(route);
      await expect(page.locator('main').first()).toBeVisible();
      // Late parts (the chart, the tables, the catalogue) settle first; the
      // event stream keeps the network busy, so wait for the spinners instead.
      await expect(page.locator('.u-spinner')).toHaveCount(0, { timeout: 30_000 });
      await page.waitForTimeout(300);
      const { scrollWidth, clientWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        clientWidth: document.documentElement.clientWidth,
      }));
      expect(scrollWidth, `${route} at ${width} px, ${who}: ${scrollWidth - clientWidth} px sideways`).toBeLessThanOrEqual(clientWidth);
    }
  }
}

test('no route scrolls sideways, signed out', async ({ page }) => {
  test.setTimeout(120_000);
  await openSignedOut(page);
  await expectNoSidewaysScroll(page, 'signed out');
});

test('no route scrolls sideways, signed in with store data', async ({ page }) => {
  test.setTimeout(240_000);
  await openSignedOut(page);
  await signUpThroughUi(page, freshEmail('no-sideways'), PASSWORD);
  // Long product names and 90 days of orders: the widest tables Analytics draws.
  const orders = Array.from({ length: 60 }, (_, i) => ({
    product: i % 2 ? 'Hand-finished cast-iron anvil with a hardy hole, 50 kg, oak stump included' : 'Mini jewellers anvil',
    price: i % 2 ? '1189.00' : '39.00',
    quantity: 1 + (i % 3),
    daysAgo: 1 + i,
  }));
  await importOrderExport(page, orderExport(orders));
  await expectNoSidewaysScroll(page, 'signed in');
});
