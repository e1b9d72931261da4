import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { demoStoreUrl, freshEmail, openSignedOut, PASSWORD, saveWebsite, setTierByHand, signUpThroughUi } from './support';

/** A generated product photo: a red mug on light paper with a hard cast shadow. */
const MUG = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'mug.jpg');

async function uploadMug(page: Page) {
  await page.getByLabel('Upload a product photo (JPEG, PNG or WebP, up to 25 MB)').setInputFiles(MUG);
  await expect(page.getByText('Selected: mug')).toBeVisible();
}

/** Waits for the gallery card of a tool to be done (the worker runs the real model). */
async function doneCard(page: Page, name: string) {
  const card = page.getByRole('article', { name }).first();
  await expect(card.getByText('Done', { exact: true })).toBeVisible({ timeout: 60_000 });
  return card;
}

test('a paying owner removes a background, compares before and after, and downloads the cut-out', async ({ page }) => {
  test.setTimeout(120_000);
  const email = freshEmail('studio-pro');
  await openSignedOut(page);
  await signUpThroughUi(page, email, PASSWORD);
  await setTierByHand(page, email, PASSWORD, 'pro');

  await page.goto('/studio');
  await expect(page.getByRole('heading', { name: 'Product studio', level: 1 })).toBeVisible();
  // The plan arrives from billing's event in a moment.
  await expect(async () => {
    await page.reload();
    await expect(page.getByText('Your plan downloads without limit, at full resolution.')).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  // Pro's "Early access to new AI features" is a real beta feature, named.
  await expect(page.getByText(/Early access to new AI features \(beta\): hole recovery/)).toBeVisible();

  await uploadMug(page);
  await page.getByRole('button', { name: 'Remove background' }).click();
  // While it runs the card says what it is doing, not what it has done.
  await expect(page.getByRole('article', { name: 'Removing the background: mug' })).toBeVisible();
  const card = await doneCard(page, 'Background removed: mug');
  await expect(card.getByRole('img', { name: 'After: the background removed' })).toBeVisible();
  await expect(card.getByRole('img', { name: 'Before: the original photo' })).toBeVisible();
  await card.getByRole('slider', { name: 'Before / after' }).fill('20');
  await expect(card.getByText('Preview with a watermark')).toHaveCount(0);

  const [download] = await Promise.all([page.waitForEvent('download'), card.getByRole('button', { name: 'Download PNG' }).click()]);
  expect(download.suggestedFilename()).toBe('mug-cutout.png');
});

test('the free plan previews with a watermark, downloads three results a month, then offers the upgrade', async ({ page }) => {
  test.setTimeout(150_000);
  await openSignedOut(page);
  await signUpThroughUi(page, freshEmail('studio-free'), PASSWORD);
  await page.goto('/studio');
  await expect(page.getByText(/Free plan: preview every tool on a watermarked image, run 30 tools and download 3 results a month\. 3 downloads and 30 tool runs left this month\./)).toBeVisible();

  await uploadMug(page);
  await page.getByRole('button', { name: 'Channel presets' }).click();
  const card = await doneCard(page, 'Channel presets: mug');
  await expect(card.getByRole('img', { name: 'Amazon main image preview' })).toBeVisible();

  // The download buttons say the limit before it is hit, and the usage note
  // turns amber near it and red at it.
  const usage = page.getByRole('status').filter({ hasText: /^Free plan:/ });
  await expect(usage).toHaveAttribute('data-usage', 'plenty');
  const expected: Record<string, [string, string]> = {
    'Shopify product': ['3 of 3 free downloads left this month; each download uses one.', 'plenty'],
    'Instagram square': ['2 of 3 free downloads left this month; each download uses one.', 'low'],
    Story: ['1 of 3 free downloads left this month; each download uses one.', 'out'],
  };
  for (const [preset, [allowance, after]] of Object.entries(expected)) {
    const tile = card.getByRole('listitem').filter({ hasText: preset });
    const button = tile.getByRole('button', { name: 'Download JPEG' });
    await expect(button).toHaveAccessibleDescription(allowance);
    const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
    expect(download.suggestedFilename()).toMatch(/^mug-.*\.jpg$/);
    await expect(usage).toHaveAttribute('data-usage', after);
  }
  await expect(page.getByText(/0 downloads and 29 tool runs left this month\./)).toBeVisible();
  await expect(usage).toHaveCSS('color', 'rgb(185, 28, 28)');
  await expect(card.getByText("You have used this month's 3 free downloads: upgrade to download more.").first()).toBeVisible();

  const fourth = card.getByRole('listitem').filter({ hasText: 'Facebook/Google feed' });
  await fourth.getByRole('button', { name: 'Download WebP' }).click();
  await expect(fourth.getByRole('alert')).toContainText('The free plan includes 3 downloads a month');
  await fourth.getByRole('button', { name: 'Upgrade plan' }).click();
  await expect(page.getByRole('dialog', { name: 'Upgrade plan' })).toBeVisible();
});

test('a file that is not a photo is refused with a clear message', async ({ page }) => {
  await openSignedOut(page);
  await signUpThroughUi(page, freshEmail('studio-bad'), PASSWORD);
  await page.goto('/studio');
  await page
    .getByLabel('Upload a product photo (JPEG, PNG or WebP, up to 25 MB)')
    .setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('this is not a photo') });
  await expect(page.getByRole('alert')).toHaveText('Upload a JPEG, PNG or WebP photo.');
});

