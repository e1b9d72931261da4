import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import {
  ErrorBanner,
  Spinner,
  UNKNOWN_ERROR_MESSAGE,
  canonicalTimeZone,
  storeFormat,
  useCategoryId,
  usePageTitle,
  useSession,
  useStoreMetrics,
  type GetMetricsResponseJson,
  type StoreDateRange,
  type StoreFormat,
} from '@uplift/platform';
import { comparisonCoverage, daysInRange, type ComparisonCoverage } from '../lib/date-range';
import { useRangeSelection } from '../lib/use-range-selection';
import { DailyTable } from './daily-table';
import { MetricCards, type PreviousTotals } from './metric-cards';
import { RangePicker } from './range-picker';
import { SalesChart } from './sales-chart';
import { TopProducts } from './top-products';

/** Where the numbers came from, in words. */
const SOURCE_TEXT: Record<string, string> = {
  shopify: 'your connected Shopify store',
  import: 'your imported order export',
  'shopify+import': 'your connected Shopify store and your imported order export',
  woocommerce: 'your connected WooCommerce store',
  'woocommerce+import': 'your connected WooCommerce store and your imported order export',
};

/** The Analytics page (`/analytics`): the store's numbers for a date range, as its platform (Shopify or WooCommerce) counts them. */
export function AnalyticsPage() {
  usePageTitle('Analytics');
  const session = useSession();
  return (
    <main className="u-page">
      <h1>Analytics</h1>
      {session.status === 'signedIn' ? (
        <SignedInAnalytics />
      ) : (
        <section className="u-card" aria-labelledby="analytics-sign-in-title">
          <h2 id="analytics-sign-in-title">Sign in to see your store&apos;s numbers</h2>
          <p>Once signed in, Analytics shows your sales, orders, average order value and conversion rate day by day.</p>
        </section>
      )}
    </main>
  );
}

function SignedInAnalytics() {
  const { categoryId, isPending } = useCategoryId();
  return (
    <>
      {isPending ? (
        <Loading />
      ) : !categoryId ? (
        <p className="u-muted">Your account is still being set up. Refresh the page in a moment.</p>
      ) : (
        <StoreAnalytics categoryId={categoryId} />
      )}
    </>
  );
}

function Loading() {
  return (
    <p>
      <Spinner /> Loading your store&apos;s numbers…
    </p>
  );
}

function StoreAnalytics({ categoryId }: { categoryId: string }) {
  // The store's today, as the server last said it: it bounds a custom range.
  // Kept once known, so a range it refuses does not forget it.
  const [storeToday, setStoreToday] = useState<string>();
  const selection = useRangeSelection(storeToday);
  const request = selection.request;
  const metrics = useStoreMetrics(categoryId, request);
  const data = metrics.data;
  useEffect(() => {
    if (data?.today) setStoreToday(data.today);
  }, [data?.today]);
  // The range shown is the one the server answered for: a preset is resolved
  // on the store's clock.
  const from = data?.from || (request && 'from' in request ? request.from : undefined);
  const to = data?.to || (request && 'to' in request ? request.to : undefined);
  const range = useMemo(() => (from && to ? { from, to } : undefined), [from, to]);
  // The period before, as many days, comes in the same answer: the server
  // resolves it on the same clock as the range.
  const previousFrom = data?.previousFrom;
  const previousTo = data?.previousTo;
  const previous = useMemo(
    () => (previousFrom && previousTo ? { from: previousFrom, to: previousTo } : undefined),
    [previousFrom, previousTo],
  );

  let body;
  if (!request) {
    body = null; // the picker says what is wrong with the custom range
  } else if (metrics.isPending) {
    body = <Loading />;
  } else if (metrics.isError) {
    body = <ErrorBanner message={metrics.error.message || UNKNOWN_ERROR_MESSAGE} />;
  } else if ((metrics.data.source ?? 'none') === 'none') {
    body = <NoStoreData />;
  } else if (!range || !previous) {
    body = <ErrorBanner message={UNKNOWN_ERROR_MESSAGE} />;
  } else {
    body = <Numbers range={range} previous={previous} data={metrics.data} />;
  }

  return (
    <>
      <RangePicker selection={selection} today={storeToday} shown={range} />
      {body}
    </>
  );
}

