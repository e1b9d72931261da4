import { expect, test } from '@playwright/test';
import {
  adminToken,
  categoryOf,
  expectEmailSwitches,
  freshEmail,
  gatewayUrl,
  mailParts,
  openBusinessProfile,
  openSignedOut,
  PASSWORD,
  readEmail,
  signUpThroughUi,
  signUpWithShop,
  unsubscribeThroughPage,
  waitForMail,
} from './support';
import { startStore, type TestStore } from './test-store';

/**
 * The two recurring emails as their reader meets them. They go out on
 * Monday 08:00 and each morning at 07:00 in the store's time zone, so the
 * tests ask for them the way an operator can: an admin-only call that sends
 * the current week's (or yesterday's) email at once and claims that period,
 * so the schedule never sends it twice. Each email is read at 375 px and
 * 1280 px (screenshots in the test output), its link opens the app, and its
 * unsubscribe page turns that kind off, which the Business profile shows.
 */

let store: TestStore;

test.beforeAll(async () => {
  store = await startStore();
});

test.afterAll(async () => {
  await store.close();
});

test('the weekly website review: a fresh review with what was fixed, read on a phone, links home, unsubscribes', async ({ page, context }, testInfo) => {
  test.setTimeout(180_000);
  const email = freshEmail('weekly');
  await openSignedOut(page);
  await signUpThroughUi(page, email, PASSWORD);
  // The weekly email off at first: the schedule starts a week's review as
  // soon as a website with the weekly email on is saved (this week's slot
  // has passed), and this test wants the week's review after a fix.
  const profile = await openBusinessProfile(page);
  await profile.getByRole('textbox', { name: 'Name' }).fill('Northfield Forge');
  await profile.getByRole('textbox', { name: 'Website' }).fill(store.url);
  await profile.getByRole('switch', { name: 'Weekly Website Review' }).uncheck();
  await profile.getByRole('button', { name: 'Save' }).click();
  await expect(profile).toBeHidden({ timeout: 30_000 });
  await expect(page.getByRole('region', { name: 'Website score' })).toBeVisible({ timeout: 60_000 });

  const { categoryId, idToken: ownerToken } = await categoryOf(page, email);
  const run = (token: string) =>
    page.request.post(`${gatewayUrl}/internal/categories/${categoryId}/weeklyReview/run`, {
      headers: { Authorization: `Bearer ${token}` },
      data: {},
    });
  // Only an operator may send it ahead of Monday; the owner may not.
  expect((await run(ownerToken)).status()).toBe(403);
  const admin = await adminToken(page);
  const off = await run(admin);
  expect(off.status()).toBe(400);
  expect(((await off.json()) as { message: string }).message).toBe('This business has no website or its weekly email is off.');

  // The owner fixes two things during the week, and turns the email on.
  store.improve();
  const again = await openBusinessProfile(page);
  await again.getByRole('switch', { name: 'Weekly Website Review' }).check();
  await again.getByRole('button', { name: 'Save' }).click();
  await expect(again).toBeHidden({ timeout: 30_000 });
  // The operator's run starts the week's review, unless the schedule's
  // round (every minute) got there first: either way one review, one email.
  const started = await run(admin);
  expect([200, 409], await started.text()).toContain(started.status());
  expect((await run(admin)).status()).toBe(409);

  const mail = await waitForMail(page, email, /^Your website this week: \d+\/100 for Northfield Forge$/, 90_000);
  const { html, unsubscribe } = await mailParts(page, mail);
  const reader = await readEmail(context, testInfo, html, 'weekly-review');
  await expect(reader.getByText('Fixed since last week: well done!')).toBeVisible();
  await expect(reader.getByText('The fixes worth the most points')).toBeVisible();
  await expect(reader.getByText(/^((Up|Down) \d+ points? since last week|The same as last week)\.$/)).toBeVisible();

  // Home from the email shows the same review.
  const home = await reader.getByRole('link', { name: 'See the whole review on Uplift Home' }).getAttribute('href');
  // Links point at the web this stack serves (UPLIFT_WEB_URL), not the API.
  const web = new URL(testInfo.project.use.baseURL!).origin;
  expect(home === web || home === `${web}/`, `Home link ${home}`).toBe(true);
  await page.goto(home!);
  await expect(page.getByRole('region', { name: 'Website score' })).toBeVisible();
  await expect(page.getByText('Something went wrong')).toHaveCount(0);

  // Unsubscribe turns the weekly review off, and the Business profile shows it.
  await unsubscribeThroughPage(page, unsubscribe, /weekly website review/i);
  await expectEmailSwitches(page, false, true);
});

test('the daily business report: yesterday against the week, read on a phone, links to analytics, unsubscribes', async ({ page, context }, testInfo) => {
  test.setTimeout(180_000);
  const email = freshEmail('daily');
  await signUpWithShop(page, email);

  const { categoryId, idToken: ownerToken } = await categoryOf(page, email);
  const send = (token: string) =>
    page.request.post(`${gatewayUrl}/internal/categories/${categoryId}/business-data/dailyReport/send`, {
      headers: { Authorization: `Bearer ${token}` },
      data: {},
    });
  expect((await send(ownerToken)).status()).toBe(403);
  const admin = await adminToken(page);
  // Yesterday's report, unless the schedule's round sent it first (the
  // shop's 07:00 has passed today): either way one report, one email.
  const sent = await send(admin);
  expect([200, 409], await sent.text()).toContain(sent.status());
  expect((await send(admin)).status()).toBe(409);

  // The email names the business (its name in the Business profile).
  const mail = await waitForMail(page, email, /^Yesterday at .+: \S/);
  expect(mail.subject).not.toMatch(/no sales data yet/);
  const { html, unsubscribe } = await mailParts(page, mail);
  const reader = await readEmail(context, testInfo, html, 'daily-report');
  await expect(reader.getByRole('heading', { name: /^Yesterday at / })).toBeVisible();
  // The numbers are a real table (headers and cells), not a layout one.
  await expect(reader.getByRole('columnheader', { name: '7-day avg' })).toBeVisible();
  // A row the rule judged unusual carries the word in its first cell ("Total sales Unusual"): which rows do
  // depends on the demo data's yesterday, so on the day the test runs.
  for (const label of ['Total sales', 'Orders', 'Sessions']) {
    await expect(reader.getByRole('cell', { name: new RegExp(`^${label}\\s*(Unusual)?$`) })).toBeVisible();
  }

  const analytics = await reader.getByRole('link', { name: 'See your analytics' }).getAttribute('href');
  expect(analytics).toBe(`${new URL(testInfo.project.use.baseURL!).origin}/analytics`);
  await page.goto(analytics!);
  await expect(page.getByRole('heading', { name: 'Analytics', level: 1 })).toBeVisible();
  await expect(page.getByText('Something went wrong')).toHaveCount(0);

  await unsubscribeThroughPage(page, unsubscribe, /daily business report/i);
  await expectEmailSwitches(page, true, false);
});
