import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  OPEN_BUSINESS_PROFILE_EVENT,
  configureHttp,
  type DailyReportJson,
  type ReportJson,
  type Session,
} from '@uplift/platform';
import { fakeGateway, json, renderWithProviders, signedInAs } from '@uplift/platform/testing';
import { HomePage } from './home-page';

const signedIn = signedInAs('u1');


const readyReport: ReportJson = {
  id: 'r1',
  status: 'REPORT_STATUS_READY',
  score: 62,
  band: 'medium',
  summary: 'Acme sells hand-made anvils to hobby smiths, from $40 to $300.',
  siteUrl: 'https://acme.test',
  checks: [
    { check: 'meta_description', group: 'search', weight: 6, earned: 0 },
    { check: 'https', group: 'trust', weight: 10, earned: 10 },
  ],
  findings: [{ id: 'f1', group: 'search', check: 'meta_description', title: 'Missing meta description', pointsLost: 6, state: 'new' }],
  insights: [{ id: 'i1', text: 'Half your products have no reviews.', evidence: '6 of 12 product pages' }],
  ideas: [],
};

const noStoreData: DailyReportJson = { status: 'NO_DATA', date: '2026-05-03', metrics: [] };

/** Serves the report endpoints; the event stream answers 501 so the page relies on polling. */
function gateway(
  report: ReportJson,
  ideas = [{ id: 'idea1', title: 'Anvil Week', channel: 'email', whyNow: 'Spring projects' }],
  dailyReport: DailyReportJson = noStoreData,
) {
  const category = '/internal/categories/cat1/business-data';
  fakeGateway({
    'GET /internal/users/u1': () => json({ id: 'u1', categoryId: 'cat1' }),
    [`GET ${category}/currentReport`]: () => json(report),
    [`GET ${category}/dailyReport`]: () => json(dailyReport),
    [`GET ${category}/insights`]: () => json({}),
    [`GET ${category}/reports/ideas/recent`]: () => json({ ideas }),
    'GET /events/categories/cat1': () => new Response('not implemented', { status: 501 }),
  });
}

function renderHome(session: Session = signedIn) {
  renderWithProviders(<HomePage />, {
    route: '/',
    routes: { 'ideas/:ideaId': <p>idea page</p>, connections: <p>connections page</p> },
    session,
  });
}

beforeEach(() => configureHttp({ baseUrl: 'http://api.test/' }));
// The signed-in parts are a lazy chunk; compiling them once here keeps that
// cost out of each test's waiting time.
beforeAll(async () => {
  await import('./report-parts');
});