test('?product= opens the studio on a product of the store’s website, whose cut-out the owner touches up', async ({ page }) => {
  test.setTimeout(180_000);
  const email = freshEmail('studio-catalogue');
  await openSignedOut(page);
  await signUpThroughUi(page, email, PASSWORD);
  await setTierByHand(page, email, PASSWORD, 'pro');
  await page.getByRole('button', { name: 'Open account menu' }).click();
  await page.getByRole('menuitem', { name: 'Business profile' }).click();
  const dialog = page.getByRole('dialog', { name: 'Business profile' });
  await dialog.getByRole('textbox', { name: 'Website' }).fill(demoStoreUrl);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });

  // The demo store's JSON-LD names each tea's photo and its sku.
  await page.goto('/studio?product=MORNING-ASSAM');
  await expect(page.getByText(/Selected: Morning Assam \(800×800\), from your catalogue/)).toBeVisible({ timeout: 30_000 });
  // The picker lists every product the website shows, not only the pages a
  // review samples, with their prices; the tea whose page has no structured
  // data is listed by its heading, with no photo to pick.
  const picker = page.getByLabel('Or pick a product from your website');
  for (const name of [
    'Morning Assam · $14.50',
    'First Flush Darjeeling · $22.00',
    'Sencha Kagoshima · $18.00',
    'Jasmine Pearls · $26.00',
    'Cast-Iron Teapot 0.8 l · $59.00',
  ]) {
    await expect(picker.getByRole('option', { name, exact: true })).toBeEnabled();
  }
  await expect(picker.getByRole('option', { name: 'Whole Chamomile Flowers (no photo)', exact: true })).toBeDisabled();
  await expect(picker.getByRole('option')).toHaveCount(1 + 6);

  await page.getByRole('button', { name: 'Remove background' }).click();
  const card = await doneCard(page, 'Background removed: Morning Assam');
  await card.getByRole('button', { name: 'Touch up' }).click();
  const touchUp = card.getByRole('region', { name: 'Touch up the cut-out' });
  await touchUp.getByRole('radio', { name: 'Remove' }).check();
  const canvas = touchUp.getByLabel('Touch-up canvas: paint over the cut-out with the pointer');
  // The mouse works in viewport coordinates: bring the canvas into view first.
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  if (!box) throw new Error('no canvas');
  await page.mouse.move(box.x + box.width * 0.45, box.y + box.height * 0.5);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.55, box.y + box.height * 0.55, { steps: 8 });
  await page.mouse.up();
  await touchUp.getByRole('button', { name: 'Apply touch-up' }).click();
  await expect(touchUp).toBeHidden();
  // A new cut-out with the touched-up mask joins the gallery.
  await expect(page.getByRole('article', { name: 'Background removed: Morning Assam' })).toHaveCount(2);
  await expect(page.getByRole('article', { name: 'Background removed: Morning Assam' }).first().getByText('Done', { exact: true })).toBeVisible({
    timeout: 60_000,
  });
});

test('on a phone the product picker fits the screen and the bottom bar names its links', async ({ page }) => {
  test.setTimeout(90_000);
  await openSignedOut(page);
  await signUpThroughUi(page, freshEmail('studio-phone'), PASSWORD);
  await saveWebsite(page, demoStoreUrl);
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/studio');
  const picker = page.getByLabel('Or pick a product from your website');
  await expect(picker.getByRole('option', { name: 'Morning Assam · $14.50', exact: true })).toBeAttached({ timeout: 30_000 });
  const box = await picker.boundingBox();
  expect(box!.x + box!.width, 'the picker’s right edge').toBeLessThanOrEqual(375);
  const bar = page.getByRole('navigation', { name: 'Bottom navigation' });
  for (const name of ['Home', 'Analytics', 'Connections']) await expect(bar.getByText(name, { exact: true })).toBeVisible();
});
