import { expect, test } from '@playwright/test';
import { freshEmail, openSignedOut, PASSWORD, signUpThroughUi } from './support';

/**
 * The first ten minutes of a newcomer: the local stack serves a demo store
 * (deploy/local/internal/demostore) and its banner lists it. Saving it in the
 * Business profile fills Home; /website-score scores it. Nothing here serves
 * a store of its own: this is the store `make run` offers.
 */
const demoStoreUrl = process.env.UPLIFT_DEMO_STORE_URL || 'http://127.0.0.1:9400/';

test('saving the demo store fills Home with a review, its speed, summary, insights and ideas', async ({ page }) => {
  test.setTimeout(120_000);
  await openSignedOut(page);
  await signUpThroughUi(page, freshEmail('demo'), PASSWORD);

  await page.getByRole('button', { name: 'Open account menu' }).click();
  await page.getByRole('menuitem', { name: 'Business profile' }).click();
  const dialog = page.getByRole('dialog', { name: 'Business profile' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Fernhill Tea Co.');
  await dialog.getByRole('textbox', { name: 'Website' }).fill(demoStoreUrl);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });

  const score = page.getByRole('region', { name: 'Website score' });
  await expect(score.getByLabel(/^Score \d+ out of 100$/)).toBeVisible({ timeout: 60_000 });
  // The store is imperfect on purpose: the review names what it lacks.
  const findings = page.getByRole('region', { name: 'Findings' });
  await expect(findings.getByRole('button', { name: /meta description/i }).first()).toBeVisible();
  await expect(findings.getByRole('button', { name: /alt text/i }).first()).toBeVisible();
  // The review worker measured the home page in Chromium as a phone would:
  // a speed score, each measure rated, and the slowest element named.
  const speed = page.getByRole('region', { name: 'Speed on a phone' });
  await expect(speed.getByTestId('speed-score')).toHaveText(/^\d{1,3}\/100$/);
  await expect(speed.getByRole('row', { name: /Largest paint \(LCP\)/ })).toContainText(/\d+\.\d s/);
  await expect(speed.getByRole('row', { name: /Speed Index/ })).toBeVisible();
  await expect(speed.getByTestId('speed-slowest')).toContainText('Slowest element:');
  await expect(page.getByRole('region', { name: 'Summary' }).getByText(/tea/i).first()).toBeVisible();
  await expect(page.getByRole('region', { name: 'Insights' }).getByRole('listitem').first()).toBeVisible({ timeout: 60_000 });
  // Ideas are grounded in the store's own products.
  const ideas = page.getByRole('region', { name: 'Campaign ideas' }).getByRole('link');
  await expect(ideas.first()).toBeVisible({ timeout: 60_000 });
  await ideas.first().click();
  await expect(page.getByRole('heading', { level: 2, name: 'Products to feature' })).toBeVisible();
  await expect(
    page.getByText(/Morning Assam|First Flush Darjeeling|Sencha Kagoshima|Jasmine Pearls|Chamomile|Cast-Iron Teapot/).first(),
  ).toBeVisible();
});

test('/website-score scores the demo store signed out', async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto(`/website-score?url=${encodeURIComponent(demoStoreUrl)}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Website score' })).toBeVisible();
  const result = page.getByRole('region', { name: /^Score for / });
  await expect(result.getByLabel(/^Score \d+ out of 100$/)).toBeVisible({ timeout: 45_000 });
  await expect(page.getByRole('region', { name: 'Findings' }).getByRole('button', { name: /meta description/i }).first()).toBeVisible();
});
