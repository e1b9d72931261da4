import AxeBuilder from '@axe-core/playwright';
import { expect, type BrowserContext, type Page, type TestInfo } from '@playwright/test';

/** The Firebase Auth emulator the stack runs; tests use it only to set up users. */
export const authEmulatorUrl = process.env.UPLIFT_AUTH_EMULATOR_URL || 'http://127.0.0.1:9099';

/** A fresh address per call, so tests own their users and can run in parallel. */
export function freshEmail(prefix = 'e2e'): string {
  const random = Math.random().toString(36).slice(2, 10);
  return `${prefix}-${Date.now()}-${random}@example.com`;
}

export const PASSWORD = 'correct-horse-battery-staple';

/** Creates an account directly in the emulator (test set-up, not the flow under test). */
export async function createEmulatorUser(page: Page, email: string, password: string): Promise<void> {
  const response = await page.request.post(
    `${authEmulatorUrl}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=demo-api-key`,
    { data: { email, password, returnSecureToken: true } },
  );
  expect(response.ok(), await response.text()).toBe(true);
}

/** Opens the app signed out and waits until auth state is known. */
export async function openSignedOut(page: Page, path = '/'): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
}

/** Opens the sign dialog and fills in the credentials (sign-in mode). */
export async function fillSignIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByRole('button', { name: 'Sign in' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sign in' });
  await expect(dialog.getByText('Please sign in below to continue.')).toBeVisible();
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Password').fill(password);
}

/** Signs up through the dialog, as a person would, and waits for the avatar menu. */
export async function signUpThroughUi(page: Page, email: string, password: string): Promise<void> {
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'First time here?' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sign up' });
  await expect(dialog.getByText('Please sign up below to continue.')).toBeVisible();
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Password').fill(password);
  await dialog.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByRole('button', { name: 'Open account menu' })).toBeVisible();
}

/** Opens the Business profile dialog from the avatar menu and waits for the saved values. */
export async function openBusinessProfile(page: Page) {
  await page.getByRole('button', { name: 'Open account menu' }).click();
  await page.getByRole('menuitem', { name: 'Business profile' }).click();
  const dialog = page.getByRole('dialog', { name: 'Business profile' });
  await expect(dialog.getByText('Your business profile is used to personalize ideas and insights.')).toBeVisible();
  await expect(dialog.getByPlaceholder('Enter business name')).toBeVisible();
  return dialog;
}

/** The API gateway, for test set-up calls the UI has no screen for. */
export const gatewayUrl = (process.env.UPLIFT_GATEWAY_URL || 'http://localhost:8080').replace(/\/$/, '');

/** Signs in against the emulator's REST API: a fresh ID token (with current claims) and the uid. */
export async function emulatorSignIn(page: Page, email: string, password: string): Promise<{ uid: string; idToken: string }> {
  const response = await page.request.post(
    `${authEmulatorUrl}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=demo-api-key`,
    { data: { email, password, returnSecureToken: true } },
  );
  expect(response.ok(), await response.text()).toBe(true);
  const body = (await response.json()) as { localId: string; idToken: string };
  return { uid: body.localId, idToken: body.idToken };
}

/** Grants the admin claim through the emulator (the 'owner' bearer is the emulator's admin). */
export async function makeAdmin(page: Page, uid: string): Promise<void> {
  const response = await page.request.post(
    `${authEmulatorUrl}/identitytoolkit.googleapis.com/v1/projects/demo-uplift/accounts:update`,
    {
      headers: { Authorization: 'Bearer owner' },
      data: { localId: uid, customAttributes: JSON.stringify({ admin: true }) },
    },
  );
  expect(response.ok(), await response.text()).toBe(true);
}

/**
 * Sets a user's tier by hand (manual billing), as an admin would; there is no
 * screen for it. The user is made an admin and signs in again for a token with
 * the claim.
 */
export async function setTierByHand(page: Page, email: string, password: string, tier: string): Promise<void> {
  const { uid } = await emulatorSignIn(page, email, password);
  await makeAdmin(page, uid);
  const { idToken } = await emulatorSignIn(page, email, password);
  const response = await page.request.post(`${gatewayUrl}/internal/metricsUsers/setBilling`, {
    headers: { Authorization: `Bearer ${idToken}` },
    data: { userId: uid, tier },
  });
  expect(response.ok(), await response.text()).toBe(true);
}

/** The Shopify simulator of the local stack (its control API seeds shops). */
export const simUrl = (process.env.UPLIFT_SHOPIFY_SIM_URL || 'http://127.0.0.1:9300').replace(/\/$/, '');

/**
 * A shop of this test's own with the demo shop's four months of history (a
 * shop feeds one business only, so tests never share one). A few slow answers
 * make the first import take long enough to watch.
 */
