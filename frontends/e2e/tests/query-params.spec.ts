import { expect, test } from '@playwright/test';
import { freshEmail, openSignedOut, PASSWORD, signUpThroughUi } from './support';

/** The address parameters of spec section 2 and the route error view of section 8, through the real stack. */
const demoStoreUrl = process.env.UPLIFT_DEMO_STORE_URL || 'http://127.0.0.1:9400/';

test('?email= prefills Sign in, Sign up and Reset password', async ({ page }) => {
  await openSignedOut(page, '/?email=jane.doe%40example.com');
  await page.getByRole('button', { name: 'Sign in' }).click();
  const signIn = page.getByRole('dialog', { name: 'Sign in' });
  await expect(signIn.getByLabel('Email')).toHaveValue('jane.doe@example.com');
  await signIn.getByRole('button', { name: 'First time here?' }).click();
  await expect(page.getByRole('dialog', { name: 'Sign up' }).getByLabel('Email')).toHaveValue('jane.doe@example.com');
  await page.getByRole('button', { name: 'Already have an account?' }).click();
  await page.getByRole('button', { name: 'Forgot password?' }).click();
  await expect(page.getByRole('dialog', { name: 'Reset password' }).getByLabel('Email')).toHaveValue('jane.doe@example.com');
});

test('a visitor who scored their site and signs up lands with it saved and reviewed (?siteUrl=)', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto(`/website-score?url=${encodeURIComponent(demoStoreUrl)}`);
  await expect(page.getByRole('region', { name: /^Score for / }).getByLabel(/^Score \d+ out of 100$/)).toBeVisible({
    timeout: 45_000,
  });
  await page.getByRole('link', { name: 'Sign up for weekly reviews' }).click();
  await expect(page).toHaveURL(/siteUrl=/);
  const dialog = page.getByRole('dialog', { name: 'Sign up' });
  await dialog.getByLabel('Email').fill(freshEmail('siteurl'));
  await dialog.getByLabel('Password').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Sign up' }).click();

  // Saved without opening the Business profile, then reviewed on Home.
  await expect(page.getByRole('region', { name: 'Website score' }).getByLabel(/^Score \d+ out of 100$/)).toBeVisible({
    timeout: 60_000,
  });
  await expect(page).not.toHaveURL(/siteUrl=/);
  await page.getByRole('button', { name: 'Open account menu' }).click();
  await page.getByRole('menuitem', { name: 'Business profile' }).click();
  await expect(page.getByRole('dialog', { name: 'Business profile' }).getByRole('textbox', { name: 'Website' })).toHaveValue(
    demoStoreUrl,
  );
});

test('?product= is kept through sign-up and opens the product studio on that product', async ({ page }) => {
  await openSignedOut(page, '/?product=gid%3A%2F%2Fshopify%2FProduct%2F42');
  await signUpThroughUi(page, freshEmail('product'), PASSWORD);
  await expect(page).toHaveURL(/\/studio\?product=gid%3A%2F%2Fshopify%2FProduct%2F42$/);
  await expect(page.getByRole('heading', { name: 'Product studio', level: 1 })).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.getItem('pendingProduct'))).toBeNull();
});

test('a page that fails with an HTTP status shows the status and status text', async ({ page }) => {
  await openSignedOut(page);
  await signUpThroughUi(page, freshEmail('errorview'), PASSWORD);
  // A malformed idea id is a 400 from the categories service.
  await page.goto('/ideas/not-an-idea-id');
  await expect(page.getByRole('heading', { name: '400 Bad Request' })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText('ideaId is not a valid id.')).toBeVisible();
  // The rest of the app still works.
  await page.getByRole('link', { name: 'Go to Home' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: '400 Bad Request' })).toBeHidden();
});