describe('HomePage', () => {
  it('shows visitors the landing page: what Uplift does, what is free, the price, and the score first', async () => {
    fakeGateway({
      'GET /internal/billing/metricsSubscriptionTiers': () =>
        json({
          free: { name: 'Free', sortOrder: 0, prices: { monthly: { amount: 0 } }, included: ['3 image downloads a month'] },
          pro: { name: 'Pro', sortOrder: 1, prices: { monthly: { amount: 2900, stripeId: 'p' } }, included: ['Background removal'], comingSoon: ['Resizing images'] },
          staff: { name: 'Staff', hidden: true, prices: { monthly: { amount: 100, stripeId: 's' } } },
        }),
    });
    renderHome({ status: 'signedOut', user: null });
    expect(await screen.findByRole('heading', { level: 1, name: 'Grow your store the easy way' })).toBeTruthy();
    // The first thing to do is the public score.
    const firstControl = document.querySelector('main')!.querySelector('input, button, a[href]');
    expect(firstControl).toBe(screen.getByRole('textbox', { name: "Your store's website" }));
    expect(screen.getByRole('heading', { name: 'Free, on every plan' })).toBeTruthy();
    const pro = await screen.findByRole('region', { name: 'Pro' });
    expect(within(pro).getByText('$29')).toBeTruthy();
    expect(within(pro).getByText('per month')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Staff' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Create a free account' }).getAttribute('href')).toBe('/?requireSignup=true');
  });

  it('shows a ready report: score with band, summary, findings, points, insights and ideas', async () => {
    gateway(readyReport);
    renderHome();
    const score = await screen.findByRole('region', { name: 'Website score' });
    expect(within(score).getByText('62')).toBeTruthy();
    expect(score.querySelector('.score--medium')).toBeTruthy();
    expect(screen.getByText(readyReport.summary!)).toBeTruthy();
    expect(screen.getByRole('button', { name: /Missing meta description/ })).toBeTruthy();
    // The table of every check is folded under a summary line.
    const points = screen.getByRole('region', { name: 'Where your points went' });
    expect(within(points).getByText('10 of 16 points: show all 2 checks')).toBeTruthy();
    expect(points.querySelector('details')?.open).toBe(false);
    expect(within(points).getByText('10 of 16 points earned')).toBeTruthy();
    // Insights fall back to the report's own while the insights endpoint has none.
    expect(screen.getByText('Half your products have no reviews.')).toBeTruthy();
    expect(screen.getByText('Evidence: 6 of 12 product pages')).toBeTruthy();
    const ideas = await screen.findByRole('region', { name: 'Campaign ideas' });
    const idea = await within(ideas).findByRole('link', { name: /Anvil Week/ });
    expect(idea.getAttribute('href')).toBe('/ideas/idea1');
    await userEvent.click(idea);
    expect(screen.getByText('idea page')).toBeTruthy();
  });

  it('explains the NO_WEBSITE state and asks the shell to open the Business profile', async () => {
    gateway({ status: 'REPORT_STATUS_NO_WEBSITE' }, []);
    const opened = vi.fn();
    window.addEventListener(OPEN_BUSINESS_PROFILE_EVENT, opened);
    renderHome();
    expect(await screen.findByRole('heading', { name: 'Add your website to get your first review' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Open business profile' }));
    expect(opened).toHaveBeenCalledTimes(1);
    window.removeEventListener(OPEN_BUSINESS_PROFILE_EVENT, opened);
    // No insight or idea yet: no empty cards either.
    expect(screen.queryByRole('heading', { name: 'Campaign ideas' })).toBeNull();
  });

  it("shows ideas from the store's own numbers before any website review", async () => {
    gateway({ status: 'REPORT_STATUS_NO_WEBSITE' }, [
      { id: 'store1', title: 'Feature your best seller: Trail Mug', channel: 'email', whyNow: 'It sold 14 this week' },
    ]);
    renderHome();
    expect(await screen.findByRole('heading', { name: 'Add your website to get your first review' })).toBeTruthy();
    const ideas = await screen.findByRole('region', { name: 'Campaign ideas' });
    expect(within(ideas).getByRole('link', { name: /Feature your best seller: Trail Mug/ }).getAttribute('href')).toBe('/ideas/store1');
  });

  it('shows progress and the current step while generating', async () => {
    gateway({ status: 'REPORT_STATUS_GENERATING', progressPercent: 40, progressStep: 'Reading product pages' }, []);
    renderHome();
    const bar = await screen.findByRole('progressbar', { name: 'Review progress' });
    expect(bar.getAttribute('aria-valuenow')).toBe('40');
    expect(screen.getByText('Reading product pages (40%)')).toBeTruthy();
  });

  it('shows why a report failed', async () => {
    gateway({ status: 'REPORT_STATUS_FAILED', errorMessage: 'The website did not answer.' }, []);
    renderHome();
    expect((await screen.findByRole('alert')).textContent).toBe('The website did not answer.');
  });

  it('shows one line pointing to Connections, never a card of zeros, while there is no store data', async () => {
    gateway(readyReport);
    renderHome();
    const link = await screen.findByRole('link', { name: 'connect your store or import an order export' });
    expect(link.parentElement?.textContent).toBe(
      'No store data yet: connect your store or import an order export to get a daily business report.',
    );
    expect(screen.queryByRole('heading', { name: /^Yesterday/ })).toBeNull();
    expect(screen.queryByText(/7-day average/)).toBeNull();
    await userEvent.click(link);
    expect(screen.getByText('connections page')).toBeTruthy();
  });

  it('shows the daily business report above the website review, with unusual changes marked', async () => {
    gateway(readyReport, [], {
      status: 'READY',
      date: '2026-05-03',
      currency: 'USD',
      timezone: 'America/New_York',
      source: 'shopify',
      headline: 'Orders fell 45 % against your 7-day average; sessions held steady, so conversion dropped — check checkout.',
      metrics: [
        { key: 'orders', label: 'Orders', value: '12', average: '21.9', changePercent: '-45.2', unusual: true },
        { key: 'sessions', label: 'Sessions', value: '610', average: '598.3', changePercent: '2.0' },
      ],
      notes: [],
    });
    renderHome();
    const daily = await screen.findByRole('region', { name: 'Yesterday (May 3, 2026)' });
    expect(within(daily).getByText(/Orders fell 45 %/)).toBeTruthy();
    const orders = within(daily).getByRole('heading', { name: /^Orders/ }).closest('li')!;
    expect(within(orders).getByText('Unusual')).toBeTruthy();
    expect(within(orders).getByText('−45.2 %')).toBeTruthy();
    const sessions = within(daily).getByRole('heading', { name: /^Sessions/ }).closest('li')!;
    expect(within(sessions).queryByText('Unusual')).toBeNull();
    // The daily report comes before the website review.
    const score = screen.getByRole('region', { name: 'Website score' });
    expect(daily.compareDocumentPosition(score) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('starts with what to do first: the report, the top fixes and ideas, before the folded points', async () => {
    const findings = [
      { id: 'a', check: 'https', title: 'Site is not on HTTPS', pointsLost: 10, state: 'open' },
      { id: 'b', check: 'compression', title: 'Page is sent uncompressed', pointsLost: 4, state: 'new' },
      { id: 'c', check: 'compression', title: 'Page is sent uncompressed', pointsLost: 4, state: 'new' },
      { id: 'd', check: 'image-alt', title: 'Images without alt text', pointsLost: 3, state: 'open' },
      { id: 'e', check: 'canonical', title: 'No canonical link', pointsLost: 2, state: 'open' },
      { id: 'f', check: 'og', title: 'Open Graph tags', pointsLost: 12, state: 'fixed' },
    ];
    gateway({ ...readyReport, findings });
    renderHome();
    const start = await screen.findByRole('region', { name: 'Start here' });
    expect(within(start).getByRole('link', { name: 'Connect your store' }).getAttribute('href')).toBe('/connections');
    const fixes = within(start).getAllByRole('listitem').slice(0, 3).map((li) => li.textContent);
    // Most points first, one row per check, nothing already fixed.
    expect(fixes).toEqual([
      'Site is not on HTTPS −10 pts',
      'Page is sent uncompressed −4 pts',
      'Images without alt text −3 pts',
    ]);
    expect((await within(start).findByRole('link', { name: 'Anvil Week' })).getAttribute('href')).toBe('/ideas/idea1');
    const points = screen.getByRole('region', { name: 'Where your points went' });
    expect(start.compareDocumentPosition(points) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    const ideas = screen.getByRole('region', { name: 'Campaign ideas' });
    expect(ideas.compareDocumentPosition(points) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });
});
