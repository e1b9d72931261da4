import { expect, test } from '@playwright/test';
import { freshEmail, importOrderExport, openSignedOut, orderExport, PASSWORD, signUpThroughUi } from './support';

/** devstack's GA4 simulator's demo property (its days are the demo shop's, as GA4 counts them). */
const DEMO_PROPERTY = 'fernhilltea.example - GA4';

test('connect Google Analytics 4, pick the demo property, and see conversion from GA4 in Analytics', async ({ page }) => {
  test.setTimeout(120_000);
  await openSignedOut(page, '/connections');
  await signUpThroughUi(page, freshEmail('ga4'), PASSWORD);
  // A store without sessions: an order export (orders every few days of the last month).
  await importOrderExport(
    page,
    orderExport([1, 3, 6, 9, 12, 15, 18, 21, 24, 27].map((daysAgo) => ({ product: 'Sencha', price: '12.00', daysAgo }))),
  );

  // Without GA4, conversion is not available, and the page says how to get it.
  await page.getByRole('link', { name: 'Analytics' }).first().click();
  const conversion = page.getByRole('group', { name: 'Conversion rate' });
  await expect(conversion.getByText('Not available')).toBeVisible();
  await expect(conversion.getByText(/Connect Google Analytics 4 on Connections to get it/)).toBeVisible();

  await page.getByRole('link', { name: 'Connections' }).first().click();
  const card = page.getByRole('region', { name: 'Google Analytics 4' });
  await card.getByRole('button', { name: 'Connect with Google' }).click();

  // Google's consent (the simulator's page): the demo user, the read-only scope.
  await expect(page).toHaveURL(/\/o\/oauth2\/v2\/auth/);
  await expect(page.getByText('Uplift wants to access your Google Account.')).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page).toHaveURL(/\/connections$/);
  await expect(page.getByRole('status').filter({ hasText: 'Google Analytics 4 is connected.' })).toBeVisible();
  await card.getByRole('radio', { name: new RegExp(DEMO_PROPERTY) }).check();
  await card.getByRole('button', { name: 'Use this property' }).click();

  await expect(card.getByText('Connected', { exact: true })).toBeVisible();
  await expect(card.getByText(DEMO_PROPERTY, { exact: true })).toBeVisible();
  await expect(card.getByText(/^Last refreshed /)).toBeVisible({ timeout: 60_000 });
  await expect(card.getByText('Sessions and conversion rate in Analytics come from this property.')).toBeVisible();

  await page.getByRole('link', { name: 'Analytics' }).first().click();
  await expect(page.getByRole('heading', { name: 'Analytics', level: 1 })).toBeVisible();
  await expect(conversion.getByText(/^\d+\.\d\d\s?%$/)).toBeVisible();
  await expect(page.getByText(`Sessions and conversion rate come from Google Analytics 4 property ${DEMO_PROPERTY}.`)).toBeVisible();
  // GA4 counts the demo shop's purchases, not this export's ten orders: said plainly.
  await expect(page.getByText(/^Google Analytics 4 counted \d+ purchases in this range; the store recorded 10 orders\./)).toBeVisible();
  // The formula is GA4's.
  await conversion.getByRole('button', { name: /Conversion rate/ }).click();
  await expect(
    page.getByText(`Conversion rate = purchases ÷ sessions, both from Google Analytics 4 property ${DEMO_PROPERTY}`, { exact: false }).first(),
  ).toBeVisible();

  // Disconnect after a confirmation; the card offers to connect again.
  await page.getByRole('link', { name: 'Connections' }).first().click();
  await card.getByRole('button', { name: 'Disconnect' }).click();
  const dialog = page.getByRole('dialog', { name: 'Disconnect Google Analytics 4?' });
  await expect(dialog.getByText(/The sessions and purchases already read stay\./)).toBeVisible();
  await dialog.getByRole('button', { name: 'Disconnect' }).click();
  await expect(card.getByRole('button', { name: 'Connect with Google' })).toBeVisible();
});
