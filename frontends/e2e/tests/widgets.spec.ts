import { expect, test } from '@playwright/test';
import { freshEmail, openSignedOut, PASSWORD, signUpThroughUi } from './support';

/**
 * The customer reviews and identity verification widgets (issue 11). The
 * local stack turns both on with fake settings; their third-party scripts
 * are stubbed at the network layer, and the identity session comes from the
 * billing service through stripe-mock.
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

test('identity verification in Account Settings reaches Stripe (stripe-mock) and says why it cannot open', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const stripeJs: string[] = [];
  await page.route('https://js.stripe.com/**', (route) => {
    stripeJs.push(route.request().url());
    return route.fulfill({ contentType: 'text/javascript', body: 'window.Stripe = function () { return {}; };' });
  });
  await openSignedOut(page);
  await signUpThroughUi(page, freshEmail('identity'), PASSWORD);
  await page.getByRole('button', { name: 'Open account menu' }).click();
  await page.getByRole('menuitem', { name: 'Account Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Account Settings' });
  const started = page.waitForResponse((response) => response.url().endsWith('/internal/billing/createIdentityVerification'));
  await dialog.getByRole('button', { name: 'Verify your identity' }).click();
  // stripe-mock's session has no client secret, so the service refuses to hand it on.
  expect((await started).status()).toBe(400);
  await expect(dialog.getByRole('alert')).toHaveText('Identity verification is not available right now. Please try again later.');
  expect(stripeJs).toEqual([]);
});
