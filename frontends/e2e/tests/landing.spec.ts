import { expect, test } from '@playwright/test';
import { demoStoreUrl, gatewayUrl, openSignedOut } from './support';

/**
 * The signed-out landing page says what Uplift does,
 * what is free and what the plan costs, and the public website score is its
 * first action.
 */
for (const [width, height] of [
  [375, 667],
  [1280, 800],
] as const) {
  test(`signed out, / says what Uplift does, what is free and what the plan costs, with the score first (${width} px)`, async ({ page }, testInfo) => {
    test.setTimeout(60_000);
    await page.setViewportSize({ width, height });
    await openSignedOut(page, '/');
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { level: 1, name: 'Grow your store the easy way' })).toBeVisible();
    await expect(main.getByText(/Uplift reads your online store's website and its numbers/)).toBeVisible();

    // What is free: the same four things the plan dialog calls always free.
    const free = main.getByRole('region', { name: 'Free, on every plan' });
    await expect(free.getByRole('listitem')).toHaveCount(4);
    await expect(free).toContainText('review of your website');
    await expect(free).toContainText('daily business report');
    await expect(free).toContainText('Campaign ideas');
    await expect(free).toContainText('Analytics');

    // What the plan costs: the tiers' own monthly amount, in dollars (spec: amount/100 per month).
    const tiers = await (await page.request.get(`${gatewayUrl}/internal/billing/metricsSubscriptionTiers`)).json();
    const pro = tiers.pro;
    const dollars = `$${pro.prices.monthly.amount / 100}`;
    const plan = main.getByRole('region', { name: pro.name });
    await expect(plan.getByText(`${dollars} per month`, { exact: true })).toBeVisible();
    await expect(plan.getByRole('list', { name: `Included in ${pro.name}` }).getByRole('listitem')).toHaveText(pro.included);

    // The score is the first thing to do: the first control on the page, and it works.
    const first = await main.evaluate((el) => {
      const c = el.querySelector<HTMLElement>('input, button, a[href], select, textarea');
      return c ? c.getAttribute('name') ?? c.textContent : null;
    });
    expect(first).toBe('url');
    await expect(main.getByRole('button', { name: 'Get my free website score' })).toBeInViewport();
    await page.screenshot({ path: testInfo.outputPath(`landing-${width}.png`), fullPage: true });
    await main.getByRole('textbox', { name: "Your store's website" }).fill(demoStoreUrl);
    await main.getByRole('button', { name: 'Get my free website score' }).click();
    await expect(page).toHaveURL(/\/website-score\?url=/);
    await expect(page.getByRole('region', { name: /^Score for / })).toBeVisible({ timeout: 45_000 });
  });
}
