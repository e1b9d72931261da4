import { expect, test, type Browser, type Page } from '@playwright/test';
import { fillSignIn, freshEmail, openSignedOut, PASSWORD, signUpThroughUi, simUrl } from './support';

/**
 * Analytics follows the shop's clock, never the viewer's: its ranges,
 * currency, partial day and rounding. The shop is in Pago Pago (UTC−11, no
 * daylight saving), so its day is the one furthest behind; the browsers look from Kiritimati
 * (UTC+14: always a later date than the shop's), from Los Angeles three days
 * in the past on a fixed clock (an earlier date), and from London on a
 * fixed clock at the hour its clocks go forward. Each must see the same
 * shop days, money with its currency on every card, today left out of the
 * presets and marked as so far in a custom range, and the note that the
 * comparison period is partly before the first order.
 */
const SHOP_ZONE = 'Pacific/Pago_Pago';
const DAY_MS = 86_400_000;
/** The first order, this many shop days before today: a 30-day comparison is partly before it. */
const FIRST_ORDER_DAYS_AGO = 45;

/** A day as YYYY-MM-DD in a zone. */
function dayIn(zone: string, at: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** "Nov 30, 2026": the app's one way of writing a calendar day. */
function written(day: string): string {
  return new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${day}T00:00:00Z`),
  );
}

/** Noon of a shop day, as an instant (Pago Pago is a fixed UTC−11). */
const shopNoon = (day: string) => new Date(`${day}T12:00:00-11:00`).toISOString();

interface Shop {
  domain: string;
}

/**
 * A shop of this test's own in Pago Pago: an order every day from the first
 * order to yesterday, some with a discount, one discounted line refunded a
 * day later (the case where the card and the table once disagreed), and
 * sessions for every one of those days.
 */
async function seedPagoPagoShop(page: Page): Promise<Shop> {
  const domain = `e2e-clock-${Date.now()}-${Math.random().toString(36).slice(2, 8)}.myshopify.com`;
  const created = await page.request.post(`${simUrl}/_sim/shops`, {
    data: { domain, name: 'Pago Pago Provisions', currency: 'USD', timezone: SHOP_ZONE },
  });
  expect(created.status(), await created.text()).toBe(201);
  const today = dayIn(SHOP_ZONE, Date.now());
  const sessions = [];
  for (let ago = FIRST_ORDER_DAYS_AGO; ago >= 1; ago--) {
    const day = addDays(today, -ago);
    const orders = 1 + (ago % 3);
    for (let i = 0; i < orders; i++) {
      const order = await page.request.post(`${simUrl}/_sim/shops/${domain}/orders`, {
        data: {
          name: `#${ago}-${i}`,
          createdAt: shopNoon(day),
          lines: [
            { title: 'Coconut Soap', productId: 11, quantity: 2, unitPrice: 1599, discount: i === 1 ? 333 : 0, tax: 0 },
            { title: 'Reef Towel', productId: 12, quantity: 1, unitPrice: 4150, discount: 415, tax: 0 },
          ],
          shipping: 500,
        },
      });
      expect(order.status(), await order.text()).toBe(201);
      if (ago % 7 === 0 && i === 0) {
        const { id } = (await order.json()) as { id: number };
        const refund = await page.request.post(`${simUrl}/_sim/shops/${domain}/orders/${id}/refunds`, {
          data: { at: shopNoon(addDays(day, 1)), lines: [{ lineIndex: 1, quantity: 1 }] },
        });
        expect(refund.status(), await refund.text()).toBe(201);
      }
    }
    sessions.push({ day, sessions: 40 + ago, completed: orders });
  }
  const saved = await page.request.put(`${simUrl}/_sim/shops/${domain}/sessions`, { data: sessions });
  expect(saved.ok(), await saved.text()).toBe(true);
  return { domain };
}

async function signIn(page: Page, email: string, path: string): Promise<void> {
  await openSignedOut(page, path);
  await fillSignIn(page, email, PASSWORD);
  await page.getByRole('dialog', { name: 'Sign in' }).getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: 'Open account menu' })).toBeVisible();
}

/** A browser somewhere else, on a clock of its own (`fixedAt`), signed in as the owner. */
async function viewer(browser: Browser, email: string, timezoneId: string, fixedAt?: number): Promise<Page> {
  const context = await browser.newContext({ timezoneId });
  const page = await context.newPage();
  if (fixedAt !== undefined) await page.clock.setFixedTime(fixedAt);
  await signIn(page, email, '/analytics');
  return page;
}

/** Money on a card: a currency symbol, never a bare number. */
const MONEY = /^\$[\d,]+\.\d\d$/;

