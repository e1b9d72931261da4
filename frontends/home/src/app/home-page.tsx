import { lazy, Suspense, use } from 'react';
import { Link } from 'react-router';
import {
  ErrorCard,
  studioPath,
  preloaded,
  Spinner,
  useCategoryEvents,
  useCategoryId,
  useCurrentReport,
  useInsights,
  usePageTitle,
  useRecentIdeas,
  useSession,
} from '@uplift/platform';

type ReportParts = typeof import('./report-parts');
let reportParts: Promise<ReportParts> | undefined;
/**
 * Starts fetching the signed-in parts once; every caller shares the one
 * request. Once they are here they render at once (use() of a settled
 * promise), not after a suspended render's wait.
 */
const loadReportParts = () => (reportParts ??= preloaded(import('./report-parts')));

/** The visitors' landing page: a chunk of its own, so no signed-in first load carries it. */
const Landing = lazy(() => import('../features/landing/components/landing').then((m) => ({ default: m.Landing })));

/**
 * Home (`/`): the landing page for visitors; for signed-in owners what to do
 * first (Start here), then the daily business report above the website
 * review. It lives in app/ because it composes features, which never import
 * each other.
 */
export function HomePage() {
  usePageTitle('Home');
  const session = useSession();
  if (session.status !== 'signedIn') {
    return (
      <main className="u-page">
        <Suspense fallback={null}>
          <Landing />
        </Suspense>
      </main>
    );
  }
  return (
    <main className="u-page">
      <h1>Home</h1>
      <SignedInHome />
    </main>
  );
}

function SignedInHome() {
  // Fetched alongside the report's data rather than after it.
  const parts = loadReportParts();
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
      <Report parts={parts} categoryId={categoryId} report={report} insights={insights} ideas={ideas} />
    </Suspense>
  );
}

/** Where the paid plan's image tools are: the top bar's three links (the spec's) leave the studio out. */
function StudioCard() {
  return (
    <section className="u-card studio-card" aria-labelledby="studio-card-title">
      <h2 id="studio-card-title">Studio</h2>
      <p>Clean studio photos of your products, sized for every channel.</p>
      <Link className="u-btn u-btn--secondary" to={studioPath()}>
        Open the Studio
      </Link>
    </section>
  );
}

interface ReportProps {
  parts: Promise<ReportParts>;
  categoryId: string;
  report: ReturnType<typeof useCurrentReport>;
  insights: ReturnType<typeof useInsights>;
  ideas: ReturnType<typeof useRecentIdeas>;
}

function Report({ parts, categoryId, report, insights, ideas }: ReportProps) {
  const { DailyReportCard, ReportView, StartHere } = use(parts);
  return (
    <>
      <StartHere categoryId={categoryId} report={report.data} ideas={ideas.data?.ideas} />
      <div id="daily-report">
        <DailyReportCard categoryId={categoryId} />
      </div>
      {report.isError && !report.data ? (
        <ErrorCard title="We couldn't load your report">
          <p>{report.error.message || 'Please try again in a moment.'} We&apos;ll keep trying in the background.</p>
        </ErrorCard>
      ) : (
        <ReportView categoryId={categoryId} report={report.data} insights={insights.data?.insights} ideas={ideas.data?.ideas} />
      )}
      <StudioCard />
    </>
  );
}
