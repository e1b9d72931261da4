import { usePageTitle } from '@uplift/platform';

/** The Analytics page. Its content is built in a later issue; until then it says what will be here. */
export function AnalyticsPage() {
  usePageTitle('Analytics');
  return (
    <main className="u-page">
      <h1>Analytics</h1>
      <p>Insights into how your store is doing will appear here.</p>
    </main>
  );
}
