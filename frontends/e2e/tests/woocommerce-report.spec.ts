import { expect, test, type Page } from '@playwright/test';
import { connectDemoWooStore, freshEmail, openSignedOut, PASSWORD, signUpThroughUi } from './support';

/**
 * A WooCommerce store's owner gets what a Shopify owner gets: Home's daily
 * report with yesterday's numbers, words that agree with them, and
 * Analytics counting as WooCommerce does, with WooCommerce's formulas.
 */

/** Signs up and connects the demo WooCommerce store on Connections, until its first sync is done. */
async function signUpWithWooStore(page: Page, email: string): Promise<void> {
  await openSignedOut(page, '/connections');
  await signUpThroughUi(page, email, PASSWORD);
  await connectDemoWooStore(page);
  const card = page.getByRole('region', { name: 'WooCommerce' });
  await expect(card.getByText(/^Last synced /)).toBeVisible({ timeout: 60_000 });
  await expect(card.getByText(/^In Uplift: [1-9]/)).toBeVisible();
}

/** A money figure as the web writes it ("$1,234.56", "−$3.00"): its value. */
const money = (text: string) => Number(text.replace(/[^\d.]/g, '')) * (/[−-]/.test(text) ? -1 : 1);

test("a WooCommerce store's daily report on Home: yesterday's numbers, and words that agree with them", async ({ page }) => {
  test.setTimeout(150_000);
  await signUpWithWooStore(page, freshEmail('woodaily'));
  await page.goto('/');
  const card = page.getByRole('region', { name: /^Yesterday \([A-Z][a-z]{2} \d{1,2}, \d{4}\)$/ });
  await expect(card).toBeVisible({ timeout: 30_000 });

  const metric = (name: RegExp) => card.getByRole('listitem').filter({ has: page.getByRole('heading', { name }) });
  // The demo store sells every day: yesterday has sales and orders, each beside its 7-day average.
  const total = metric(/^Total sales/);
  const totalValue = (await total.locator('.daily-metric__value').textContent())!.trim();
  expect(totalValue).toMatch(/^\$[1-9][\d,]*\.\d\d$/);
  await expect(total.getByText(/^7-day average \$[\d,]+\.\d\d, change/)).toBeVisible();
  const orders = (await metric(/^Orders/).locator('.daily-metric__value').textContent())!.trim();
  expect(orders).toMatch(/^[1-9][\d,]*$/);
  // WooCommerce's own rule for the average order value: net sales ÷ orders, and the hint says so.
  await expect(metric(/^Average order value/).getByRole('button', { name: 'How Average order value is counted' })).toHaveAccessibleDescription(
    /net sales ÷ orders \(WooCommerce's rule/,
  );
  // No sessions from WooCommerce: conversion is not made up.
  const conversion = metric(/^Conversion rate/);
  if ((await conversion.count()) > 0) await expect(conversion.locator('.daily-metric__value')).toHaveText('Not available');

  // The headline's words agree with the numbers: a figure it names is the total sales change shown, in the same direction.
  const headline = (await card.locator('.daily-report__headline').textContent())!.trim();
  expect(headline).toBeTruthy();
  const change = (await total.locator('.u-change').textContent())!.trim();
  const sales = /^Sales were (\d+) % (above|below)/.exec(headline);
  if (sales) {
    expect(change.startsWith(sales[2] === 'below' ? '−' : '+'), `${headline} beside ${change}`).toBe(true);
    expect(Math.round(Math.abs(Number(change.replace(/[^\d.]/g, ''))))).toBe(Number(sales[1]));
  } else {
    // A usual day says so only when the total sales moved little.
    if (/A usual day/.test(headline)) expect(Math.abs(Number(change.replace(/[^\d.]/g, '')) || 0), `${headline} beside ${change}`).toBeLessThan(20);
  }
  // The change shown is the value against the average shown.
  const average = money(/7-day average (\S+),/.exec((await total.locator('.daily-metric__detail').textContent())!)![1]!);
  if (average > 0 && /\d/.test(change)) {
    const pct = ((money(totalValue) - average) / average) * 100;
    expect(Math.abs(Math.abs(pct) - Number(change.replace(/[^\d.]/g, ''))), `${totalValue} against ${average}: ${change}`).toBeLessThan(1.5);
  }
});

test('Analytics shows the WooCommerce numbers, each counted by WooCommerce\'s formula', async ({ page }) => {
  test.setTimeout(150_000);
  await signUpWithWooStore(page, freshEmail('wooanalytics'));
  await page.goto('/analytics');
  await expect(page.getByRole('heading', { name: 'Analytics', level: 1 })).toBeVisible();
  await expect(page.getByText(/From your connected WooCommerce store/)).toBeVisible();

  const card = (name: string) => page.getByRole('group', { name });
  await expect(card('Total sales').getByText(/[1-9][\d,]*\.\d\d/).first()).toBeVisible();
  await expect(card('Orders').getByText(/^[1-9][\d,]*$/).first()).toBeVisible();
  const formulas: Record<string, RegExp> = {
    'Total sales': /^Total sales = net sales \+ shipping \+ taxes \(WooCommerce's rule/,
    'Average order value': /^Average order value = net sales ÷ orders \(WooCommerce's rule/,
    Orders: /^Orders = orders counted on the day paid; pending, failed and cancelled ones left out \(WooCommerce's rule/,
  };
  for (const [name, formula] of Object.entries(formulas)) {
    await expect(card(name).getByRole('button', { name: `How ${name} is counted` })).toHaveAccessibleDescription(formula);
  }
  // The average order value shown is WooCommerce's: the range's net sales ÷ its orders, as the table's total row has them.
  const table = page.getByRole('table');
  const heads = (await table.locator('thead th').allTextContents()).map((h) => h.trim());
  const totals = table.locator('tfoot tr').locator('th, td');
  const total = async (label: string) => (await totals.nth(heads.findIndex((h) => h.startsWith(label))).textContent())!.trim();
  const net = money(await total('Net sales'));
  const count = Number((await total('Orders')).replace(/[^\d]/g, ''));
  const aov = money((await card('Average order value').locator('.metric-card__value').textContent())!);
  expect(count).toBeGreaterThan(0);
  expect(Math.abs(aov - net / count), `AOV ${aov} against ${net} ÷ ${count}`).toBeLessThan(0.01);
});
