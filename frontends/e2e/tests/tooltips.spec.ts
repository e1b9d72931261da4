import { expect, test, type Locator } from '@playwright/test';
import { freshEmail, importOrderExport, openSignedOut, orderExport, PASSWORD, signUpThroughUi } from './support';

/**
 * A metric's "how it is counted" tooltip never covers the
 * number it explains, and a scroll closes it (it would float away from it).
 */
const overlaps = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  Math.min(a.x + a.width, b.x + b.width) > Math.max(a.x, b.x) && Math.min(a.y + a.height, b.y + b.height) > Math.max(a.y, b.y);

async function box(locator: Locator) {
  const b = await locator.boundingBox();
  expect(b).not.toBeNull();
  return b!;
}

test('the formula tooltip sits beside the number, not over it, and closes on scroll, at 375 and 1280 px', async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  await openSignedOut(page, '/connections');
  await signUpThroughUi(page, freshEmail('tooltip'), PASSWORD);
  await importOrderExport(
    page,
    orderExport([
      { product: 'Sencha', price: '18.00', daysAgo: 2 },
      { product: 'Genmaicha', price: '14.50', daysAgo: 3, quantity: 2 },
      { product: 'Hojicha', price: '22.00', daysAgo: 5 },
    ]),
  );
  await page.goto('/analytics');
  const card = page.getByRole('group', { name: 'Total sales' });
  const value = card.locator('.metric-card__value');
  await expect(value).toHaveText(/\$\d/);

  for (const [width, height] of [
    [1280, 800],
    [375, 667],
  ] as const) {
    await page.setViewportSize({ width, height });
    const hint = card.getByRole('button', { name: 'How Total sales is counted' });
    await hint.scrollIntoViewIfNeeded();
    // A phone taps (the tooltip stays until dismissed); a mouse hovers.
    if (width === 375) await hint.click();
    else await hint.hover();
    const tip = page.getByRole('tooltip');
    await expect(tip).toBeVisible();
    await expect(tip).toBeInViewport({ ratio: 1 });
    expect(overlaps(await box(tip), await box(value)), `the tooltip covers the number at ${width} px`).toBe(false);
    expect(overlaps(await box(tip), await box(hint))).toBe(false);
    await page.screenshot({ path: testInfo.outputPath(`tooltip-${width}.png`) });

    await page.mouse.wheel(0, 240);
    await expect(tip).toBeHidden();
    await page.evaluate(() => window.scrollTo(0, 0));
    // Opened again, for the next width, by the next hover or tap.
    await page.mouse.move(0, 0);
  }
});
