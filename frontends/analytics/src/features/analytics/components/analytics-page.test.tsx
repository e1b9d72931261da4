import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  METRIC_FORMULAS,
  configureHttp,
  type DayMetricsJson,
  type GetMetricsResponseJson,
} from '@uplift/platform';
import { describedBy, fakeGateway, json, renderWithProviders, signedInAs, signedOut, type Rendered } from '@uplift/platform/testing';
import { AnalyticsPage } from './analytics-page';


const usd = (amount: number) => new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD' }).format(amount);

/** recharts' ResponsiveContainer measures its box; jsdom has no ResizeObserver. */
beforeAll(async () => {
  // The plot is lazy: loading recharts once here keeps its first import out of each test's time limit.
  await import('./sales-chart-plot');
  if (!('ResizeObserver' in globalThis)) {
    vi.stubGlobal(
      'ResizeObserver',
      class {
        observe() {}
        unobserve() {}
        disconnect() {}
      },
    );
  }
});

beforeEach(() => configureHttp({ baseUrl: 'http://api.test/' }));
afterEach(() => vi.useRealTimers());

/** Every day from..to (both included), the way the API lists them. */
function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = new Date(`${from}T00:00:00Z`); d <= new Date(`${to}T00:00:00Z`); d.setUTCDate(d.getUTCDate() + 1)) {
    out.push(d.toISOString().slice(0, 10));
  }
  return out;
}

interface Period {
  totals: DayMetricsJson;
  /** Numbers for particular days; the rest are all zeros (and so empty in proto3 JSON). */
  days?: Record<string, DayMetricsJson>;
  source?: string;
}

/**
 * A gateway: the user, the metrics (the first request is the chosen range, the
 * second the period before it) and top products. Records every metrics range asked for.
 */
function gateway(current: Period, previous: Period = { totals: {} }, options: { metricsStatus?: number } = {}) {
  const asked: { from: string; to: string }[] = [];
  const category = '/internal/categories/cat1/business-data';
  fakeGateway({
    'GET /internal/users/u1': () => json({ id: 'u1', categoryId: 'cat1' }),
    [`GET ${category}/metrics`]: (_init, url) => {
      const from = url.searchParams.get('from') ?? '';
      const to = url.searchParams.get('to') ?? '';
      asked.push({ from, to });
      if (options.metricsStatus) {
        return json({ code: 7, message: 'You may not see or change this business.' }, options.metricsStatus);
      }
      // The later of two requests with the same length is the chosen range.
      const isCurrent = !asked.some((a) => a.from > from);
      const period = isCurrent ? current : previous;
      const body: GetMetricsResponseJson = {
        currency: 'USD',
        timezone: 'America/New_York',
        source: period.source ?? current.source ?? 'shopify',
        days: daysBetween(from, to).map((date) => ({ date, ...period.days?.[date] })),
        totals: period.totals,
      };
      return json(body);
    },
    [`GET ${category}/top-products`]: () =>
      json({
        currency: 'USD',
        products: [
          { title: 'Anvil, 50 kg', quantity: 4, grossSales: '1200.00', netSales: '1100.00' },
          { title: 'Hammer', quantity: 7, netSales: '210.00' },
        ],
      }),
  });
  return { asked };
}

let page: Rendered;

function renderAnalytics(path = '/analytics') {
  page = renderWithProviders(<AnalyticsPage />, {
    path,
    route: 'analytics',
    routes: { connections: <p>connections page</p> },
    session: signedInAs('u1'),
  });
}

/** Fakes only the clock, so the page's "today" is fixed while timers (react-query, user-event) run for real. */
function today(year: number, monthIndex: number, day: number, hour = 12) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(year, monthIndex, day, hour, 0, 0));
}

const card = (name: string) => screen.getByRole('group', { name });

describe('AnalyticsPage: signed out', () => {
  it('asks a visitor to sign in, as Connections does, and calls nothing', () => {
    const api = fakeGateway({});
    renderWithProviders(<AnalyticsPage />, { path: '/analytics', route: 'analytics', session: signedOut });
    expect(screen.getByRole('heading', { level: 2, name: "Sign in to see your store's numbers" })).toBeTruthy();
    expect(screen.queryByText(/still being set up/)).toBeNull();
    expect(api.fetchMock).not.toHaveBeenCalled();
  });
});

