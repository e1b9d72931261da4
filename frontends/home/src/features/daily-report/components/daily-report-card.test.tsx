import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  METRIC_FORMULAS,
  POLL_INTERVAL_MS,
  configureHttp,
  getDailyReportQueryOptions,
  type DailyReportJson,
} from '@uplift/platform';
import { fakeGateway, json, renderWithProviders } from '@uplift/platform/testing';
import { DailyReportCard } from './daily-report-card';


const money = (amount: number, currency: string) =>
  new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(amount);

/** A report as the gateway sends it: proto3 JSON leaves out false and empty fields. */
const ready: DailyReportJson = {
  status: 'READY',
  date: '2026-05-03',
  currency: 'EUR',
  timezone: 'Europe/Berlin',
  source: 'shopify',
  headline: 'Orders fell 45 % against your 7-day average; sessions held steady, so conversion dropped — check checkout.',
  metrics: [
    { key: 'totalSales', label: 'Total sales', value: '1250.00', average: '2272.73', changePercent: '-45.0', unusual: true, formula: 'server wording' },
    { key: 'orders', label: 'Orders', value: '12', average: '21.9', changePercent: '-45.2', unusual: true },
    { key: 'averageOrderValue', label: 'Average order value', value: '104.17', average: '103.78', changePercent: '0.4' },
    { key: 'returns', label: 'Returns', value: '70.00', average: '35.00', changePercent: '100.0' },
    { key: 'sessions', label: 'Sessions', value: '610', average: '598.3', changePercent: '2.0' },
    { key: 'conversionRate', label: 'Conversion rate', value: '1.97', average: '3.66', changePercent: '-46.2', unusual: true },
  ],
  notes: ['Total sales fell 45 % against your 7-day average.', 'Conversion fell to 1.97 % from 3.66 %.'],
  bestSeller: 'Anvil, 50 kg',
  action: 'Orders fell while visits held steady, so fewer visitors bought: check your checkout.',
};

function serve(report: DailyReportJson) {
  fakeGateway({ 'GET /internal/categories/cat1/business-data/dailyReport': () => json(report) });
}

function renderCard() {
  renderWithProviders(<DailyReportCard categoryId="cat1" />);
}

/** The list item of one metric, found by its label. */
const metricItem = (name: string) => screen.getByRole('heading', { name: new RegExp(`^${name}`) }).closest('li')!;

beforeEach(() => configureHttp({ baseUrl: 'http://api.test/' }));

describe('DailyReportCard', () => {
  it('shows yesterday against the 7-day average: value, average and change, in the report currency', async () => {
    serve(ready);
    renderCard();
    expect(await screen.findByRole('heading', { name: 'Yesterday (May 3, 2026)' })).toBeTruthy();
    expect(screen.getByText(ready.headline!)).toBeTruthy();
    // The email's suggested action, word for word.
    expect(screen.getByRole('heading', { name: 'Suggested action' })).toBeTruthy();
    expect(screen.getByText(ready.action!)).toBeTruthy();

    const sales = metricItem('Total sales');
    expect(within(sales).getByText(money(1250, 'EUR'))).toBeTruthy();
    expect(within(sales).getByText(`7-day average ${money(2272.73, 'EUR')}, change`, { exact: false })).toBeTruthy();
    expect(within(sales).getByText('−45.0 %').className).toContain('u-change--bad');

    const orders = metricItem('Orders');
    expect(within(orders).getByText('12')).toBeTruthy();
    expect(within(orders).getByText(/7-day average 21\.9/)).toBeTruthy();

    // More returns is bad news even though the number went up.
    expect(within(metricItem('Returns')).getByText('+100.0 %').className).toContain('u-change--bad');
    expect(within(metricItem('Conversion rate')).getByText('1.97 %')).toBeTruthy();
  });

  it('marks the unusual changes with text, not only colour', async () => {
    serve(ready);
    renderCard();
    await screen.findByRole('heading', { name: 'Yesterday (May 3, 2026)' });
    for (const name of ['Total sales', 'Orders', 'Conversion rate']) {
      const item = metricItem(name);
      expect(item.className).toContain('daily-metric--unusual');
      expect(within(item).getByText('Unusual')).toBeTruthy();
    }
    for (const name of ['Average order value', 'Returns', 'Sessions']) {
      const item = metricItem(name);
      expect(item.className).not.toContain('daily-metric--unusual');
      expect(within(item).queryByText('Unusual')).toBeNull();
    }
  });

  it('lists the notes, names the best seller and explains each number', async () => {
    serve(ready);
    renderCard();
    const notes = await screen.findByRole('list', { name: 'Notes' });
    expect(within(notes).getAllByRole('listitem').map((li) => li.textContent)).toEqual(ready.notes);
    expect(screen.getByText('Best seller: Anvil, 50 kg')).toBeTruthy();

    // The web's wording (shared with Analytics), not the server's copy.
    await userEvent.hover(within(metricItem('Total sales')).getByRole('button', { name: 'How Total sales is counted' }));
    expect(screen.getByRole('tooltip').textContent).toBe(METRIC_FORMULAS.totalSales);
  });

  it('says "Not available" for a number without data, and shows no change for it', async () => {
    serve({
      ...ready,
      metrics: [{ key: 'conversionRate', label: 'Conversion rate', average: '3.66' }],
      notes: [],
      bestSeller: undefined,
    });
    renderCard();
    await screen.findByRole('heading', { name: 'Yesterday (May 3, 2026)' });
    const item = metricItem('Conversion rate');
    expect(within(item).getByText('Not available')).toBeTruthy();
    expect(within(item).getByText('—')).toBeTruthy();
    expect(screen.queryByText(/Best seller/)).toBeNull();
    expect(screen.queryByRole('list', { name: 'Notes' })).toBeNull();
  });

  it('is one line with a link to Connections when there is no store data', async () => {
    serve({ status: 'NO_DATA', date: '2026-05-03' });
    renderCard();
    const link = await screen.findByRole('link', { name: 'connect your store or import an order export' });
    expect(link.getAttribute('href')).toBe('/connections');
    expect(link.closest('p')?.textContent).toBe(
      'No store data yet: connect your store or import an order export to get a daily business report.',
    );
    expect(screen.queryByRole('listitem')).toBeNull();
  });

  it('is polled like the current report', () => {
    expect(getDailyReportQueryOptions('cat1').refetchInterval).toBe(POLL_INTERVAL_MS);
    expect(POLL_INTERVAL_MS).toBe(30_000);
  });
});