export async function seedShop(page: Page): Promise<{ domain: string; name: string }> {
  const domain = `e2e-${Date.now()}-${Math.random().toString(36).slice(2, 8)}.myshopify.com`;
  const name = 'E2E Outfitters';
  const created = await page.request.post(`${simUrl}/_sim/shops`, { data: { domain, name, demo: true } });
  expect(created.status(), await created.text()).toBe(201);
  const fault = await page.request.post(`${simUrl}/_sim/shops/${domain}/faults`, {
    data: { kind: 'slow', delayMs: 800, count: 6 },
  });
  expect(fault.ok(), await fault.text()).toBe(true);
  return { domain, name };
}

/** The SMTP sink of the local stack (MailDev's REST API). */
export const smtpSinkApi = (process.env.SMTP_SINK_API || 'http://127.0.0.1:1080').replace(/\/$/, '');

export interface SinkMail {
  id: string;
  subject: string;
  to: Array<{ address: string }>;
}

/** Waits for the newest email to `to` whose subject matches, and returns it. */
export async function waitForMail(page: Page, to: string, subject: RegExp, timeout = 30_000): Promise<SinkMail> {
  let found: SinkMail | undefined;
  await expect
    .poll(
      async () => {
        const response = await page.request.get(`${smtpSinkApi}/api/email`);
        const mails = (await response.json()) as SinkMail[];
        found = [...mails].reverse().find((m) => m.to.some((t) => t.address === to) && subject.test(m.subject));
        return Boolean(found);
      },
      { timeout, message: `an email to ${to} matching ${subject}` },
    )
    .toBe(true);
  return found!;
}

/**
 * A fresh admin's ID token: operator-only calls (a recurring email sent ahead
 * of its hour) need the admin claim, which no store owner has.
 */
export async function adminToken(page: Page): Promise<string> {
  const email = freshEmail('ops');
  await createEmulatorUser(page, email, PASSWORD);
  const { uid } = await emulatorSignIn(page, email, PASSWORD);
  await makeAdmin(page, uid);
  return (await emulatorSignIn(page, email, PASSWORD)).idToken;
}

/** The signed-up user's category id, read as the app reads it. */
export async function categoryOf(page: Page, email: string): Promise<{ categoryId: string; idToken: string }> {
  const { uid, idToken } = await emulatorSignIn(page, email, PASSWORD);
  const profile = await page.request.get(`${gatewayUrl}/internal/users/${uid}`, { headers: { Authorization: `Bearer ${idToken}` } });
  expect(profile.ok(), await profile.text()).toBe(true);
  return { categoryId: ((await profile.json()) as { categoryId: string }).categoryId, idToken };
}

/**
 * Opens an email's HTML as a mail client would show it, at 375 px (a phone)
 * and 1280 px, checks nothing is wider than a phone's screen, and attaches
 * both screenshots to the test's output (test-results/…/<name>-375px.png).
 * Returns the page, left at 1280 px, to follow its links.
 */
export async function readEmail(context: BrowserContext, testInfo: TestInfo, html: string, name: string): Promise<Page> {
  const reader = await context.newPage();
  await reader.setContent(html);
  for (const width of [375, 1280]) {
    await reader.setViewportSize({ width, height: 900 });
    expect(await reader.evaluate(() => document.documentElement.scrollWidth), `${name} at ${width} px`).toBeLessThanOrEqual(width);
    const path = testInfo.outputPath(`${name}-${width}px.png`);
    await reader.screenshot({ path, fullPage: true });
    await testInfo.attach(`${name}-${width}px.png`, { path, contentType: 'image/png' });
  }
  return reader;
}

/** An email's raw source and HTML part from the sink, and its List-Unsubscribe link. */
export async function mailParts(page: Page, mail: SinkMail): Promise<{ source: string; html: string; unsubscribe: string }> {
  const source = await (await page.request.get(`${smtpSinkApi}/api/email/${mail.id}/source`)).text();
  expect(source).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
  const unsubscribe = /^List-Unsubscribe: <([^>]+)>/m.exec(source)?.[1];
  expect(unsubscribe, 'List-Unsubscribe header').toBeTruthy();
  const html = await (await page.request.get(`${smtpSinkApi}/api/email/${mail.id}/html`)).text();
  return { source, html, unsubscribe: unsubscribe! };
}

/** Signs a fresh user up on Connections and connects a seeded shop, waiting for its first sync. */
export async function signUpWithShop(page: Page, email: string): Promise<{ domain: string; name: string }> {
  const shop = await seedShop(page);
  await openSignedOut(page, '/connections');
  await signUpThroughUi(page, email, PASSWORD);
  await page.getByLabel('Shop domain').fill(shop.domain);
  await page.getByRole('button', { name: 'Connect Shopify' }).click();
  await page.getByRole('button', { name: 'Install app' }).click();
  await expect(page.getByText(/Last synced/)).toBeVisible({ timeout: 60_000 });
  return shop;
}

