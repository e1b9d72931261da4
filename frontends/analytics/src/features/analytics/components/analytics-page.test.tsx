import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  METRIC_FORMULAS,
  WOOCOMMERCE_METRIC_FORMULAS,
  configureHttp,
  type DayMetricsJson,
  type GetMetricsResponseJson,
} from '@uplift/platform';
import { describedBy, fakeGateway, json, renderWithProviders, signedInAs, signedOut, type Rendered } from '@uplift/platform/testing';
import { AnalyticsPage } from './analytics-page';


const usd = (amount: number) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(amount);

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
  /** Further fields of the answer (where sessions come from: `sessionsSource`, `ga4Property`, `ga4Notes`). */
  extra?: Partial<GetMetricsResponseJson>;
}

interface GatewayOptions {
  metricsStatus?: number;
  /** The store's today in its own time zone, which the server resolves presets on. */
  storeToday?: string;
  firstOrderDay?: string;
}

function addDay(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/**
 * A gateway as the stores service answers: the user and the metrics
 * (`lastDays` resolved on the store's clock, today left out, as the server
 * does), with the totals of as many days just before the range and the
 * range's top products in the same answer when the request asks for them
 * and the store has numbers. Records every metrics range asked for,
 * resolved; a request that does not ask for both extras is refused, as the
 * page needs them.
 */
function gateway(current: Period, previous: Period = { totals: {} }, options: GatewayOptions = {}) {
  const asked: { from: string; to: string }[] = [];
  const presets: number[] = [];
  const storeToday = options.storeToday ?? '2024-03-31';
  const category = '/internal/categories/cat1/business-data';
  fakeGateway({
    'GET /internal/users/u1': () => json({ id: 'u1', categoryId: 'cat1' }),
    [`GET ${category}/metrics`]: (_init, url) => {
      const lastDays = Number(url.searchParams.get('lastDays') ?? 0);
      let from = url.searchParams.get('from') ?? '';
      let to = url.searchParams.get('to') ?? '';
      if (lastDays) {
        presets.push(lastDays);
        to = addDay(storeToday, -1);
        from = addDay(to, -(lastDays - 1));
      }
      asked.push({ from, to });
      if (url.searchParams.get('withPrevious') !== 'true' || url.searchParams.get('topProducts') !== '10') {
        return json({ code: 3, message: 'The page asked without the period before or the top products.' }, 400);
      }
      if (options.metricsStatus) {
        return json({ code: 7, message: 'You may not see or change this business.' }, options.metricsStatus);
      }
      const source = current.source ?? 'shopify';
      const length = daysBetween(from, to).length;
      const body: GetMetricsResponseJson = {
        currency: 'USD',
        timezone: 'America/New_York',
        source,
        days: daysBetween(from, to).map((date) => ({ date, ...current.days?.[date] })),
        totals: current.totals,
        from,
        to,
        today: storeToday,
        ...(options.firstOrderDay ? { firstOrderDay: options.firstOrderDay } : {}),
        ...current.extra,
        ...(source === 'none'
          ? {}
          : {
              previousTotals: previous.totals,
              previousFrom: addDay(from, -length),
              previousTo: addDay(from, -1),
              topProducts: [
                { title: 'Anvil, 50 kg', quantity: 4, grossSales: '1200.00', netSales: '1100.00' },
                { title: 'Hammer', quantity: 7, netSales: '210.00' },
              ],
            }),
      };
      return json(body);
    },
  });
  return { asked, presets };
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

/**
 * Fakes only the browser's clock (timers for react-query and user-event run
 * for real): the page must not depend on it, so tests set it to another
 * date than the store's.
 */
function browserClock(at: string) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(at));
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
  it("asks once for the last 30 whole days on the store's clock by default, with the 30 days before for the change", async () => {
    // The browser is already on 1 April; the store (New York) is still on 31 March 2024.
    browserClock('2024-04-01T02:00:00Z');
    const { asked, presets } = gateway({ totals: { totalSales: '10.00' } }, { totals: {} }, { storeToday: '2024-03-31' });
    renderAnalytics();
    expect(await screen.findByRole('group', { name: 'Total sales' })).toBeTruthy();
    expect(presets).toEqual([30]);
    expect(screen.getByText(/^Mar 1, 2024 – Mar 30, 2024 \(30 days\), compared with Jan 31, 2024 – Feb 29, 2024/)).toBeTruthy();
    expect(await screen.findByText('Anvil, 50 kg')).toBeTruthy();
    // One request answered the range, the period before and the top products.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(asked).toEqual([{ from: '2024-03-01', to: '2024-03-30' }]);
    expect((screen.getByLabelText('Date range') as HTMLSelectElement).value).toBe('30d');
  });

  it('asks for the last 7 and 90 days when picked, and keeps the choice in the address', async () => {
    browserClock('2025-01-02T12:00:00Z');
    const { asked, presets } = gateway({ totals: { totalSales: '10.00' } }, { totals: {} }, { storeToday: '2025-01-02' });
    renderAnalytics();
    await screen.findByRole('group', { name: 'Total sales' });
    const user = userEvent.setup();

    await user.selectOptions(screen.getByLabelText('Date range'), 'Last 7 days');
    await waitFor(() => expect(asked).toContainEqual({ from: '2024-12-26', to: '2025-01-01' }));
    expect(await screen.findByText(/compared with Dec 19, 2024 – Dec 25, 2024/)).toBeTruthy();
    expect(page.location()).toBe('/analytics?range=7d');

    await user.selectOptions(screen.getByLabelText('Date range'), 'Last 90 days');
    await waitFor(() => expect(asked).toContainEqual({ from: '2024-10-04', to: '2025-01-01' }));
    expect(await screen.findByText(/compared with Jul 6, 2024 – Oct 3, 2024/)).toBeTruthy();
    expect(page.location()).toBe('/analytics?range=90d');
    expect(presets).toEqual([30, 7, 90]);
    expect(asked).toHaveLength(3);
  });

  it('reads the range from the address, so a reload or a shared link shows the same days', async () => {
    browserClock('2025-05-31T23:00:00Z');
    const { asked } = gateway({ totals: {} }, { totals: {} }, { storeToday: '2025-05-31' });
    renderAnalytics('/analytics?range=7d&checkout=success');
    await screen.findByRole('group', { name: 'Total sales' });
    expect(await screen.findByText(/compared with May 17, 2025 – May 23, 2025/)).toBeTruthy();
    expect(asked).toEqual([{ from: '2025-05-24', to: '2025-05-30' }]);
  });

  it('checks a custom range before asking for it, and asks for exactly the days chosen', async () => {
    browserClock('2024-03-31T12:00:00Z');
    const { asked } = gateway({ totals: {} });
    renderAnalytics('/analytics?other=1');
    await screen.findByRole('group', { name: 'Total sales' });
    const user = userEvent.setup();

    await user.selectOptions(screen.getByLabelText('Date range'), 'Custom');
    const from = screen.getByLabelText('From') as HTMLInputElement;
    const to = screen.getByLabelText('To') as HTMLInputElement;
    // Custom starts from the range on screen; it can end on the store's today, not after.
    expect(from.value).toBe('2024-03-01');
    expect(to.value).toBe('2024-03-30');
    expect(to.max).toBe('2024-03-31');

    fireEvent.change(from, { target: { value: '2024-04-02' } });
    expect(screen.getByRole('alert').textContent).toBe('The start date must be on or before the end date.');
    // Both ends are invalid and described by the one message, shown once.
    for (const end of [from, to]) {
      expect(end.getAttribute('aria-invalid')).toBe('true');
      expect(describedBy(end)).toEqual(['The start date must be on or before the end date.']);
    }
    expect(screen.queryByRole('group', { name: 'Total sales' })).toBeNull();

    fireEvent.change(from, { target: { value: '2023-02-24' } }); // 401 days to 2024-03-30
    expect(screen.getByRole('alert').textContent).toBe('Choose at most 400 days; this range has 401.');

    fireEvent.change(from, { target: { value: '2023-02-25' } }); // exactly 400 days
    expect(screen.queryByRole('alert')).toBeNull();
    for (const end of [from, to]) expect(end.hasAttribute('aria-invalid')).toBe(false);
    await waitFor(() => expect(asked).toContainEqual({ from: '2023-02-25', to: '2024-03-30' }));
    expect(await screen.findByText(/compared with Jan 21, 2022 – Feb 24, 2023/)).toBeTruthy();

    fireEvent.change(to, { target: { value: '2024-01-31' } });
    fireEvent.change(from, { target: { value: '2024-01-01' } });
    await waitFor(() => expect(asked).toContainEqual({ from: '2024-01-01', to: '2024-01-31' }));
    expect(await screen.findByText(/compared with Dec 1, 2023 – Dec 31, 2023/)).toBeTruthy();
    expect(asked.some((a) => a.from === '2024-04-02' || a.from === '2023-02-24')).toBe(false);
    expect(page.location()).toBe('/analytics?other=1&range=custom&from=2024-01-01&to=2024-01-31');

    // The browser may be a day ahead; the store's today bounds the range.
    fireEvent.change(to, { target: { value: '2024-04-01' } });
    expect(screen.getByRole('alert').textContent).toBe("The end date can't be after today in your store's time zone.");
  });
});

