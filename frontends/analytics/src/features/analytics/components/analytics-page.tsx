import { useMemo } from 'react';
import { Link } from 'react-router';
import {
  ErrorBanner,
  Spinner,
  UNKNOWN_ERROR_MESSAGE,
  useCategoryId,
  usePageTitle,
  useSession,
  useStoreMetrics,
  type GetMetricsResponseJson,
  type StoreDateRange,
} from '@uplift/platform';
import { daysInRange, formatDay, previousRange } from '../lib/date-range';
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
};

/** The Analytics page (`/analytics`): the store's numbers for a date range, as Shopify counts them. */
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
  const selection = useRangeSelection();
  const range = selection.range;
  const previous = useMemo(() => (range ? previousRange(range) : undefined), [range]);
  const metrics = useStoreMetrics(categoryId, range);
  // The period before is asked for only once the range has numbers to compare
  // it with: a store without data (what a new account opens) costs one request.
  const hasNumbers = metrics.isSuccess && (metrics.data.source ?? 'none') !== 'none';
  const previousMetrics = useStoreMetrics(categoryId, hasNumbers ? previous : undefined);

  let body;
  if (!range) {
    body = null; // the picker says what is wrong with the custom range
  } else if (metrics.isPending) {
    body = <Loading />;
  } else if (metrics.isError) {
    body = <ErrorBanner message={metrics.error.message || UNKNOWN_ERROR_MESSAGE} />;
  } else if ((metrics.data.source ?? 'none') === 'none') {
    body = <NoStoreData />;
  } else {
    const previousTotals: PreviousTotals = previousMetrics.isPending
      ? { state: 'pending' }
      : previousMetrics.isError
        ? { state: 'error' }
        : { state: 'ready', totals: previousMetrics.data.totals ?? {} };
    body = (
      <Numbers
        categoryId={categoryId}
        range={range}
        previous={previous!}
        data={metrics.data}
        previousTotals={previousTotals}
      />
    );
  }

  return (
    <>
      <RangePicker selection={selection} />
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
        Shopify counts them. It needs your store&apos;s orders first.
      </p>
      <p>
        <Link to="/connections">Go to Connections</Link> to connect your Shopify store or upload an order export.
      </p>
    </section>
  );
}

interface NumbersProps {
  categoryId: string;
  range: StoreDateRange;
  previous: StoreDateRange;
  data: GetMetricsResponseJson;
  previousTotals: PreviousTotals;
}

function Numbers({ categoryId, range, previous, data, previousTotals }: NumbersProps) {
  const days = data.days ?? [];
  const length = daysInRange(range);
  const oldestFirst = [...days].sort((a, b) => (a.date ?? '').localeCompare(b.date ?? ''));
  const source = SOURCE_TEXT[data.source ?? ''] ?? data.source;
  return (
    <>
      <p className="range-picker__span u-muted">
        {formatDay(range.from)} – {formatDay(range.to)} ({length} {length === 1 ? 'day' : 'days'}), compared with{' '}
        {formatDay(previous.from)} – {formatDay(previous.to)}. From {source}
        {data.timezone ? `; days are counted in the store's time zone (${data.timezone})` : ''}.
      </p>
      {previousTotals.state === 'error' && (
        <ErrorBanner message="We couldn't load the previous period, so changes are not shown. They will appear when you reload." />
      )}
      <MetricCards totals={data.totals ?? {}} previous={previousTotals} currency={data.currency} days={length} />
      <SalesChart days={oldestFirst} currency={data.currency} />
      <DailyTable days={days} currency={data.currency} />
      <TopProducts categoryId={categoryId} range={range} />
    </>
  );
}
