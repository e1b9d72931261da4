import { expect, test } from '@playwright/test';
import { freshEmail, openSignedOut, PASSWORD, signUpThroughUi } from './support';

/**
 * The secure refresh-token cookie of spec section 3, in a real browser against the Auth emulator: set by the
 * gateway, HttpOnly, so the page's scripts cannot read it.
 */
test('the refresh-token cookie is set secure and HttpOnly on sign-in and cleared on sign-out', async ({ page, context }) => {
  await openSignedOut(page);
  expect((await context.cookies()).find((c) => c.name === 'refresh-token')).toBeUndefined();
  await signUpThroughUi(page, freshEmail('cookie'), PASSWORD);

  await expect.poll(async () => (await context.cookies()).find((c) => c.name === 'refresh-token')?.value ?? '').not.toBe('');
  const cookie = (await context.cookies()).find((c) => c.name === 'refresh-token')!;
  expect(cookie.secure).toBe(true);
  expect(cookie.sameSite).toBe('Strict');
  expect(cookie.path).toBe('/session/refreshToken');
  expect(cookie.httpOnly).toBe(true);
  expect(await page.evaluate(() => document.cookie)).not.toContain('refresh-token');

  await page.getByRole('button', { name: 'Open account menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign Out' }).click();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expect.poll(async () => (await context.cookies()).find((c) => c.name === 'refresh-token')).toBeUndefined();
});
