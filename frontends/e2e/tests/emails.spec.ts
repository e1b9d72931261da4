import { expect, test } from '@playwright/test';
import {
  demoStoreUrl,
  emulatorSignIn,
  importOrderExport,
  openSignedOut,
  orderExport,
  saveWebsite,
  signUpThroughUi,
  freshEmail,
  gatewayUrl,
  mailParts,
  PASSWORD,
  readEmail,
  signUpWithShop,
  unsubscribeThroughPage,
  waitForMail,
} from './support';

/**
 * The AI email digest as its reader meets it: asked for once a minute at
 * most, read at 375 px and 1280 px (screenshots in the test output), a link
 * that leads back into the app, and the unsubscribe link's page.
 */
test('the AI email digest: sent once a minute, read on a phone, links back, unsubscribes', async ({ page, context }, testInfo) => {
  test.setTimeout(120_000);
  const email = freshEmail('digest');
  await signUpWithShop(page, email);

  // The store's own numbers give the digest an idea to carry.
  const { uid, idToken } = await emulatorSignIn(page, email, PASSWORD);
  const auth = { Authorization: `Bearer ${idToken}` };
  const profile = await page.request.get(`${gatewayUrl}/internal/users/${uid}`, { headers: auth });
  const categoryId = ((await profile.json()) as { categoryId: string }).categoryId;
  await expect
    .poll(async () => {
      const r = await page.request.get(`${gatewayUrl}/internal/categories/${categoryId}/business-data/reports/ideas/recent`, { headers: auth });
      return (((await r.json()) as { ideas?: unknown[] }).ideas ?? []).length;
    }, { timeout: 30_000 })
    .toBeGreaterThan(0);

  const send = () => page.request.post(`${gatewayUrl}/internal/categories/${categoryId}/sendAIEmailDigest`, { headers: auth, data: {} });
  expect((await send()).status()).toBe(200);
  const again = await send();
  expect(again.status()).toBe(429);
  expect(((await again.json()) as { message: string }).message).toContain('already on its way');

  const mail = await waitForMail(page, email, /^Your AI digest for /);
  const { html, unsubscribe } = await mailParts(page, mail);
  const reader = await readEmail(context, testInfo, html, 'ai-digest');
  const ideaLink = reader.locator('a[href*="/ideas/"]').first();
  const ideaHref = await ideaLink.getAttribute('href');
  // Links point at the web this stack serves (UPLIFT_WEB_URL), not the API.
  expect(ideaHref!.startsWith(`${new URL(testInfo.project.use.baseURL!).origin}/ideas/`)).toBe(true);

  // The idea's link opens it in the app.
  await page.goto(ideaHref!);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByText('Something went wrong')).toHaveCount(0);

  // The unsubscribe link: a page that asks first (a link scanner's GET
  // changes nothing), then says what was turned off, and turns it back on.
  await unsubscribeThroughPage(page, unsubscribe, /AI email digest/i);
  await page.getByRole('button', { name: 'Turn it back on' }).click();
  await expect(page.getByRole('heading', { name: 'You are subscribed again' })).toBeVisible();
});

test("Home's 'Email me the AI digest' sends it, and says so; a second ask within a minute is refused with why", async ({ page }) => {
  test.setTimeout(150_000);
  const email = freshEmail('digest-button');
  await openSignedOut(page);
  await signUpThroughUi(page, email, PASSWORD);
  await saveWebsite(page, demoStoreUrl);
  await importOrderExport(page, orderExport([{ product: 'Morning Assam', price: '14.50', quantity: 4, daysAgo: 1 }]));

  await page.goto('/');
  const ideas = page.getByRole('region', { name: 'Campaign ideas' });
  const button = ideas.getByRole('button', { name: 'Email me the AI digest' });
  await expect(button).toBeVisible({ timeout: 90_000 });
  await button.click();
  await expect(ideas.getByRole('status')).toHaveText('Sent: your insights and campaign ideas are on their way to your account email.');
  await waitForMail(page, email, /^Your AI digest for /);

  await button.click();
  await expect(ideas.getByRole('alert')).toContainText('already on its way');
});
