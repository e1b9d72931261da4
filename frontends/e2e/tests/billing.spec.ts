import { expect, test, type Page } from '@playwright/test';
import { freshEmail, openSignedOut, PASSWORD, setTierByHand, signUpThroughUi } from './support';

/** Opens the plan dialog from the avatar menu: 'Upgrade plan', or 'Your plan' for a paying user. */
async function openUpgradeDialog(page: Page, name = 'Upgrade plan') {
  await page.getByRole('button', { name: 'Open account menu' }).click();
  await page.getByRole('menuitem', { name }).click();
  const dialog = page.getByRole('dialog', { name });
  await expect(dialog.getByRole('region').first()).toBeVisible();
  return dialog;
}

test('a free user upgrades through the test checkout and then manages the subscription', async ({ page }) => {
  test.setTimeout(90_000);
  await openSignedOut(page);
  await signUpThroughUi(page, freshEmail('upgrade'), PASSWORD);

  let dialog = await openUpgradeDialog(page);
  // What stays free is said, and a visible button closes the dialog.
  await expect(dialog.getByText(/^Always free, on every plan: your website review, the weekly and daily reports, campaign ideas and Analytics\./)).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  dialog = await openUpgradeDialog(page);
  const free = dialog.getByRole('region', { name: 'Free' });
  await expect(free.getByRole('button', { name: 'Current Plan' })).toBeDisabled();
  await expect(free).toContainText('per month');
  await expect(dialog.getByRole('link', { name: 'Manage subscription' })).toBeHidden();

  // The paid tier is whichever card offers an enabled 'Upgrade' (names are operator configuration).
  const paid = dialog.getByRole('region').filter({ has: page.getByRole('button', { name: 'Upgrade', disabled: false }) }).first();
  const paidName = (await paid.getByRole('heading', { level: 3 }).textContent()) ?? '';
  expect(paidName).not.toBe('');
  await expect(paid.getByText("What's included")).toBeVisible();
  await paid.getByRole('button', { name: 'Upgrade' }).click();

  await expect(page).toHaveURL(/\/test-checkout\//);
  await expect(page.getByText('Test checkout').first()).toBeVisible();
  await page.getByRole('button', { name: 'Complete test purchase' }).click();

  // Back in the app; the plan arrives asynchronously (webhook → event → users),
  // and the purchase is confirmed once it is there.
  await expect(page.getByRole('button', { name: 'Open account menu' })).toBeVisible();
  const confirmation = page.getByRole('dialog', { name: 'Your plan' });
  await expect(confirmation).toHaveAccessibleDescription('Thank you: your payment went through, and this is now your plan.', {
    timeout: 60_000,
  });
  await expect(confirmation.getByRole('region', { name: paidName }).getByRole('button', { name: 'Current Plan' })).toBeDisabled();
  await confirmation.getByRole('button', { name: 'Close' }).click();
  await expect(confirmation).toBeHidden();
  await expect(async () => {
    await page.reload();
    dialog = await openUpgradeDialog(page, 'Your plan');
    await expect(dialog.getByRole('region', { name: paidName }).getByRole('button', { name: 'Current Plan' })).toBeDisabled({
      timeout: 3_000,
    });
  }).toPass({ timeout: 45_000 });
  await expect(dialog.getByRole('link', { name: 'Manage subscription' })).toBeVisible();
  await expect(dialog.getByRole('region', { name: 'Free' }).getByRole('button', { name: 'Current Plan' })).toBeHidden();
});

test("a manually billed user sees only that tier and 'Contact us'", async ({ page }) => {
  test.setTimeout(60_000);
  const email = freshEmail('manual');
  await openSignedOut(page);
  await signUpThroughUi(page, email, PASSWORD);

  await setTierByHand(page, email, PASSWORD, 'pro');

  await expect(async () => {
    await page.reload();
    const dialog = await openUpgradeDialog(page, 'Your plan');
    await expect(dialog.getByRole('link', { name: 'Contact us' })).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });

  // A paying user sees their plan, not an upgrade.
  const dialog = page.getByRole('dialog', { name: 'Your plan' });
  await expect(dialog.getByRole('region')).toHaveCount(1);
  await expect(dialog.getByRole('region').getByRole('button', { name: 'Current Plan' })).toBeDisabled();
  await expect(dialog.getByText('to manage subscription')).toBeVisible();
  await expect(dialog.getByRole('link', { name: 'Manage subscription' })).toBeHidden();
  await expect(dialog.getByRole('button', { name: 'Upgrade' })).toHaveCount(0);

  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('showTrialDialog=true opens the upgrade dialog for a user without billing info', async ({ page }) => {
  await openSignedOut(page, '/?showTrialDialog=true');
  await signUpThroughUi(page, freshEmail('trial'), PASSWORD);
  const dialog = page.getByRole('dialog', { name: 'Upgrade plan' });
  await expect(dialog.getByRole('region', { name: 'Free' }).getByRole('button', { name: 'Current Plan' })).toBeVisible();
  // It shows the trial: what the free plan already lets the owner try.
  await expect(dialog.getByText(/^Your free trial: every Studio tool works on the free plan/)).toBeVisible();

  // Stored: it comes back on another page until the user has billing info.
  await page.goto('/analytics');
  await expect(dialog).toBeVisible();
  await page.mouse.click(5, 5);
  await expect(dialog).toBeHidden();
});

test("the paid plan sells what is built: the spec's list, resizing and ads under 'Coming soon'", async ({ page }) => {
  await openSignedOut(page);
  await signUpThroughUi(page, freshEmail('plan-list'), PASSWORD);
  const dialog = await openUpgradeDialog(page);
  const pro = dialog.getByRole('region', { name: 'Pro' });
  // Spec section 1: the paid plan's tools, then "Coming soon: turning product images into ads, and resizing images."
  await expect(pro.getByRole('list', { name: "What's included" }).getByRole('listitem')).toHaveText([
    'Unlimited downloads',
    'Background removal',
    'Studio-quality product images',
    'Early access to new AI features',
  ]);
  await expect(pro.getByRole('list', { name: 'Coming soon' }).getByRole('listitem')).toHaveText([
    'Turning product images into ads',
    'Resizing images',
  ]);
});
