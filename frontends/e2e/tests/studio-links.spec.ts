import { expect, test } from '@playwright/test';
import { demoStoreUrl, freshEmail, importOrderExport, openSignedOut, orderExport, PASSWORD, saveWebsite, signUpThroughUi } from './support';

/**
 * The studio is found from the app, not only by typing /studio: the avatar menu, Home,
 * the plan dialog that sells it, and every place that names a product, each
 * link carrying ?product= to the product it names.
 */
test('the studio is reached from the avatar menu, Home and the plan dialog', async ({ page }) => {
  await openSignedOut(page);
  await signUpThroughUi(page, freshEmail('studio-find'), PASSWORD);

  await page.getByRole('button', { name: 'Open account menu' }).click();
  await page.getByRole('menuitem', { name: 'Studio' }).click();
  await expect(page).toHaveURL(/\/studio$/);
  await expect(page.getByRole('heading', { name: 'Product studio', level: 1 })).toBeVisible();

  await page.getByRole('link', { name: 'Home' }).first().click();
  const card = page.getByRole('region', { name: 'Studio' });
  await card.getByRole('link', { name: 'Open the Studio' }).click();
  await expect(page).toHaveURL(/\/studio$/);

  await page.getByRole('button', { name: 'Open account menu' }).click();
  await page.getByRole('menuitem', { name: 'Upgrade plan' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upgrade plan' });
  await dialog.getByRole('link', { name: 'Studio' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/studio$/);
});

test("'Make a studio photo' on top products, the best seller and an idea opens that product in the studio", async ({ page }) => {
  test.setTimeout(150_000);
  await openSignedOut(page);
  await signUpThroughUi(page, freshEmail('studio-links'), PASSWORD);
  await saveWebsite(page, demoStoreUrl);
  // Orders know a product by its title only: the demo tea shop's Morning Assam.
  await importOrderExport(
    page,
    orderExport([
      { product: 'Morning Assam', price: '14.50', quantity: 3, daysAgo: 1 },
      { product: 'Morning Assam', price: '14.50', quantity: 2, daysAgo: 3 },
      { product: 'Jasmine Pearls', price: '26.00', daysAgo: 4 },
    ]),
  );

  await page.goto('/analytics');
  const top = page.getByRole('region', { name: 'Top products by net sales' });
  const link = top.getByRole('link', { name: 'Make a studio photo of Morning Assam' });
  await expect(link).toHaveAttribute('href', '/studio?product=Morning%20Assam');
  await link.click();
  await expect(page).toHaveURL(/\/studio\?product=Morning%20Assam$/);
  await expect(page.getByText(/Selected: Morning Assam \(800×800\), from your catalogue/)).toBeVisible({ timeout: 30_000 });
  // The picker shows the product it found.
  await expect(page.getByLabel('Or pick a product from your website')).toHaveValue('MORNING-ASSAM');

  // Home's daily report names yesterday's best seller.
  await page.goto('/');
  await expect(page.getByText(/^Best seller: Morning Assam/)).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('link', { name: 'Make a studio photo of Morning Assam' })).toHaveAttribute('href', '/studio?product=Morning%20Assam');

  // An idea page names its products, each with the link.
  const idea = page.getByRole('region', { name: 'Campaign ideas' }).getByRole('link').first();
  await expect(idea).toBeVisible({ timeout: 60_000 });
  await idea.click();
  const products = page.getByRole('region', { name: 'Products to feature' });
  const first = products.getByRole('listitem').first();
  await expect(first.getByRole('link', { name: /^Make a studio photo of / })).toHaveAttribute('href', /^\/studio\?product=/);

  // A name the website does not list is said so, with the picker and the upload still there.
  await page.goto('/studio?product=Earl%20Grey');
  await expect(page.getByRole('alert')).toContainText('“Earl Grey” is not among the products on your website.');
  await expect(page.getByLabel('Upload a product photo (JPEG, PNG or WebP, up to 25 MB)')).toBeVisible();
});
