import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { freshEmail, openBusinessProfile, openSignedOut, PASSWORD, signUpThroughUi } from './support';
import { startStore, type TestStore } from './test-store';

let store: TestStore;

test.beforeAll(async () => {
  store = await startStore();
});

test.afterAll(async () => {
  await store.close();
});

test('saving a website in the Business profile fills Home with a review, summary and ideas', async ({ page }) => {
  test.setTimeout(120_000);
  await openSignedOut(page);
  await signUpThroughUi(page, freshEmail('profile'), PASSWORD);

  const dialog = await openBusinessProfile(page);
  await expect(dialog.getByLabel('Summary')).toHaveAttribute(
    'placeholder',
    'This section will populate automatically once a valid business website has been entered above and saved.',
  );
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Northfield Forge');
  await dialog.getByRole('textbox', { name: 'Website' }).fill(store.url);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });

  // Home fills in as the review runs (live events, polling as the fallback).
  const score = page.getByRole('region', { name: 'Website score' });
  await expect(score).toBeVisible({ timeout: 60_000 });
  await expect(score.getByLabel(/^Score \d+ out of 100$/)).toBeVisible();
  const summary = page.getByRole('region', { name: 'Summary' });
  await expect(summary.getByText(/\S/).first()).toBeVisible();
  const findings = page.getByRole('region', { name: 'Findings' });
  const firstFinding = findings.getByRole('button', { expanded: false }).first();
  await expect(firstFinding).toBeVisible();
  await firstFinding.click();
  await expect(findings.getByText('How to fix it').first()).toBeVisible();

  const ideas = page.getByRole('region', { name: 'Campaign ideas' }).getByRole('link');
  await expect(ideas.first()).toBeVisible({ timeout: 60_000 });

  // The summary also reaches the dialog: nothing stale after the save.
  await expect(async () => {
    const reopened = await openBusinessProfile(page);
    await expect(reopened.getByLabel('Summary')).not.toHaveValue('', { timeout: 2_000 });
    await expect(reopened.getByLabel('Name')).toHaveValue('Northfield Forge');
    await page.keyboard.press('Escape');
  }).toPass({ timeout: 30_000 });

  // An idea has its own page with everything needed to run it.
  await ideas.first().click();
  await expect(page).toHaveURL(/\/ideas\/[^/]+$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Why now' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Products to feature' })).toBeVisible();
});

/**
 * Each way a website is refused says which it was, under
 * the Website field, which is scrolled into view and focused, even when the
 * owner had scrolled the dialog down to Save (at a phone's width the dialog
 * scrolls).
 */
for (const width of [375, 1280]) {
  test(`a refused website says which it was, under its field, in view and focused (${width} px)`, async ({ page }, testInfo) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width, height: width === 375 ? 667 : 800 });
    await openSignedOut(page);
    await signUpThroughUi(page, freshEmail('badsite'), PASSWORD);

    const dialog = await openBusinessProfile(page);
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Nowhere Shop');
    const website = dialog.getByRole('textbox', { name: 'Website' });
    for (const { site, message } of [
      { site: 'my tea shop', message: 'Something went wrong. Please ensure the website url is properly formatted and try again.' },
      { site: 'https://no-such-store.invalid/', message: 'We could not find that website: no site answers at this domain. Please check the address for typos.' },
      { site: 'http://10.0.0.1/', message: "That address is on a private network, not the public internet. Please enter your store's public web address." },
      { site: 'http://127.0.0.1:1/', message: 'We could not read that website: its server refused the connection. Please check the address and try again.' },
    ]) {
      await website.fill(site);
      // Saved from the bottom of the dialog, as an owner who scrolled to Save would.
      const save = dialog.getByRole('button', { name: 'Save' });
      await save.scrollIntoViewIfNeeded();
      await save.click();
      const error = dialog.getByText(message, { exact: true });
      await expect(error).toBeVisible({ timeout: 30_000 });
      await expect(error).toBeInViewport();
      await expect(website).toBeFocused();
      await expect(website).toHaveAttribute('aria-invalid', 'true');
      await expect(website).toHaveAccessibleDescription(message);
      // Under its field: below the Website box, above the next field.
      const field = (await website.boundingBox())!;
      const shown = (await error.boundingBox())!;
      const summary = (await dialog.getByRole('textbox', { name: 'Summary' }).boundingBox())!;
      expect(shown.y).toBeGreaterThanOrEqual(field.y + field.height - 1);
      expect(shown.y + shown.height).toBeLessThanOrEqual(summary.y + 1);
      await expect(dialog.getByRole('alert')).toHaveCount(1);
      if (site === 'my tea shop' || site === 'http://10.0.0.1/') {
        await page.screenshot({ path: testInfo.outputPath(`website-error-${site.replace(/\W+/g, '-')}-${width}.png`) });
      }
    }
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Save' })).toBeEnabled();
  });
}

/** A competitor's site that does the basics the test store lacks (description, alt text, returns). */
async function startCompetitor(): Promise<{ url: string; server: Server }> {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Ironbridge Anvils – anvils and forging tools</title>
<meta name="description" content="Ironbridge Anvils sells cast-iron and steel anvils, hammers and tongs to blacksmiths, with free returns within 30 days.">
</head><body><header><a href="/">Ironbridge Anvils</a> <nav><a href="/contact">Contact</a> <a href="/returns">Returns</a></nav></header>
<main><h1>Anvils for every forge</h1><img src="/anvil.jpg" alt="A 50 kg steel anvil on a stand">
<p>Steel anvils from $99, forging hammers from $35.</p></main>
<footer><a href="/contact">Contact us</a> <a href="/shipping">Shipping</a> <a href="/returns">Returns</a></footer></body></html>`;
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://rival').pathname;
    if (path === '/' || path === '/contact' || path === '/returns' || path === '/shipping') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(html);
    } else {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, server };
}

test('competitors saved in the Business profile are reviewed beside the store on Home', async ({ page }) => {
  test.setTimeout(150_000);
  const rival = await startCompetitor();
  try {
    await openSignedOut(page);
    await signUpThroughUi(page, freshEmail('rivals'), PASSWORD);

    const dialog = await openBusinessProfile(page);
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Northfield Forge');
    await dialog.getByRole('textbox', { name: 'Website' }).fill(store.url);
    await dialog.getByRole('textbox', { name: 'Competitor 1' }).fill(rival.url);
    // A competitor that cannot be read is kept and says so; it never blocks the save.
    await dialog.getByRole('textbox', { name: 'Competitor 2' }).fill('http://127.0.0.1:1/');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden({ timeout: 30_000 });

    const competitors = page.getByRole('region', { name: 'Your competitors' });
    await expect(competitors).toBeVisible({ timeout: 90_000 });
    await expect(competitors.getByRole('row', { name: /Your website/ })).toContainText(/\d+\/100/);
    const rivalRow = competitors.getByRole('row', { name: new RegExp(new URL(rival.url).host.replace(/\./g, '\\.')) });
    await expect(rivalRow).toContainText(/\d+\/100/);
    // It has the description and alt text the store lacks: it wins on search.
    await expect(rivalRow).toContainText('Search');
    await expect(competitors.getByRole('row', { name: /127\.0\.0\.1:1/ })).toContainText('We could not read this website');

    // The profile keeps them.
    const reopened = await openBusinessProfile(page);
    await expect(reopened.getByRole('textbox', { name: 'Competitor 1' })).toHaveValue(rival.url);
    await expect(reopened.getByRole('textbox', { name: 'Competitor 2' })).toHaveValue('http://127.0.0.1:1/');
  } finally {
    await new Promise((resolve) => rival.server.close(resolve));
  }
});
