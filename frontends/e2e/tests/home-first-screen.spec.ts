import { expect, test, type Page } from '@playwright/test';
import { demoStoreUrl, freshEmail, openSignedOut, PASSWORD, saveWebsite, signUpThroughUi } from './support';

/**
 * Home's first screen says what to do first: the daily
 * report, the top fixes and ideas are on it at a laptop's and a phone's size,
 * before the points table, which is folded under one summary line.
 */
test("Home's first screen shows the report, the top fixes and ideas; the points table is folded below", async ({ page }) => {
  test.setTimeout(180_000);
  await openSignedOut(page);
  await page.getByRole('region', { name: 'Analytics consent' }).getByRole('button', { name: 'No thanks' }).click();
  await signUpThroughUi(page, freshEmail('first-screen'), PASSWORD);
  await saveWebsite(page, demoStoreUrl);
  await expect(page.getByRole('region', { name: 'Website score' }).getByLabel(/^Score \d+ out of 100$/)).toBeVisible({ timeout: 90_000 });
  await expect(page.getByRole('region', { name: 'Campaign ideas' }).getByRole('link').first()).toBeVisible({ timeout: 60_000 });

  for (const size of [{ width: 1280, height: 800 }, { width: 375, height: 812 }]) {
    await page.setViewportSize(size);
    await page.goto('/');
    const start = page.getByRole('region', { name: 'Start here' });
    await expect(start).toBeVisible({ timeout: 30_000 });
    const fixes = start.getByRole('listitem').filter({ hasText: /−\d+ pts$/ });
    await expect(fixes.first()).toBeVisible();
    const idea = start.getByRole('link').filter({ hasNot: page.getByText('Connect your store') }).last();
    await expect(idea).toHaveAttribute('href', /\/ideas\//);
    // Above the fold: over the phone's bottom bar, which covers the screen's foot.
    const fold = size.height - (await bottomBarHeight(page));
    for (const [what, locator] of [
      ['the daily report', start.getByRole('heading', { name: 'Your daily report' })],
      ['the top fixes', fixes.last()],
      ['the ideas', idea],
    ] as const) {
      const box = await locator.boundingBox();
      expect(box, `${what} at ${size.width} px`).not.toBeNull();
      expect(box!.y + box!.height, `${what} ends within the first screen at ${size.width} px`).toBeLessThanOrEqual(fold);
    }
    // The points table is further down, folded.
    const points = page.getByRole('region', { name: 'Where your points went' });
    expect((await points.boundingBox())!.y).toBeGreaterThan((await start.boundingBox())!.y);
    await expect(points.getByRole('table')).toBeHidden();
    await expect(points.getByText(/^\d+ of \d+ points: show all \d+ checks$/)).toBeVisible();
  }
  // Opening the fold shows every check.
  const points = page.getByRole('region', { name: 'Where your points went' });
  await points.getByText(/show all \d+ checks$/).click();
  await expect(points.getByRole('table')).toBeVisible();
  expect(await points.getByRole('row').count()).toBeGreaterThan(10);
});

async function bottomBarHeight(page: Page): Promise<number> {
  return page.evaluate(() => {
    const bars = [...document.querySelectorAll('nav')].filter((n) => getComputedStyle(n).position === 'fixed');
    return Math.max(0, ...bars.map((n) => window.innerHeight - n.getBoundingClientRect().top));
  });
}
