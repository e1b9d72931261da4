import { expect, test } from '@playwright/test';
import { openSignedOut } from './support';

test.describe('on a narrow screen', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('shows the bottom navigation bar instead of the top links', async ({ page }) => {
    await openSignedOut(page);

    const bottom = page.getByRole('navigation', { name: 'Bottom navigation' });
    await expect(bottom).toBeVisible();
    for (const name of ['Home', 'Analytics', 'Connections']) {
      await expect(bottom.getByRole('link', { name })).toBeVisible();
    }
    await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeHidden();

    await bottom.getByRole('link', { name: 'Analytics' }).click();
    await expect(page).toHaveURL(/\/analytics$/);
    await expect(bottom.getByRole('link', { name: 'Analytics' })).toHaveAttribute('aria-current', 'page');
  });
});

test('on a wide screen the top links navigate and highlight the active page', async ({ page }) => {
  await openSignedOut(page);
  const main = page.getByRole('navigation', { name: 'Main navigation' });
  await expect(page.getByRole('navigation', { name: 'Bottom navigation' })).toBeHidden();

  await main.getByRole('link', { name: 'Connections' }).click();
  await expect(page.getByRole('heading', { name: 'Connections', level: 1 })).toBeVisible();
  await expect(main.getByRole('link', { name: 'Connections' })).toHaveAttribute('aria-current', 'page');
  await expect(main.getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current', 'page');
});

test('a remote that fails to load shows an error card; the rest keeps working', async ({ page, baseURL }) => {
  // The analytics remote is served two ports after the shell (serve.mjs).
  const analyticsPort = `:${Number(new URL(baseURL!).port) + 2}/`;
  await page.route('**/remoteEntry.js', (route) =>
    route.request().url().includes(analyticsPort) || route.request().url().includes('analytics')
      ? route.abort()
      : route.continue(),
  );
  await openSignedOut(page, '/analytics');

  await expect(page.getByRole('alert').filter({ hasText: 'Analytics could not be loaded' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();

  const main = page.getByRole('navigation', { name: 'Main navigation' });
  await main.getByRole('link', { name: 'Home' }).click();
  // Signed out, Home is the landing page.
  await expect(page.getByRole('heading', { name: 'Grow your store the easy way', level: 1 })).toBeVisible();
  await expect(main.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
});