describe('AnalyticsPage: the date range', () => {
  it('asks for the last 30 days ending today by default, and the 30 days before for the change', async () => {
    today(2024, 2, 31); // 31 March 2024, a month end in a leap year
    const { asked } = gateway({ totals: { totalSales: '10.00' } });
    renderAnalytics();
    expect(await screen.findByRole('group', { name: 'Total sales' })).toBeTruthy();
    expect(asked).toContainEqual({ from: '2024-03-02', to: '2024-03-31' });
    expect(asked).toContainEqual({ from: '2024-02-01', to: '2024-03-01' });
    expect((screen.getByLabelText('Date range') as HTMLSelectElement).value).toBe('30d');
  });

  it('asks for the last 7 and 90 days when picked, and keeps the choice in the address', async () => {
    today(2025, 0, 2); // 2 January 2025: the ranges cross a year end
    const { asked } = gateway({ totals: { totalSales: '10.00' } });
    renderAnalytics();
    await screen.findByRole('group', { name: 'Total sales' });
    const user = userEvent.setup();

    await user.selectOptions(screen.getByLabelText('Date range'), 'Last 7 days');
    await waitFor(() => expect(asked).toContainEqual({ from: '2024-12-27', to: '2025-01-02' }));
    expect(asked).toContainEqual({ from: '2024-12-20', to: '2024-12-26' });
    expect(page.location()).toBe('/analytics?range=7d');

    await user.selectOptions(screen.getByLabelText('Date range'), 'Last 90 days');
    await waitFor(() => expect(asked).toContainEqual({ from: '2024-10-05', to: '2025-01-02' }));
    expect(asked).toContainEqual({ from: '2024-07-07', to: '2024-10-04' });
    expect(page.location()).toBe('/analytics?range=90d');
  });

  it('reads the range from the address, so a reload or a shared link shows the same days', async () => {
    today(2025, 4, 31, 23); // 31 May 2025, late evening
    const { asked } = gateway({ totals: {} });
    renderAnalytics('/analytics?range=7d&checkout=success');
    await screen.findByRole('group', { name: 'Total sales' });
    expect(asked).toEqual(
      expect.arrayContaining([
        { from: '2025-05-25', to: '2025-05-31' },
        { from: '2025-05-18', to: '2025-05-24' },
      ]),
    );
    expect(asked).toHaveLength(2);
  });

  it('checks a custom range before asking for it, and asks for exactly the days chosen', async () => {
    today(2024, 2, 31);
    const { asked } = gateway({ totals: {} });
    renderAnalytics('/analytics?other=1');
    await screen.findByRole('group', { name: 'Total sales' });
    const user = userEvent.setup();

    await user.selectOptions(screen.getByLabelText('Date range'), 'Custom');
    const from = screen.getByLabelText('From') as HTMLInputElement;
    const to = screen.getByLabelText('To') as HTMLInputElement;
    // Custom starts from the range on screen.
    expect(from.value).toBe('2024-03-02');
    expect(to.value).toBe('2024-03-31');

    fireEvent.change(from, { target: { value: '2024-04-02' } });
    expect(screen.getByRole('alert').textContent).toBe('The start date must be on or before the end date.');
    // Both ends are invalid and described by the one message, shown once.
    for (const end of [from, to]) {
      expect(end.getAttribute('aria-invalid')).toBe('true');
      expect(describedBy(end)).toEqual(['The start date must be on or before the end date.']);
    }
    expect(screen.queryByRole('group', { name: 'Total sales' })).toBeNull();

    fireEvent.change(from, { target: { value: '2023-02-25' } }); // 401 days to 2024-03-31
    expect(screen.getByRole('alert').textContent).toBe('Choose at most 400 days; this range has 401.');

    fireEvent.change(from, { target: { value: '2023-02-26' } }); // exactly 400 days
    expect(screen.queryByRole('alert')).toBeNull();
    for (const end of [from, to]) expect(end.hasAttribute('aria-invalid')).toBe(false);
    await waitFor(() => expect(asked).toContainEqual({ from: '2023-02-26', to: '2024-03-31' }));
    // The period before follows once the range's numbers are in.
    await waitFor(() => expect(asked).toContainEqual({ from: '2022-01-22', to: '2023-02-25' }));

    fireEvent.change(to, { target: { value: '2024-01-31' } });
    fireEvent.change(from, { target: { value: '2024-01-01' } });
    await waitFor(() => expect(asked).toContainEqual({ from: '2024-01-01', to: '2024-01-31' }));
    await waitFor(() => expect(asked).toContainEqual({ from: '2023-12-01', to: '2023-12-31' }));
    expect(asked.some((a) => a.from === '2024-04-02' || a.from === '2023-02-25')).toBe(false);
    expect(page.location()).toBe('/analytics?other=1&range=custom&from=2024-01-01&to=2024-01-31');
  });
});

