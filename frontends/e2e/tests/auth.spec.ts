import { expect, test } from '@playwright/test';
import { createEmulatorUser, fillSignIn, freshEmail, openSignedOut, PASSWORD, signUpThroughUi } from './support';

test('sign up shows the email in the avatar menu, and Sign Out lands signed out', async ({ page }) => {
  const email = freshEmail('signup');
  await openSignedOut(page);

  await signUpThroughUi(page, email, PASSWORD);

  const menuButton = page.getByRole('button', { name: 'Open account menu' });
  await expect(page.getByRole('dialog')).toBeHidden();
  await menuButton.click();
  const menu = page.getByRole('menu');
  await expect(menu.getByText(email)).toBeVisible();

  await menu.getByRole('menuitem', { name: 'Sign Out' }).click();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(menuButton).toBeHidden();
});

test('signing in with a wrong password says so', async ({ page }) => {
  const email = freshEmail('wrongpw');
  await createEmulatorUser(page, email, PASSWORD);
  await openSignedOut(page);

  await fillSignIn(page, email, 'not-the-password');
  const dialog = page.getByRole('dialog', { name: 'Sign in' });
  await dialog.getByRole('button', { name: 'Sign in' }).click();

  await expect(dialog.getByRole('alert')).toHaveText('Invalid email or password.');
  await expect(dialog.getByRole('button', { name: 'Sign in' })).toBeEnabled();
});

test('signing in with an unknown email says no user exists', async ({ page }) => {
  await openSignedOut(page);

  await fillSignIn(page, freshEmail('unknown'), PASSWORD);
  const dialog = page.getByRole('dialog', { name: 'Sign in' });
  await dialog.getByRole('button', { name: 'Sign in' }).click();

  await expect(dialog.getByRole('alert')).toHaveText('No user exists with that email.');
});

test('Account Settings, from the avatar menu, shows the email', async ({ page }) => {
  const email = freshEmail('settings');
  await openSignedOut(page);
  await signUpThroughUi(page, email, PASSWORD);
  await page.getByRole('button', { name: 'Open account menu' }).click();
  await page.getByRole('menuitem', { name: 'Account Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Account Settings' });
  await expect(settings.getByText(email)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(settings).toBeHidden();
});
