import { mkdirSync } from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import {
  adminToken,
  categoryOf,
  freshEmail,
  gatewayUrl,
  mailParts,
  openBusinessProfile,
  openSignedOut,
  PASSWORD,
  signUpThroughUi,
  signUpWithShop,
  simUrl,
  smtpSinkApi,
  waitForMail,
  type SinkMail,
} from './support';
import { startStore, type TestStore } from './test-store';

/**
 * What a new owner is sent after sign-up, what
 * Home says while Monday's re-review runs, whether Connections keeps the
 * store's size through "Sync now", and whether the daily report's words and
 * action read the same on Home and in the email. Pictures at 375 and 1280 px
 * go to UPLIFT_SHOTS_DIR when it is set (a person looks at them).
 */

const shotsDir = process.env.UPLIFT_SHOTS_DIR;

async function shoot(target: Page | Locator, name: string): Promise<void> {
  if (!shotsDir) return;
  mkdirSync(shotsDir, { recursive: true });
  const page = 'page' in target ? target.page() : target;
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await target.screenshot({ path: `${shotsDir}/${name}-${width}px.png`, ...('page' in target ? {} : { fullPage: true }) });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** Every email the sink holds for an address, oldest first. */
async function mailsTo(page: Page, to: string): Promise<SinkMail[]> {
  const mails = (await (await page.request.get(`${smtpSinkApi}/api/email`)).json()) as SinkMail[];
  return mails.filter((m) => m.to.some((t) => t.address === to));
}

let store: TestStore;

test.beforeAll(async () => {
  store = await startStore();
});

test.afterAll(async () => {
  await store.close();
});

test('after sign-up: the address verification, then "Your first website review is ready", and no weekly email', async ({ page, context }) => {
  test.setTimeout(180_000);
  const email = freshEmail('firstreview');
  await openSignedOut(page);
  await signUpThroughUi(page, email, PASSWORD);

  // The web's sign-up suppresses the welcome email (spec): the first email is the verification.
  const verify = await waitForMail(page, email, /^Confirm your email address for Uplift$/);
  const html = await (await page.request.get(`${smtpSinkApi}/api/email/${verify.id}/html`)).text();
  const link = /href="([^"]*mode=verifyEmail[^"]*)"/.exec(html)?.[1]?.replaceAll('&amp;', '&');
  expect(link, 'the verification link').toBeTruthy();
  // The emulator's page confirms the address.
  const confirm = await context.newPage();
  await confirm.goto(link!);
  await confirm.close();

  const profile = await openBusinessProfile(page);
  await profile.getByRole('textbox', { name: 'Name' }).fill('Harbour Kiln');
  await profile.getByRole('textbox', { name: 'Website' }).fill(store.url);
  await profile.getByRole('button', { name: 'Save' }).click();
  await expect(profile).toBeHidden({ timeout: 30_000 });
  await expect(page.getByRole('region', { name: 'Website score' })).toBeVisible({ timeout: 90_000 });

  const first = await waitForMail(page, email, /^Your first website review is ready$/, 60_000);
  const { html: firstHtml } = await mailParts(page, first);
  const reader = await context.newPage();
  await reader.setContent(firstHtml);
  await expect(reader.getByRole('heading', { name: 'Your first website review is ready' })).toBeVisible();
  await expect(reader.getByText(/last week/i)).toHaveCount(0);
  await shoot(reader, 'email-first-review');

  // The schedule's round (every minute) starts no weekly review in the week of the first one.
  await page.waitForTimeout(65_000);
  const subjects = (await mailsTo(page, email)).map((m) => m.subject);
  expect(subjects.filter((s) => /this week/.test(s)), subjects.join(' | ')).toEqual([]);
  expect(subjects.filter((s) => s === 'Your first website review is ready')).toHaveLength(1);
});

test('Home keeps the score while a scheduled re-review runs, never "reviewing" again', async ({ page }) => {
  test.setTimeout(180_000);
  const email = freshEmail('rerun');
  await openSignedOut(page);
  await signUpThroughUi(page, email, PASSWORD);
  const profile = await openBusinessProfile(page);
  await profile.getByRole('textbox', { name: 'Website' }).fill(store.url);
  await profile.getByRole('button', { name: 'Save' }).click();
  await expect(profile).toBeHidden({ timeout: 30_000 });
  const score = page.getByRole('region', { name: 'Website score' });
  await expect(score).toBeVisible({ timeout: 90_000 });

  // The week's re-review, as Monday's slot starts it (an operator's run, so the test need not wait for Monday).
  const { categoryId } = await categoryOf(page, email);
  const run = await page.request.post(`${gatewayUrl}/internal/categories/${categoryId}/weeklyReview/run`, {
    headers: { Authorization: `Bearer ${await adminToken(page)}` },
    data: {},
  });
  expect(run.status(), await run.text()).toBe(200);
  // Until it is done (and after), Home shows the last result, not the progress of a run the owner did not start.
  for (let i = 0; i < 10; i++) {
    await page.reload();
    await expect(score).toBeVisible();
    await expect(page.getByRole('heading', { name: "We're reviewing your website" })).toHaveCount(0);
    await page.waitForTimeout(1_000);
  }
  await waitForMail(page, email, /^Your website this week: \d+\/100/, 90_000);
  await expect(score).toBeVisible();
});

test('"Sync now" keeps the store\'s counts on Connections, during the sync, after it and after a reload', async ({ page }) => {
  test.setTimeout(150_000);
  const shop = await signUpWithShop(page, freshEmail('syncnow'));
  const card = page.getByRole('region', { name: 'Shopify' });
  const counts = card.getByText(/^In Uplift: /);
  await expect(counts).toHaveText(/^In Uplift: \d[\d,]* orders · \d[\d,]* products · \d[\d,]* customers$/);
  const before = await counts.textContent();
  expect(before).not.toMatch(/In Uplift: [01] orders?/);

  // A re-sync of a shop already imported is quick: slow answers keep it
  // running long enough to see it run.
  const slow = await page.request.post(`${simUrl}/_sim/shops/${shop.domain}/faults`, {
    data: { kind: 'slow', delayMs: 800, count: 6 },
  });
  expect(slow.ok(), await slow.text()).toBe(true);
  await card.getByRole('button', { name: 'Sync now' }).click();
  await expect(card.getByRole('progressbar')).toBeVisible();
  await expect(counts).toHaveText(before!);
  await shoot(card, 'connections-syncing');
  await expect(card.getByText(/Last synced/)).toBeVisible({ timeout: 60_000 });
  await expect(counts).toHaveText(before!);
  await page.reload();
  await expect(page.getByRole('region', { name: 'Shopify' }).getByText(/^In Uplift: /)).toHaveText(before!);
  await shoot(page.getByRole('region', { name: 'Shopify' }), 'connections-synced');
});

test('the daily report: Home and the email carry the same headline and the same suggested action', async ({ page, context }) => {
  test.setTimeout(150_000);
  const email = freshEmail('dailywords');
  await signUpWithShop(page, email);
  await page.goto('/');
  const card = page.getByRole('region', { name: /^Yesterday \([A-Z][a-z]{2} \d{1,2}, \d{4}\)$/ });
  await expect(card).toBeVisible({ timeout: 30_000 });
  const headline = (await card.locator('.daily-report__headline').textContent())!.trim();
  const action = (await card.getByRole('heading', { name: 'Suggested action' }).locator('xpath=following-sibling::p').textContent())!.trim();
  expect(headline).not.toMatch(/A usual day|nothing moved enough to flag/);
  // A headline with a figure names the direction the total sales change shows.
  const sales = /^Sales were (\d+) % (above|below)/.exec(headline);
  if (sales) {
    const change = (await card.getByRole('listitem').filter({ has: page.getByRole('heading', { name: /^Total sales/ }) }).locator('.u-change').textContent())!;
    expect(change.startsWith(sales[2] === 'below' ? '−' : '+'), `${headline} beside ${change}`).toBe(true);
    expect(Math.round(Math.abs(Number(change.replace(/[^\d.]/g, ''))))).toBe(Number(sales[1]));
  }
  await shoot(card, 'home-daily-report');

  const { categoryId } = await categoryOf(page, email);
  const sent = await page.request.post(`${gatewayUrl}/internal/categories/${categoryId}/business-data/dailyReport/send`, {
    headers: { Authorization: `Bearer ${await adminToken(page)}` },
    data: {},
  });
  expect([200, 409], await sent.text()).toContain(sent.status());
  const mail = await waitForMail(page, email, /^Yesterday at .+: \S/);
  const { html } = await mailParts(page, mail);
  const reader = await context.newPage();
  await reader.setContent(html);
  await expect(reader.getByText(headline, { exact: true })).toBeVisible();
  await expect(reader.getByText(action, { exact: true })).toBeVisible();
  await shoot(reader, 'email-daily-report');
});
