import { expect, test, type Page } from '@playwright/test';
import { fillSignIn, freshEmail, openSignedOut, PASSWORD, signUpThroughUi } from './support';

/**
 * Analytics events with the analytics script stubbed at the
 * network layer. The stub does what gtag.js does with the page's dataLayer:
 * it sends each event as a hit (a beacon, which outlives a navigation such
 * as the one to checkout), and the test records those hits.
 */
const GTAG_STUB = `(function () {
  function send(args) {
    if (args[0] !== 'event') return;
    navigator.sendBeacon('https://www.google-analytics.com/g/collect?tid=' + encodeURIComponent(window.__tid) +
      '&en=' + encodeURIComponent(args[1]) + '&ep=' + encodeURIComponent(JSON.stringify(args[2] || {})));
  }
  var script = document.currentScript;
  window.__tid = new URL(script.src).searchParams.get('id');
  var layer = (window.dataLayer = window.dataLayer || []);
  for (var i = 0; i < layer.length; i++) send(layer[i]);
  var push = layer.push.bind(layer);
  layer.push = function (args) { send(args); return push(args); };
})();`;

interface Hit {
  tid: string;
  name: string;
  params: Record<string, unknown>;
}

async function stubAnalytics(page: Page): Promise<{ scripts: string[]; hits: Hit[] }> {
  const scripts: string[] = [];
  const hits: Hit[] = [];
  await page.context().route('https://www.googletagmanager.com/**', (route) => {
    scripts.push(route.request().url());
    return route.fulfill({ contentType: 'text/javascript', body: GTAG_STUB });
  });
  await page.context().route('https://www.google-analytics.com/**', (route) => {
    const url = new URL(route.request().url());
    hits.push({
      tid: url.searchParams.get('tid') ?? '',
      name: url.searchParams.get('en') ?? '',
      params: JSON.parse(url.searchParams.get('ep') ?? '{}') as Record<string, unknown>,
    });
    return route.fulfill({ status: 204 });
  });
  return { scripts, hits };
}

const consent = (page: Page) => page.getByRole('region', { name: 'Analytics consent' });
const measurementId = (page: Page) =>
  page.evaluate(() => (window as unknown as { __UPLIFT_ENV__: Record<string, string> }).__UPLIFT_ENV__.firebaseMeasurementId);
const names = (hits: Hit[]) => hits.map((hit) => hit.name);

test('nothing is sent or loaded before consent; after it, sign up, sign in, website, review, idea events', async ({ page }) => {
  test.setTimeout(150_000);
  const { scripts, hits } = await stubAnalytics(page);
  const demoStoreUrl = process.env.UPLIFT_DEMO_STORE_URL || 'http://127.0.0.1:9400/';

  await openSignedOut(page);
  await expect(consent(page)).toBeVisible();
  const email = freshEmail('consent');
  await signUpThroughUi(page, email, PASSWORD);
  await page.waitForTimeout(1_000);
  expect(scripts).toEqual([]);
  expect(hits).toEqual([]);
  expect(await page.evaluate(() => (window as unknown as { dataLayer?: unknown }).dataLayer)).toBeUndefined();

  await consent(page).getByRole('button', { name: 'Allow analytics' }).click();
  await expect(consent(page)).toBeHidden();
  const tid = await measurementId(page);
  await expect.poll(() => scripts).toEqual([`https://www.googletagmanager.com/gtag/js?id=${tid}`]);
  // The sign-up before consent was not sent afterwards either.
  expect(names(hits)).toEqual([]);

  // Sign out and in: a login event; the choice is remembered (no banner).
  await page.getByRole('button', { name: 'Open account menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign Out' }).click();
  await fillSignIn(page, email, PASSWORD);
  await page.getByRole('dialog', { name: 'Sign in' }).getByRole('button', { name: 'Sign in' }).click();
  await expect.poll(() => hits.filter((hit) => hit.name === 'login')).toEqual([{ tid, name: 'login', params: { method: 'password' } }]);

  // Website saved → review viewed → idea opened.
  await page.getByRole('button', { name: 'Open account menu' }).click();
  await page.getByRole('menuitem', { name: 'Business profile' }).click();
  const profile = page.getByRole('dialog', { name: 'Business profile' });
  await profile.getByRole('textbox', { name: 'Website' }).fill(demoStoreUrl);
  await profile.getByRole('button', { name: 'Save' }).click();
  await expect(profile).toBeHidden({ timeout: 30_000 });
  await expect.poll(() => names(hits)).toContain('website_saved');
  await expect(page.getByRole('region', { name: 'Website score' }).getByLabel(/^Score \d+ out of 100$/)).toBeVisible({
    timeout: 60_000,
  });
  await expect.poll(() => names(hits)).toContain('review_viewed');
  const ideas = page.getByRole('region', { name: 'Campaign ideas' }).getByRole('link');
  await expect(ideas.first()).toBeVisible({ timeout: 60_000 });
  await ideas.first().click();
  await expect(page).toHaveURL(/\/ideas\//);
  const ideaId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
  await expect.poll(() => hits.find((hit) => hit.name === 'idea_opened')?.params).toEqual({ idea_id: ideaId });
  expect(hits.every((hit) => hit.tid === tid)).toBe(true);
});

test('checkout started and plan changed, sent across the checkout round trip', async ({ page }) => {
  test.setTimeout(120_000);
  const { hits } = await stubAnalytics(page);
  await page.addInitScript(() => localStorage.setItem('uplift-analytics-consent', 'granted'));
  await openSignedOut(page);
  await expect(consent(page)).toBeHidden();
  await signUpThroughUi(page, freshEmail('consent-plan'), PASSWORD);
  await expect.poll(() => names(hits)).toContain('sign_up');

  await page.getByRole('button', { name: 'Open account menu' }).click();
  await page.getByRole('menuitem', { name: 'Upgrade plan' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upgrade plan' });
  const upgrade = dialog.getByRole('button', { name: 'Upgrade', disabled: false }).first();
  await upgrade.click();
  await expect(page).toHaveURL(/\/test-checkout\//);
  await expect.poll(() => hits.find((hit) => hit.name === 'begin_checkout')?.params.tier).toBeTruthy();
  await page.getByRole('button', { name: 'Complete test purchase' }).click();
  await expect(page.getByRole('button', { name: 'Open account menu' })).toBeVisible();
  await expect.poll(() => hits.find((hit) => hit.name === 'plan_changed')?.params.tier, { timeout: 60_000 }).toBe(
    hits.find((hit) => hit.name === 'begin_checkout')?.params.tier,
  );
});

test('declining (with the keyboard alone) is remembered: no banner, no script, no event', async ({ page }) => {
  const { scripts, hits } = await stubAnalytics(page);
  await openSignedOut(page);
  const noThanks = consent(page).getByRole('button', { name: 'No thanks' });
  for (let i = 0; i < 15 && !(await noThanks.evaluate((el) => el === document.activeElement)); i++) {
    await page.keyboard.press('Tab');
  }
  await expect(noThanks).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(consent(page)).toBeHidden();
  await page.reload();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expect(consent(page)).toBeHidden();
  await signUpThroughUi(page, freshEmail('consent-no'), PASSWORD);
  await page.waitForTimeout(1_000);
  expect(scripts).toEqual([]);
  expect(hits).toEqual([]);
});