function NoStoreData() {
  return (
    <section className="u-card" aria-labelledby="analytics-empty-title">
      <h2 id="analytics-empty-title">Connect your store or import an order export</h2>
      <p>
        Analytics shows your sales, orders, average order value and conversion rate day by day, counted the way
        your store&apos;s platform (Shopify or WooCommerce) counts them. It needs your store&apos;s orders first.
      </p>
      <p>
        <Link to="/connections">Go to Connections</Link> to connect your Shopify or WooCommerce store or upload an order export.
      </p>
    </section>
  );
}

interface NumbersProps {
  range: StoreDateRange;
  previous: StoreDateRange;
  data: GetMetricsResponseJson;
}

function Numbers({ range, previous, data }: NumbersProps) {
  const days = data.days ?? [];
  const length = daysInRange(range);
  const oldestFirst = [...days].sort((a, b) => (a.date ?? '').localeCompare(b.date ?? ''));
  const source = SOURCE_TEXT[data.source ?? ''] ?? data.source;
  const format = storeFormat(data.timezone);
  const today = data.today || undefined;
  const includesToday = Boolean(today && range.from <= today! && today! <= range.to);
  const coverage = comparisonCoverage(previous, data.firstOrderDay || undefined);
  const zone = data.timezone ? canonicalTimeZone(data.timezone) : '';
  const ga4Property = data.sessionsSource === 'ga4' ? data.ga4Property || 'connected' : undefined;
  return (
    <>
      <p className="range-picker__span u-muted">
        {format.day(range.from)} – {format.day(range.to)} ({length} {length === 1 ? 'day' : 'days'}), compared with{' '}
        {format.day(previous.from)} – {format.day(previous.to)}. From {source}
        {zone ? `; days are counted in the store's time zone (${zone})` : ''}.
      </p>
      {includesToday && (
        <p className="u-note u-note--warn" role="note">
          Includes today ({format.day(today!)}), which is not over yet: its numbers are so far, so this range sets a
          part of a day against whole days in the comparison.
        </p>
      )}
      <ComparisonNote coverage={coverage} format={format} />
      <MetricCards
        totals={data.totals ?? {}}
        previous={coverage.kind === 'none' ? { state: 'none' } : { state: 'ready', totals: data.previousTotals ?? {} }}
        currency={data.currency}
        days={length}
        partlyBeforeFirstOrder={coverage.kind === 'partly'}
        includesToday={includesToday}
        connected={(data.source ?? '').includes('shopify')}
        source={data.source}
        ga4Property={ga4Property}
      />
      {ga4Property && (
        <div className="u-note" role="note">
          <p>Sessions and conversion rate come from Google Analytics 4 property {ga4Property}.</p>
          {(data.ga4Notes ?? []).map((note) => (
            <p key={note}>{note}</p>
          ))}
        </div>
      )}
      <SalesChart days={oldestFirst} currency={data.currency} today={today} format={format} />
      <DailyTable days={days} totals={data.totals ?? {}} currency={data.currency} today={today} format={format} source={data.source} ga4Property={ga4Property} />
      <TopProducts products={data.topProducts ?? []} currency={data.currency} />
    </>
  );
}

/** Says when the period compared with is partly or wholly before the store's first order. */
function ComparisonNote({ coverage, format }: { coverage: ComparisonCoverage; format: StoreFormat }) {
  if (coverage.kind === 'whole') return null;
  const first = format.day(coverage.firstOrderDay);
  return (
    <p className="u-note u-note--warn" role="note">
      {coverage.kind === 'none'
        ? `The previous period is before your first order (${first}), so there is nothing to compare with.`
        : `${coverage.daysBefore} of the previous ${coverage.days} ${coverage.days === 1 ? 'day is' : 'days are'} before your first order (${first}), so the changes compare with days that have no orders yet.`}
    </p>
  );
}