describe("AnalyticsPage: the store's clock, not the viewer's", () => {
  // The moment: 00:05 UTC on 2 Dec, still 1 Dec in the shop's New York.
  it('shows the range in the shop\'s days with money in its currency, whichever date the browser is on', async () => {
    for (const [browser, storeToday, label] of [
      ['2026-12-02T00:05:00Z', '2026-12-01', 'Nov 1, 2026 – Nov 30, 2026'],
      ['2026-11-30T23:55:00Z', '2026-12-01', 'Nov 1, 2026 – Nov 30, 2026'], // a browser behind a store in Asia
    ] as const) {
      browserClock(browser);
      gateway(
        { totals: { orders: 9, totalSales: '82526.76', averageOrderValue: '9169.64', sessions: 400, conversionRate: '2.25' } },
        { totals: { orders: 8, totalSales: '80507.60', averageOrderValue: '10063.45', sessions: 380, conversionRate: '2.10' } },
        { storeToday },
      );
      renderAnalytics();
      await screen.findByRole('group', { name: 'Total sales' });
      expect(screen.getByText(new RegExp(`^${label} \\(30 days\\)`))).toBeTruthy();
      expect(within(card('Total sales')).getByText('$82,526.76')).toBeTruthy();
      expect(within(card('Average order value')).getByText('$9,169.64')).toBeTruthy();
      expect(within(card('Conversion rate')).queryByText('Not available')).toBeNull();
      expect(screen.queryByText(/Today, so far/)).toBeNull();
      page.unmount();
    }
  });

  it("marks the store's today as not over wherever a custom range shows it", async () => {
    browserClock('2026-12-02T00:05:00Z');
    gateway(
      {
        totals: { orders: 4, totalSales: '400.00' },
        days: { '2026-12-01': { orders: 1, totalSales: '20.00' }, '2026-11-30': { orders: 3, totalSales: '380.00' } },
      },
      { totals: { orders: 5, totalSales: '500.00' } },
      { storeToday: '2026-12-01' },
    );
    renderAnalytics('/analytics?range=custom&from=2026-11-25&to=2026-12-01');
    await screen.findByRole('group', { name: 'Total sales' });
    expect(
      screen.getByText(
        'Includes today (Dec 1, 2026), which is not over yet: its numbers are so far, so this range sets a part of a day against whole days in the comparison.',
      ),
    ).toBeTruthy();
    await waitFor(() => expect(within(card('Total sales')).getByText(/vs previous 7 days \(today so far\)/)).toBeTruthy());
    expect(screen.getByText(/The last day, today \(Dec 1, 2026\), is not over: its numbers are so far\./)).toBeTruthy();
    const rows = within(within(screen.getByRole('region', { name: 'By day' })).getByRole('table')).getAllByRole('row');
    expect(within(rows[1]!).getByRole('rowheader').textContent).toBe('Tue Dec 1, 2026Today, so far');
    expect(within(rows[2]!).getByRole('rowheader').textContent).toBe('Mon Nov 30, 2026');
  });

  it('says when the comparison period is partly, or wholly, before the first order', async () => {
    browserClock('2026-12-01T12:00:00Z');
    gateway({ totals: { orders: 90, totalSales: '9000.00' } }, { totals: { orders: 20, totalSales: '2292.00' } }, {
      storeToday: '2026-12-01',
      firstOrderDay: '2026-08-03',
    });
    renderAnalytics('/analytics?range=90d');
    // 90 days to Nov 30 compare with Jun 4 – Sep 1, 60 of which are before Aug 3.
    expect(
      await screen.findByText(
        '60 of the previous 90 days are before your first order (Aug 3, 2026), so the changes compare with days that have no orders yet.',
      ),
    ).toBeTruthy();
    await waitFor(() =>
      expect(within(card('Total sales')).getByText(/vs previous 90 days \(partly before your first order\)/)).toBeTruthy(),
    );
    page.unmount();

    gateway({ totals: { orders: 7, totalSales: '700.00' } }, { totals: {} }, { storeToday: '2026-12-01', firstOrderDay: '2026-11-26' });
    renderAnalytics('/analytics?range=7d');
    expect(
      await screen.findByText('The previous period is before your first order (Nov 26, 2026), so there is nothing to compare with.'),
    ).toBeTruthy();
    expect(within(card('Total sales')).getByText('No earlier orders to compare with')).toBeTruthy();
  });
});

