import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousViolations, freshEmail, openSignedOut, PASSWORD, signUpThroughUi } from './support';

/**
 * Accessibility: axe finds no serious or critical violation on
 * Home, Analytics, Connections, the website-score page and every dialog, and
 * the main flows work with the keyboard alone.
 */
const demoStoreUrl = process.env.UPLIFT_DEMO_STORE_URL || 'http://127.0.0.1:9400/';

async function openMenuDialog(page: Page, item: string) {
  await page.getByRole('button', { name: 'Open account menu' }).click();
  await page.getByRole('menuitem', { name: item }).click();
  const dialog = page.getByRole('dialog', { name: item === 'Upgrade plan' ? /plan/i : item });
  await expect(dialog).toBeVisible();
  return dialog;
}

test('signed out: the website-score page and the sign dialogs', async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto(`/website-score?url=${encodeURIComponent(demoStoreUrl)}`);
  await expect(page.getByRole('region', { name: /^Score for / })).toBeVisible({ timeout: 45_000 });
  await expectNoSeriousViolations(page, 'website score');

  await openSignedOut(page);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('dialog', { name: 'Sign in' })).toBeVisible();
  await expectNoSeriousViolations(page, 'Sign in dialog', '[role="dialog"]');
  await page.getByRole('button', { name: 'First time here?' }).click();
  await expect(page.getByRole('dialog', { name: 'Sign up' })).toBeVisible();
  await expectNoSeriousViolations(page, 'Sign up dialog', '[role="dialog"]');
  await page.getByRole('button', { name: 'Already have an account?' }).click();
  await page.getByRole('button', { name: 'Forgot password?' }).click();
  await expect(page.getByRole('dialog', { name: 'Reset password' })).toBeVisible();
  await expectNoSeriousViolations(page, 'Reset password dialog', '[role="dialog"]');
});

test('signed in: Home, Analytics, Connections and every menu dialog', async ({ page }) => {
  test.setTimeout(90_000);
  await openSignedOut(page);
  await signUpThroughUi(page, freshEmail('a11y'), PASSWORD);
  await expectNoSeriousViolations(page, 'Home');
  await page.goto('/analytics');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expectNoSeriousViolations(page, 'Analytics');
  await page.goto('/connections');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expectNoSeriousViolations(page, 'Connections');

  for (const item of ['Account Settings', 'Business profile', 'Upgrade plan']) {
    const dialog = await openMenuDialog(page, item);
    await page.waitForLoadState('networkidle');
    await expectNoSeriousViolations(page, `${item} dialog`, '[role="dialog"]');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  }
});

test('keyboard only: sign up, open the Business profile, save, close with Escape', async ({ page }) => {
  test.setTimeout(60_000);
  await openSignedOut(page);
  // Tab to 'Sign in' and open it with Enter.
  const signIn = page.getByRole('button', { name: 'Sign in' });
  for (let i = 0; i < 10 && !(await signIn.evaluate((el) => el === document.activeElement)); i++) {
    await page.keyboard.press('Tab');
  }
  await expect(signIn).toBeFocused();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Sign in' });
  await expect(dialog).toBeVisible();
  // Focus moved into the dialog; Tab reaches the toggle to Sign up.
  const toggle = dialog.getByRole('button', { name: 'First time here?' });
  for (let i = 0; i < 12 && !(await toggle.evaluate((el) => el === document.activeElement)); i++) {
    await page.keyboard.press('Tab');
  }
  await expect(toggle).toBeFocused();
  await page.keyboard.press('Enter');
  const signUp = page.getByRole('dialog', { name: 'Sign up' });
  const email = signUp.getByLabel('Email');
  for (let i = 0; i < 12 && !(await email.evaluate((el) => el === document.activeElement)); i++) {
    await page.keyboard.press('Tab');
  }
  await expect(email).toBeFocused();
  await page.keyboard.type(freshEmail('keyboard'));
  await page.keyboard.press('Tab');
  await expect(signUp.getByLabel('Password')).toBeFocused();
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press('Enter');
  const menu = page.getByRole('button', { name: 'Open account menu' });
  await expect(menu).toBeVisible();

  await menu.focus();
  await page.keyboard.press('Enter');
  const item = page.getByRole('menuitem', { name: 'Business profile' });
  for (let i = 0; i < 8 && !(await item.evaluate((el) => el === document.activeElement)); i++) {
    await page.keyboard.press('ArrowDown');
  }
  await expect(item).toBeFocused();
  await page.keyboard.press('Enter');
  const profile = page.getByRole('dialog', { name: 'Business profile' });
  await expect(profile.getByRole('textbox', { name: 'Name' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(profile).toBeHidden();
});

/**
 * Every dialog starts the focus on its first field or action, and Tab goes
 * through the form's fields and actions before the visible Close button,
 * which is the last stop; the focus never leaves the dialog for the page
 * behind it (after Close it comes back to the first field).
 */
async function expectCloseLastInTabOrder(page: Page, name: string | RegExp) {
  const dialog = page.getByRole('dialog', { name });
  await expect(dialog).toBeVisible();
  const close = dialog.getByRole('button', { name: 'Close' });
  // The stops a person can reach: enabled, visible, in the tab order.
  const stops = await dialog.evaluate((el) =>
    [...el.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, [tabindex]')]
      .filter((c) => c.tabIndex >= 0 && !(c as HTMLButtonElement).disabled && c.getClientRects().length > 0)
      .map((c) => c.getAttribute('aria-label') || c.id || c.textContent?.trim() || c.tagName),
  );
  expect(stops.length, `${String(name)}: its stops ${stops.join(', ')}`).toBeGreaterThan(1);
  const first = await dialog.evaluate((el) => {
    const a = document.activeElement as HTMLElement | null;
    return a && el.contains(a) ? a.getAttribute('aria-label') || a.id || a.textContent?.trim() || a.tagName : null;
  });
  expect(first, `${String(name)}: the focus starts on the first stop`).toBe(stops[0]);
  expect(first).not.toBe('Close');
  for (let i = 1; i < stops.length; i++) {
    await page.keyboard.press('Tab');
    const inside = await dialog.evaluate((el) => el.contains(document.activeElement));
    expect(inside, `${String(name)}: Tab ${i} left the dialog`).toBe(true);
  }
  await expect(close, `${String(name)}: Close is the last stop`).toBeFocused();
  await page.keyboard.press('Tab');
  expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  await expect(close).not.toBeFocused();
}

test('keyboard only: in every dialog the focus starts on the first field and Close is the last Tab stop', async ({ page }) => {
  test.setTimeout(90_000);
  await openSignedOut(page);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expectCloseLastInTabOrder(page, 'Sign in');
  await page.getByRole('dialog', { name: 'Sign in' }).getByRole('button', { name: 'Forgot password?' }).click();
  await expectCloseLastInTabOrder(page, 'Reset password');
  await page.keyboard.press('Escape');

  await signUpThroughUi(page, freshEmail('taborder'), PASSWORD);
  for (const item of ['Account Settings', 'Business profile', 'Upgrade plan']) {
    const dialog = await openMenuDialog(page, item);
    // The Business profile's form arrives after its reads: wait for its fields.
    await expect(dialog.getByRole('button').nth(1)).toBeVisible();
    if (item === 'Business profile') await expect(dialog.getByRole('textbox', { name: 'Name' })).toBeFocused();
    if (item === 'Upgrade plan') await expect(dialog.getByRole('region').first()).toBeVisible();
    await expectCloseLastInTabOrder(page, item === 'Upgrade plan' ? /plan/i : item);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  }
});
