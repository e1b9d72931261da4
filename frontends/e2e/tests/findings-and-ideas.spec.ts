import { expect, test, type Page } from '@playwright/test';
import { demoStoreUrl, freshEmail, openSignedOut, PASSWORD, saveWebsite, signUpThroughUi } from './support';

/**
 * What a new owner reads in the demo store's first review: one row per issue
 * however many pages it is on, nothing called "New" when there was no review
 * before, alt text and a meta description written from the store's own
 * pages, and each idea's fields named for its channel (only an email has a
 * subject line).
 */

async function firstReview(page: Page) {
  await openSignedOut(page);
  await signUpThroughUi(page, freshEmail('findings'), PASSWORD);
  await saveWebsite(page, demoStoreUrl);
  await expect(page.getByRole('region', { name: 'Website score' }).getByLabel(/^Score \d+ out of 100$/)).toBeVisible({ timeout: 90_000 });
  return page.getByRole('region', { name: 'Findings' });
}

test('a first review lists each issue once, with no New badge, and drafts from the store’s own pages', async ({ page }) => {
  test.setTimeout(150_000);
  const findings = await firstReview(page);

  // The demo store sends every page uncompressed: one row says so, with
  // each page inside it.
  const uncompressed = findings.getByRole('button', { name: /sent uncompressed/ });
  await expect(uncompressed).toHaveCount(1);
  await expect(uncompressed).toContainText(/\d+ pages are sent uncompressed/);
  await uncompressed.click();
  const places = findings.getByText(/^Found in \d+ places$/);
  await expect(places).toBeVisible();
  const count = Number((await places.textContent())?.match(/\d+/)?.[0]);
  expect(count).toBeGreaterThan(1);
  await expect(places.locator('xpath=following-sibling::dd[1]').getByRole('listitem')).toHaveCount(count);
  await expect(places.locator('xpath=following-sibling::dd[1]').getByRole('link', { name: `${demoStoreUrl}pages/contact` })).toBeVisible();

  // No two rows read the same.
  const titles = await findings.locator('.finding__title').allTextContents();
  expect(titles.length).toBeGreaterThan(3);
  expect(new Set(titles).size).toBe(titles.length);

  // Nothing is "New" against no review at all.
  await expect(findings.getByText('New', { exact: true })).toHaveCount(0);

  // The banner's alt text is the home page's own heading, never a request
  // to "describe the image".
  await findings.getByRole('button', { name: /no alt text/ }).click();
  await expect(findings.getByText(/banner\.svg → alt="Loose-leaf tea from single estates"/)).toBeVisible();
  await expect(findings.getByText(/describe the image/)).toHaveCount(0);

  // The home page's meta description names each product once.
  await findings.getByRole('button', { name: /no meta description/ }).click();
  const draft = findings.getByText(/<meta name="description" content="/);
  await expect(draft).toBeVisible();
  const text = (await draft.textContent()) ?? '';
  expect(text).toContain('Fernhill Tea Co.');
  expect(text.split('Morning Assam').length - 1).toBe(1);
});

test('an idea names its fields for its channel: only an email has a subject line', async ({ page }) => {
  test.setTimeout(150_000);
  await firstReview(page);
  const ideas = page.getByRole('region', { name: 'Campaign ideas' }).getByRole('link');
  await expect(ideas.first()).toBeVisible({ timeout: 60_000 });
  const hrefs = await ideas.evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
  const seen = new Set<string>();
  for (const href of hrefs) {
    await page.goto(new URL(href, page.url()).toString());
    const campaign = page.getByRole('region', { name: 'The campaign' });
    await expect(campaign).toBeVisible();
    const channel = (await campaign.locator('xpath=.//dt[normalize-space()="Channel"]/following-sibling::dd[1]').textContent())?.trim() ?? '';
    seen.add(channel);
    const want = { Email: ['Subject line', 'Email text'], 'Social post': ['Opening line', 'Post text'], Ad: ['Headline', 'Ad text'], 'On your website': ['Headline', 'Copy'] }[channel];
    expect(want, `a channel people can read, not "${channel}"`).toBeTruthy();
    await expect(campaign.locator('dt', { hasText: want![0] })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: want![1], exact: true })).toBeVisible();
    if (channel !== 'Email') await expect(page.getByText('Subject line', { exact: true })).toHaveCount(0);
    await page.goBack();
  }
  // The demo store's cheapest tea is below its usual band: an ad; the review
  // found no sign-up: an on-site idea.
  expect([...seen]).toEqual(expect.arrayContaining(['Email', 'Ad', 'On your website']));
});