describe('AnalyticsPage: the numbers', () => {
  it('shows each headline number with its change against the previous period', async () => {
    browserClock('2024-03-31T12:00:00Z');
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
    expect(within(conversion).getByText(`${new Intl.NumberFormat('en-US', { minimumFractionDigits: 2 }).format(2.5)} %`)).toBeTruthy();
    expect(within(conversion).getByText('+25.0 %')).toBeTruthy();
  });

  it('shows "—" instead of a change when the previous period was zero or not available', async () => {
    browserClock('2024-03-31T12:00:00Z');
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
    browserClock('2024-03-31T12:00:00Z');
    gateway({ totals: { orders: 3, totalSales: '300.00' }, source: 'import' });
    renderAnalytics();
    const conversion = await screen.findByRole('group', { name: 'Conversion rate' });
    expect(within(conversion).getByText('Not available')).toBeTruthy();
    expect(within(conversion).getByText(/Sessions come from a connected Shopify store's analytics or from Google Analytics 4; Uplift never estimates them\. Connect Google Analytics 4 on Connections to get it\./)).toBeTruthy();
    expect(within(conversion).queryByText(/%/)).toBeNull();
  });

  it('does not tell a connected Shopify store that sessions need a connected store', async () => {
    browserClock('2024-03-31T12:00:00Z');
    gateway({ totals: { orders: 3, totalSales: '300.00' }, source: 'shopify' });
    renderAnalytics();
    const conversion = await screen.findByRole('group', { name: 'Conversion rate' });
    expect(within(conversion).getByText('Not available')).toBeTruthy();
    expect(within(conversion).queryByText(/Sessions come from a connected Shopify store/)).toBeNull();
    expect(
      within(conversion).getByText(
        "Shopify's analytics has not reported sessions for every day of this range; Uplift never estimates them.",
      ),
    ).toBeTruthy();
  });

  it('shows a chart, a table by day (newest first) and the top products', async () => {
    browserClock('2024-03-31T12:00:00Z');
    gateway({
      totals: { orders: 5, totalSales: '600.00', grossSales: '650.00', netSales: '550.00' },
      days: {
        '2024-03-30': { orders: 3, grossSales: '400.00', discounts: '40.00', netSales: '360.00', totalSales: '375.00', averageOrderValue: '120.00', shopifyTotalSales: '375.00' },
        '2024-03-29': { orders: 2, totalSales: '225.00', sessions: 50, conversionRate: '4.00', shopifyTotalSales: '240.00' },
      },
    });
    renderAnalytics();
    const chart = await screen.findByRole('figure', { name: 'Daily sales and orders' });
    // The plot comes in a chunk of its own, after the caption.
    await waitFor(() => expect(chart.querySelector('.recharts-responsive-container')).not.toBeNull());

    const table = within(screen.getByRole('region', { name: 'By day' })).getByRole('table');
    const rows = within(table).getAllByRole('row');
    // A header, 30 days and the range's total.
    expect(rows).toHaveLength(32);
    const newest = within(rows[1]!).getAllByRole('cell').map((c) => c.textContent);
    // orders, gross, discounts, returns, net, shipping, taxes, total, AOV, sessions, conversion rate
    expect(newest).toEqual(['3', usd(400), usd(40), usd(0), usd(360), usd(0), usd(0), usd(375), usd(120), '—Not available', '—Not available']);
    const second = within(rows[2]!).getAllByRole('cell').map((c) => c.textContent);
    expect(second[0]).toBe('2');
    // Shopify's own figure is shown only where it differs from ours.
    expect(second[7]).toBe(`${usd(225)}Shopify reports ${usd(240)}`);
    expect(within(rows[1]!).queryByText(/Shopify reports/)).toBeNull();
    expect(second[9]).toBe('50');
    expect(second[10]).toBe(`${new Intl.NumberFormat('en-US', { minimumFractionDigits: 2 }).format(4)} %`);
    expect(within(rows[1]!).getByRole('rowheader').textContent).toBe('Sat Mar 30, 2024');
    expect(within(rows[2]!).getByRole('rowheader').textContent).toBe('Fri Mar 29, 2024');
    const total = within(rows[31]!).getAllByRole('cell').map((c) => c.textContent);
    expect(within(rows[31]!).getByRole('rowheader').textContent).toBe('Range total');
    expect(total.slice(0, 2)).toEqual(['5', usd(650)]);

    const top = screen.getByRole('region', { name: 'Top products by net sales' });
    expect(await within(top).findByText('Anvil, 50 kg')).toBeTruthy();
    const productRows = within(top).getAllByRole('row');
    expect(productRows[1]!.textContent).toBe(`Anvil, 50 kgMake a studio photo4${usd(1100)}`);
    expect(productRows[2]!.textContent).toBe(`HammerMake a studio photo7${usd(210)}`);
    // Orders know a product by its title: the studio finds it by that name.
    const studio = within(productRows[1]!).getByRole('link', { name: 'Make a studio photo of Anvil, 50 kg' });
    expect(studio.getAttribute('href')).toBe('/studio?product=Anvil%2C%2050%20kg');
  });

  it("says when sessions and conversion are Google Analytics 4's, in GA4's words, with its notes", async () => {
    browserClock('2024-03-31T12:00:00Z');
    const note = 'Google Analytics 4 counted 47 purchases in this range; the store recorded 50 orders.';
    gateway({
      totals: { orders: 50, totalSales: '500.00', sessions: 1825, conversionRate: '2.74' },
      source: 'import',
      extra: { sessionsSource: 'ga4', ga4Property: 'shop - GA4', ga4Purchases: 47, ga4Notes: [note] },
    });
    renderAnalytics();
    const conversion = await screen.findByRole('group', { name: 'Conversion rate' });
    expect(within(conversion).getByText('2.74 %')).toBeTruthy();
    expect(screen.getByText('Sessions and conversion rate come from Google Analytics 4 property shop - GA4.')).toBeTruthy();
    expect(screen.getByText(note)).toBeTruthy();
    const user = userEvent.setup();
    await user.hover(within(conversion).getByRole('button', { name: 'How Conversion rate is counted' }));
    expect(screen.getByRole('tooltip').textContent).toBe(
      'Conversion rate = purchases ÷ sessions, both from Google Analytics 4 property shop - GA4 (its ecommercePurchases and sessions)',
    );
  });

  it('shows the formula next to a number on hover and on click', async () => {
    browserClock('2024-03-31T12:00:00Z');
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

  it("names a WooCommerce store as the source, explains its numbers by WooCommerce's rules, and says why there is no conversion rate", async () => {
    browserClock('2024-03-31T12:00:00Z');
    gateway({ totals: { orders: 3, totalSales: '300.00' }, source: 'woocommerce' });
    renderAnalytics();
    const conversion = await screen.findByRole('group', { name: 'Conversion rate' });
    expect(screen.getByText(/From your connected WooCommerce store/)).toBeTruthy();
    expect(screen.queryByText(/Shopify store/)).toBeNull();
    expect(
      within(conversion).getByText(
        'WooCommerce does not share sessions, so there is no conversion rate; Uplift never estimates them. Connect Google Analytics 4 on Connections to get it.',
      ),
    ).toBeTruthy();

    const user = userEvent.setup();
    const orders = screen.getByRole('group', { name: 'Orders' });
    await user.hover(within(orders).getByRole('button', { name: 'How Orders is counted' }));
    expect(screen.getByRole('tooltip').textContent).toBe(WOOCOMMERCE_METRIC_FORMULAS.orders);
    expect(screen.getByRole('tooltip').textContent).toContain("WooCommerce's rule");
    await user.unhover(within(orders).getByRole('button', { name: 'How Orders is counted' }));

    const table = screen.getByRole('region', { name: 'By day' });
    await user.click(within(table).getByRole('button', { name: 'How Net sales is counted' }));
    expect(screen.getByRole('tooltip').textContent).toBe('Net sales = gross sales − coupons − returns');
  });

  it('says what to do when there is no store data yet, after one request for the numbers', async () => {
    browserClock('2024-03-31T12:00:00Z');
    const { asked } = gateway({ totals: {}, source: 'none' });
    renderAnalytics();
    expect(await screen.findByRole('heading', { name: 'Connect your store or import an order export' })).toBeTruthy();
    // One request, and no second one for anything else.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(asked).toEqual([{ from: '2024-03-01', to: '2024-03-30' }]);
    expect(screen.queryByRole('group', { name: 'Total sales' })).toBeNull();
    expect(screen.queryByRole('figure')).toBeNull();
    await userEvent.click(screen.getByRole('link', { name: 'Go to Connections' }));
    expect(screen.getByText('connections page')).toBeTruthy();
  });

  it('shows a spinner while loading and the error message when the numbers cannot be loaded', async () => {
    browserClock('2024-03-31T12:00:00Z');
    gateway({ totals: {} }, { totals: {} }, { metricsStatus: 403 });
    renderAnalytics();
    expect(screen.getByText(/Loading your store's numbers/)).toBeTruthy();
    expect((await screen.findByRole('alert')).textContent).toBe('You may not see or change this business.');
  });
});