describe('AnalyticsPage: the numbers', () => {
  it('shows each headline number with its change against the previous period', async () => {
    today(2024, 2, 31);
    gateway(
      {
        totals: {
          orders: 9,
          grossSales: '1200.00',
          netSales: '1100.00',
          totalSales: '1125.00',
          averageOrderValue: '125.00',
          sessions: 400,
          conversionRate: '2.50',
        },
      },
      // Older answers sent counts as int64 strings; both read the same.
      { totals: { orders: '12' as unknown as number, totalSales: '1000.00', averageOrderValue: '125.00', conversionRate: '2.00' } },
    );
    renderAnalytics();
    const sales = await screen.findByRole('group', { name: 'Total sales' });
    expect(within(sales).getByText(usd(1125))).toBeTruthy();
    await waitFor(() => expect(within(sales).getByText('+12.5 %').className).toContain('u-change--good'));
    expect(within(sales).getByText(/vs previous 30 days/)).toBeTruthy();

    const orders = card('Orders');
    expect(within(orders).getByText('9')).toBeTruthy();
    expect(within(orders).getByText('−25.0 %').className).toContain('u-change--bad');

    const aov = card('Average order value');
    expect(within(aov).getByText(usd(125))).toBeTruthy();
    expect(within(aov).getByText('0.0 %')).toBeTruthy();

    const conversion = card('Conversion rate');
    expect(within(conversion).getByText(`${new Intl.NumberFormat(undefined, { minimumFractionDigits: 2 }).format(2.5)} %`)).toBeTruthy();
    expect(within(conversion).getByText('+25.0 %')).toBeTruthy();
  });

  it('shows "—" instead of a change when the previous period was zero or not available', async () => {
    today(2024, 2, 31);
    // proto3 JSON leaves zeros out: the previous period had no sales and no orders.
    gateway({ totals: { orders: 3, totalSales: '300.00', averageOrderValue: '100.00' } }, { totals: {} });
    renderAnalytics();
    const sales = await screen.findByRole('group', { name: 'Total sales' });
    await waitFor(() => expect(within(sales).getByText('—')).toBeTruthy());
    expect(within(sales).queryByText(/%/)).toBeNull();
    expect(within(card('Orders')).getByText('—')).toBeTruthy();
    expect(within(card('Average order value')).getByText('—')).toBeTruthy();
  });

  it('says the conversion rate is not available, and why, when there are no sessions', async () => {
    today(2024, 2, 31);
    gateway({ totals: { orders: 3, totalSales: '300.00' }, source: 'import' });
    renderAnalytics();
    const conversion = await screen.findByRole('group', { name: 'Conversion rate' });
    expect(within(conversion).getByText('Not available')).toBeTruthy();
    expect(within(conversion).getByText(/Sessions come only from a connected Shopify store's analytics/)).toBeTruthy();
    expect(within(conversion).queryByText(/%/)).toBeNull();
  });

  it('shows a chart, a table by day (newest first) and the top products', async () => {
    today(2024, 2, 31);
    gateway({
      totals: { orders: 5, totalSales: '600.00', grossSales: '650.00', netSales: '550.00' },
      days: {
        '2024-03-31': { orders: 3, grossSales: '400.00', discounts: '40.00', netSales: '360.00', totalSales: '375.00', averageOrderValue: '120.00', shopifyTotalSales: '375.00' },
        '2024-03-30': { orders: 2, totalSales: '225.00', sessions: 50, conversionRate: '4.00', shopifyTotalSales: '240.00' },
      },
    });
    renderAnalytics();
    const chart = await screen.findByRole('figure', { name: 'Daily sales and orders' });
    // The plot comes in a chunk of its own, after the caption.
    await waitFor(() => expect(chart.querySelector('.recharts-responsive-container')).not.toBeNull());

    const table = within(screen.getByRole('region', { name: 'By day' })).getByRole('table');
    const rows = within(table).getAllByRole('row');
    // A header and 30 days.
    expect(rows).toHaveLength(31);
    const newest = within(rows[1]!).getAllByRole('cell').map((c) => c.textContent);
    // orders, gross, discounts, returns, net, shipping, taxes, total, AOV, sessions, conversion rate
    expect(newest).toEqual(['3', usd(400), usd(40), usd(0), usd(360), usd(0), usd(0), usd(375), usd(120), '—Not available', '—Not available']);
    const second = within(rows[2]!).getAllByRole('cell').map((c) => c.textContent);
    expect(second[0]).toBe('2');
    // Shopify's own figure is shown only where it differs from ours.
    expect(second[7]).toBe(`${usd(225)}Shopify reports ${usd(240)}`);
    expect(within(rows[1]!).queryByText(/Shopify reports/)).toBeNull();
    expect(second[9]).toBe('50');
    expect(second[10]).toBe(`${new Intl.NumberFormat(undefined, { minimumFractionDigits: 2 }).format(4)} %`);
    expect(within(rows[1]!).getByRole('rowheader').textContent).toContain('2024-03-31');
    expect(within(rows[2]!).getByRole('rowheader').textContent).toContain('2024-03-30');

    const top = screen.getByRole('region', { name: 'Top products by net sales' });
    expect(await within(top).findByText('Anvil, 50 kg')).toBeTruthy();
    const productRows = within(top).getAllByRole('row');
    expect(productRows[1]!.textContent).toBe(`Anvil, 50 kgMake a studio photo4${usd(1100)}`);
    expect(productRows[2]!.textContent).toBe(`HammerMake a studio photo7${usd(210)}`);
    // Orders know a product by its title: the studio finds it by that name.
    const studio = within(productRows[1]!).getByRole('link', { name: 'Make a studio photo of Anvil, 50 kg' });
    expect(studio.getAttribute('href')).toBe('/studio?product=Anvil%2C%2050%20kg');
  });

  it('shows the formula next to a number on hover and on click', async () => {
    today(2024, 2, 31);
    gateway({ totals: { totalSales: '10.00' } });
    renderAnalytics();
    const sales = await screen.findByRole('group', { name: 'Total sales' });
    const user = userEvent.setup();
    const hint = within(sales).getByRole('button', { name: 'How Total sales is counted' });
    expect(screen.queryByRole('tooltip')).toBeNull();
    await user.hover(hint);
    expect(screen.getByRole('tooltip').textContent).toBe(METRIC_FORMULAS.totalSales);
    await user.unhover(hint);
    expect(screen.queryByRole('tooltip')).toBeNull();

    const table = screen.getByRole('region', { name: 'By day' });
    const net = within(table).getByRole('button', { name: 'How Net sales is counted' });
    await user.click(net);
    expect(screen.getByRole('tooltip').textContent).toBe('Net sales = gross sales − discounts − returns');
    expect(net.getAttribute('aria-describedby')).toBe(screen.getByRole('tooltip').id);
  });

  it('says what to do when there is no store data yet, after one request for the numbers', async () => {
    today(2024, 2, 31);
    const { asked } = gateway({ totals: {}, source: 'none' });
    renderAnalytics();
    expect(await screen.findByRole('heading', { name: 'Connect your store or import an order export' })).toBeTruthy();
    // Nothing to compare with: the period before is not asked for.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(asked).toEqual([{ from: '2024-03-02', to: '2024-03-31' }]);
    expect(screen.queryByRole('group', { name: 'Total sales' })).toBeNull();
    expect(screen.queryByRole('figure')).toBeNull();
    await userEvent.click(screen.getByRole('link', { name: 'Go to Connections' }));
    expect(screen.getByText('connections page')).toBeTruthy();
  });

  it('shows a spinner while loading and the error message when the numbers cannot be loaded', async () => {
    today(2024, 2, 31);
    gateway({ totals: {} }, { totals: {} }, { metricsStatus: 403 });
    renderAnalytics();
    expect(screen.getByText(/Loading your store's numbers/)).toBeTruthy();
    expect((await screen.findByRole('alert')).textContent).toBe('You may not see or change this business.');
  });
});