async function expectShopDays(page: Page, what: string): Promise<void> {
  const yesterday = addDays(dayIn(SHOP_ZONE, Date.now()), -1);
  const from = addDays(yesterday, -29);
  const caption = page.getByText(/\(30 days\), compared with /);
  await expect(caption, what).toContainText(`${written(from)} – ${written(yesterday)} (30 days), compared with`);
  await expect(caption, what).toContainText(`(${SHOP_ZONE})`);

  for (const name of ['Total sales', 'Average order value']) {
    await expect(page.getByRole('group', { name }).locator('.metric-card__value'), `${what}: ${name}`).toHaveText(MONEY);
  }
  await expect(page.getByRole('group', { name: 'Orders' }).locator('.metric-card__value')).toHaveText(/^[1-9][\d,]*$/);
  // Shopify reports sessions for every day of the preset: a conversion rate, and no note about connecting.
  const conversion = page.getByRole('group', { name: 'Conversion rate' });
  await expect(conversion.locator('.metric-card__value'), what).toHaveText(/^\d+\.\d\d %$/);
  await expect(page.getByText(/Sessions come from a connected Shopify store/)).toHaveCount(0);

  // Today is not in a preset.
  await expect(page.getByText('Today, so far')).toHaveCount(0);
  await expect(page.getByText(/Includes today/)).toHaveCount(0);

  // The period compared with starts before the first order, and says so.
  const first = addDays(dayIn(SHOP_ZONE, Date.now()), -FIRST_ORDER_DAYS_AGO);
  const before = FIRST_ORDER_DAYS_AGO > 30 ? 60 - FIRST_ORDER_DAYS_AGO : 0;
  await expect(
    page.getByText(
      `${before} of the previous 30 days are before your first order (${written(first)}), so the changes compare with days that have no orders yet.`,
    ),
    what,
  ).toBeVisible();
  await expect(page.getByRole('group', { name: 'Total sales' }).getByText(/vs previous 30 days \(partly before your first order\)/)).toBeVisible();
}

/** The card's AOV is the table's own (gross sales − discounts) ÷ orders, rounded once. */
async function expectOneAverageOrderValue(page: Page): Promise<void> {
  const card = (await page.getByRole('group', { name: 'Average order value' }).locator('.metric-card__value').textContent()) ?? '';
  const total = page.getByRole('row', { name: /^Range total/ });
  const cells = await total.getByRole('cell').allTextContents();
  const amount = (text: string) => Number(text.replace(/[^0-9.-]/g, ''));
  const [orders, gross, discounts] = [amount(cells[0]!), amount(cells[1]!), amount(cells[2]!)];
  const fromTable = Math.round(((gross - discounts) / orders) * 100) / 100;
  expect(amount(card), `card ${card}, table (${gross} − ${discounts}) ÷ ${orders}`).toBeCloseTo(fromTable, 2);
  expect(cells[8], 'the total row repeats the card').toBe(card);
}

test('Analytics shows the shop\'s days from browsers ahead of it, behind it and across a DST change', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const shop = await seedPagoPagoShop(page);
  const email = freshEmail('clock');
  await openSignedOut(page, '/connections');
  await signUpThroughUi(page, email, PASSWORD);
  await page.getByLabel('Shop domain').fill(shop.domain);
  await page.getByRole('button', { name: 'Connect Shopify' }).click();
  await page.getByRole('button', { name: 'Install app' }).click();
  await expect(page.getByText(/Last synced/)).toBeVisible({ timeout: 90_000 });

  const now = Date.now();
  const views: [string, string, number | undefined][] = [
    // UTC+14: at every instant a later date than Pago Pago's.
    ['a browser ahead of the shop (Kiritimati)', 'Pacific/Kiritimati', undefined],
    ['a browser behind the shop, on a fixed clock three days back (Los Angeles)', 'America/Los_Angeles', now - 3 * DAY_MS],
    // 00:30 UTC on 29 Mar 2026 is 01:30 BST, half an hour after London's clocks went forward.
    ['a browser at a DST change (London)', 'Europe/London', Date.parse('2026-03-29T00:30:00Z')],
  ];
  for (const [what, zone, fixedAt] of views) {
    const viewerPage = await viewer(browser, email, zone, fixedAt);
    await expectShopDays(viewerPage, what);
    await expectOneAverageOrderValue(viewerPage);
    await viewerPage.context().close();
  }

  // A custom range that ends on the shop's today: today is there, marked as so far everywhere.
  const far = await viewer(browser, email, 'Pacific/Kiritimati');
  const today = dayIn(SHOP_ZONE, Date.now());
  await far.goto(`/analytics?range=custom&from=${addDays(today, -6)}&to=${today}`);
  await expect(
    far.getByText(
      `Includes today (${written(today)}), which is not over yet: its numbers are so far, so this range sets a part of a day against whole days in the comparison.`,
    ),
  ).toBeVisible();
  await expect(far.getByText(`The last day, today (${written(today)}), is not over: its numbers are so far.`, { exact: false })).toBeVisible();
  await expect(far.getByRole('group', { name: 'Total sales' }).getByText(/vs previous 7 days \(today so far\)/)).toBeVisible();
  await expect(far.getByRole('rowheader').filter({ hasText: written(today) })).toContainText('Today, so far');
  for (const name of ['Total sales', 'Average order value']) {
    await expect(far.getByRole('group', { name }).locator('.metric-card__value')).toHaveText(MONEY);
  }
  // The browser's date (tomorrow or later for the shop) cannot be chosen as the end.
  await expect(far.getByLabel('To', { exact: true })).toHaveAttribute('max', today);
  await far.context().close();
});