/**
 * Follows an email's unsubscribe link as a person: the page asks first (a
 * link scanner's GET changes nothing), then says what was turned off.
 */
export async function unsubscribeThroughPage(page: Page, link: string, kind: RegExp): Promise<void> {
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Unsubscribe from these emails?' })).toBeVisible();
  await page.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(page.getByRole('heading', { name: 'You are unsubscribed' })).toBeVisible();
  await expect(page.getByText(kind).first()).toBeVisible();
}

/** Waits until the Business profile's two email switches read as given. */
export async function expectEmailSwitches(page: Page, weekly: boolean, daily: boolean): Promise<void> {
  await page.goto('/');
  await expect(async () => {
    const dialog = await openBusinessProfile(page);
    const state = async (name: string) => dialog.getByRole('switch', { name }).isChecked();
    expect([await state('Weekly Website Review'), await state('Daily Business Report')]).toEqual([weekly, daily]);
    await page.keyboard.press('Escape');
  }).toPass({ timeout: 30_000 });
}

/** axe (WCAG 2.1 A and AA) finds no serious or critical violation on the page, or within include. */
export async function expectNoSeriousViolations(page: Page, what: string, include?: string): Promise<void> {
  let builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  if (include) builder = builder.include(include);
  const { violations } = await builder.analyze();
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(serious, `${what}: serious or critical axe violations`).toEqual([]);
}

/** One order of a small export written by a test: a product sold on a day (UTC noon). */
export interface ExportOrder {
  product: string;
  price: string;
  quantity?: number;
  /** Days before today. */
  daysAgo: number;
}

/**
 * An order export in Shopify's CSV format with the given orders, in USD:
 * the columns the import reads, nothing more.
 */
export function orderExport(orders: ExportOrder[]): string {
  const header = 'Name,Email,Financial Status,Currency,Subtotal,Shipping,Taxes,Total,Discount Amount,Created at,Lineitem quantity,Lineitem name,Lineitem price';
  const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
  const rows = orders.map((o, i) => {
    const quantity = o.quantity ?? 1;
    const total = (Number(o.price) * quantity).toFixed(2);
    return [`#${1001 + i}`, `buyer${i}@example.com`, 'paid', 'USD', total, '0.00', '0.00', total, '0.00', `${day(o.daysAgo)} 12:00:00 +0000`, quantity, `"${o.product}"`, o.price].join(',');
  });
  return [header, ...rows].join('\n');
}

/** Imports an order export through Connections, as an owner would, and waits for its result. */
export async function importOrderExport(page: Page, csv: string): Promise<void> {
  await page.goto('/connections');
  await page.getByLabel('Order export (CSV)').setInputFiles({ name: 'orders_export.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(page.getByText(/^Imported \d+ orders? from /)).toBeVisible({ timeout: 30_000 });
}

/** Sets the business's website in the Business profile and waits for the dialog to close. */
export async function saveWebsite(page: Page, url: string): Promise<void> {
  const dialog = await openBusinessProfile(page);
  await dialog.getByRole('textbox', { name: 'Website' }).fill(url);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
}

/** The stack's demo tea shop website (its JSON-LD names each tea's photo and sku). */
export const demoStoreUrl = process.env.UPLIFT_DEMO_STORE_URL || 'http://127.0.0.1:9400/';

/** devstack's WooCommerce simulator (shifted by the stack's port offset) and its demo store. */
export const wooSimUrl = (process.env.UPLIFT_WOO_SIM_URL || 'http://127.0.0.1:9301').replace(/\/$/, '');
export const demoWooStore = `${wooSimUrl}/fernhill`;

/**
 * Connects the demo WooCommerce store from the card on Connections: its address, then the store's own grant
 * screen (the simulator's), unless it approves by itself and sends the browser straight back; waits for the
 * return to /connections. Not "/connections" itself first: the page is still on it when the click starts the
 * navigation.
 */
export async function connectDemoWooStore(page: Page): Promise<void> {
  const card = page.getByRole('region', { name: 'WooCommerce' });
  await card.getByLabel('Store address').fill(demoWooStore);
  await card.getByRole('button', { name: 'Connect WooCommerce' }).click();
  await page.waitForURL(/\/wc-auth\/v1\/authorize|[?&]woocommerce=/);
  if (/\/wc-auth\/v1\/authorize/.test(page.url())) {
    await page.getByRole('button', { name: 'Approve' }).click();
  }
  await expect(page).toHaveURL(/\/connections$/);
}
