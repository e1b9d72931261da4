import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import {
  ErrorCard,
  Spinner,
  useCategoryEvents,
  useCategoryId,
  useCurrentReport,
  useInsights,
  usePageTitle,
  useRecentIdeas,
  useSession,
} from '@uplift/platform';

let reportParts: Promise<typeof import('./report-parts')> | undefined;
/** Starts fetching the signed-in parts once; every caller shares the one request. */
const loadReportParts = () => (reportParts ??= import('./report-parts'));
const DailyReportCard = lazy(() => loadReportParts().then((parts) => ({ default: parts.DailyReportCard })));
const ReportView = lazy(() => loadReportParts().then((parts) => ({ default: parts.ReportView })));

/**
 * Home (`/`): a welcome for visitors; for signed-in owners the daily business
 * report above the website review. It lives in app/ because it composes
 * features, which never import each other.
 */
export function HomePage() {
  usePageTitle('Home');
  const session = useSession();
  return (
    <main className="u-page">
      <h1>Home</h1>
      {session.status === 'signedIn' ? <SignedInHome /> : <Welcome />}
    </main>
  );
}

function Welcome() {
  return (
    <section className="u-card" aria-labelledby="welcome-title">
      <h2 id="welcome-title">Welcome to Uplift</h2>
      <p>Grow your store the easy way. Sign in to see your website review, daily business report and campaign ideas.</p>
      <p>
        New here? <Link to="/?requireSignup=true">Create a free account</Link>, or{' '}
        <Link to="/website-score">score any store&apos;s website</Link> without signing in.
      </p>
    </section>
  );
}

function SignedInHome() {
  // Fetched alongside the report's data rather than after it.
  void loadReportParts();
  const { categoryId, isPending } = useCategoryId();
  const report = useCurrentReport(categoryId);
  const insights = useInsights(categoryId);
  const ideas = useRecentIdeas(categoryId);
  useCategoryEvents(categoryId);

  const loading = (
    <p>
      <Spinner /> Loading your business report…
    </p>
  );
  if (isPending || (categoryId && report.isPending)) return loading;
  if (!categoryId) {
    return <p className="u-muted">Your account is still being set up. Refresh the page in a moment.</p>;
  }
  return (
    <Suspense fallback={loading}>
      <DailyReportCard categoryId={categoryId} />
      {report.isError && !report.data ? (
        <ErrorCard title="We couldn't load your report">
          <p>{report.error.message || 'Please try again in a moment.'} We&apos;ll keep trying in the background.</p>
        </ErrorCard>
      ) : (
        <ReportView report={report.data} insights={insights.data?.insights} ideas={ideas.data?.ideas} />
      )}
    </Suspense>
  );
}
