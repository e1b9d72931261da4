import { expect, test } from '@playwright/test';
import { freshEmail, openSignedOut, PASSWORD, signUpThroughUi } from './support';

/**
 * The customer reviews and identity verification widgets. The
 * local stack turns both on with fake settings; their third-party scripts
 * are stubbed at the network layer, and the identity session comes from the
 * billing service through stripe-mock, opened on the local test stack's
 * stand-in for Stripe's hosted page.
 */
const TRUSTBOX_STUB = `window.Trustpilot = {
  loadFromElement: function (element) {
    window.__trustbox = { unit: element.dataset.businessunitId, template: element.dataset.templateId };
    element.textContent = 'Rated 4.8 out of 5 by store owners';
  }
};`;

test('the reviews widget on /website-score: its script only near the screen, its box filled by it', async ({ page }) => {
  const requested: string[] = [];
  await page.route('https://widget.trustpilot.com/**', (route) => {
    requested.push(route.request().url());
    return route.fulfill({ contentType: 'text/javascript', body: TRUSTBOX_STUB });
  });
  // A window short enough that the reviews box starts below the fold (and its 100 px margin).
  await page.setViewportSize({ width: 1280, height: 800 });
  await openSignedOut(page, '/website-score');
  const reviews = page.getByRole('region', { name: 'Customer reviews' });
  await expect(reviews).toHaveCount(1);
  const top = await reviews.evaluate((element) => element.getBoundingClientRect().top);
  await page.setViewportSize({ width: 1280, height: Math.max(120, Math.floor(top - 160)) });
  requested.length = 0; // the tall window's load fetched it; count from the short one's
  await page.reload();
  await expect(reviews).toHaveCount(1);
  await page.waitForTimeout(800);
  expect(requested).toEqual([]); // below the fold: not fetched yet

  await reviews.scrollIntoViewIfNeeded();
  await expect(reviews.getByText('Rated 4.8 out of 5 by store owners')).toBeVisible();
  expect(requested).toEqual(['https://widget.trustpilot.com/bootstrap/v5/tp.widget.bootstrap.min.js']);
  const env = await page.evaluate(() => (window as unknown as { __UPLIFT_ENV__: Record<string, string> }).__UPLIFT_ENV__);
  expect(await page.evaluate(() => (window as unknown as { __trustbox: unknown }).__trustbox)).toEqual({
    unit: env.reviewsBusinessUnitId,
    template: env.reviewsTemplateId,
  });
});

test('offline, the reviews box disappears and the page works', async ({ page }) => {
  await page.route('https://widget.trustpilot.com/**', (route) => route.abort('internetdisconnected'));
  await openSignedOut(page, '/website-score');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // The box is within reach of the default window, so its script is tried at once, fails, and the box goes.
  await expect(page.getByRole('region', { name: 'Customer reviews' })).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});

test('identity verification in Account Settings: the local stand-in for Stripe’s page reports each outcome through the signed webhook', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const stripeJs: string[] = [];
  await page.route('https://js.stripe.com/**', (route) => {
    stripeJs.push(route.request().url());
    return route.abort();
  });
  await openSignedOut(page);
  await signUpThroughUi(page, freshEmail('identity'), PASSWORD);
  await page.getByRole('button', { name: 'Open account menu' }).click();
  await page.getByRole('menuitem', { name: 'Account Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Account Settings' });
  await expect(settings.getByText('Verify who you are with a photo ID and a selfie, checked by Stripe.')).toBeVisible();

  // stripe-mock's session has no client secret and no page: the browser goes
  // to the local stand-in, which says it is a test and checks nothing.
  await settings.getByRole('button', { name: 'Verify your identity' }).click();
  await expect(page).toHaveURL(/\/test-identity\//);
  await expect(page.getByRole('alert')).toContainText('Test identity verification — no real check');
  await page.getByRole('button', { name: 'Needs more information (test)' }).click();

  // Back in the app with Account Settings open, the outcome billing recorded from the signed event.
  await expect(settings.getByText('Needs more information', { exact: true })).toBeVisible();
  await expect(page).not.toHaveURL(/identity=returned/);
  await settings.getByRole('button', { name: 'Try again' }).click();
  await expect(page).toHaveURL(/\/test-identity\//);
  await page.getByRole('button', { name: 'Verified (test)' }).click();
  await expect(settings.getByText('Verified', { exact: true })).toBeVisible();
  await expect(settings.getByRole('button', { name: /Verify your identity|Try again/ })).toHaveCount(0);
  expect(stripeJs).toEqual([]); // no modal without a client secret
});
