import { lazy, Suspense, useEffect } from 'react';
import {
  Button,
  type CheckResultJson,
  openBusinessProfile,
  ProgressBar,
  type IdeaJson,
  type InsightJson,
  trackEvent,
  type ReportJson,
} from '@uplift/platform';
import { FindingsList } from '../../../lib/review/findings-list';
import { PointsBreakdown } from '../../../lib/review/points-breakdown';
import { ScoreBadge } from '../../../lib/review/score-badge';
import { IdeasList } from './ideas-list';
import { InsightsList } from './insights-list';
import { CompetitorsCard } from './competitors-card';
import { SpeedCard } from './speed-card';

// Only an owner with ideas sees it, so a new account's first load does not fetch it.
const DigestButton = lazy(() => import('./digest-button').then((m) => ({ default: m.DigestButton })));

export interface ReportViewProps {
  /** The business, for the AI email digest beside the ideas. */
  categoryId: string;
  report: ReportJson | undefined;
  /** From their own endpoints; the report's copies fill in while those load. */
  insights: InsightJson[] | undefined;
  ideas: IdeaJson[] | undefined;
}

/**
 * The current report in whichever state it is: no website, generating, failed
 * or ready. Insights and ideas drawn from the store's own numbers do not wait
 * for a website review, so they show in every state once there are any.
 */
export function ReportView({ categoryId, report, insights, ideas }: ReportViewProps) {
  const status = report?.status ?? 'REPORT_STATUS_NO_WEBSITE';
  if (status === 'REPORT_STATUS_READY') return <Ready categoryId={categoryId} report={report ?? {}} insights={insights} ideas={ideas} />;
  let state = <NoWebsite />;
  if (status === 'REPORT_STATUS_GENERATING' || status === 'REPORT_STATUS_UNSPECIFIED') state = <Generating report={report} />;
  if (status === 'REPORT_STATUS_FAILED') state = <Failed report={report} />;
  return (
    <>
      {state}
      {(insights?.length ?? 0) > 0 && <InsightsCard insights={insights ?? []} />}
      {(ideas?.length ?? 0) > 0 && <IdeasCard categoryId={categoryId} ideas={ideas ?? []} />}
    </>
  );
}

function InsightsCard({ insights }: { insights: InsightJson[] }) {
  return (
    <section className="u-card" aria-labelledby="insights-title">
      <h2 id="insights-title">Insights</h2>
      <InsightsList insights={insights} />
    </section>
  );
}

function IdeasCard({ categoryId, ideas }: { categoryId: string; ideas: IdeaJson[] }) {
  return (
    <section className="u-card" aria-labelledby="ideas-title">
      <h2 id="ideas-title">Campaign ideas</h2>
      <IdeasList ideas={ideas} />
      {ideas.length > 0 && (
        <Suspense fallback={null}>
          <DigestButton categoryId={categoryId} />
        </Suspense>
      )}
    </section>
  );
}

function NoWebsite() {
  return (
    <section className="u-card" aria-labelledby="no-website-title">
      <h2 id="no-website-title">Add your website to get your first review</h2>
      <p>
        Uplift reads your store&apos;s website, scores it out of 100 and tells you exactly what to fix. It then turns
        what it finds into insights and campaign ideas for your store.
      </p>
      <p className="u-muted">Enter your website in your business profile and save; your review starts right away.</p>
      <Button onClick={openBusinessProfile}>Open business profile</Button>
    </section>
  );
}

function Generating({ report }: { report: ReportJson | undefined }) {
  const percent = Math.max(0, Math.min(100, report?.progressPercent ?? 0));
  return (
    <section className="u-card" aria-labelledby="generating-title">
      <h2 id="generating-title">We&apos;re reviewing your website</h2>
      {report?.siteUrl && <p className="u-muted">{report.siteUrl}</p>}
      <ProgressBar label="Review progress" percent={percent} />
      <p>
        {report?.progressStep || 'Getting started'} ({percent}%)
      </p>
      <p className="u-muted">This usually takes under a minute. This page updates by itself.</p>
    </section>
  );
}

function Failed({ report }: { report: ReportJson | undefined }) {
  return (
    <section className="u-card" aria-labelledby="failed-title">
      <h2 id="failed-title">We couldn&apos;t review your website</h2>
      <p role="alert" className="u-alert">
        {report?.errorMessage || 'Something went wrong while reading your website.'}
      </p>
      <p className="u-muted">Check that the address in your business profile is right and that the site is online.</p>
      <Button variant="secondary" onClick={openBusinessProfile}>
        Open business profile
      </Button>
    </section>
  );
}

function Ready({
  categoryId,
  report,
  insights,
  ideas,
}: {
  categoryId: string;
  report: ReportJson;
  insights?: InsightJson[];
  ideas?: IdeaJson[];
}) {
  const shownInsights = insights && insights.length > 0 ? insights : (report.insights ?? []);
  const shownIdeas = ideas && ideas.length > 0 ? ideas : (report.ideas ?? []);
  // Once per review shown, not per poll or re-render.
  useEffect(() => trackEvent('review_viewed', { score: report.score ?? 0 }), [report.id]); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <>
      <section className="u-card" aria-labelledby="score-title">
        <h2 id="score-title">Website score</h2>
        <ScoreBadge score={report.score} band={report.band} />
        {report.siteUrl && <p className="u-muted">Review of {report.siteUrl}</p>}
      </section>
      <section className="u-card" aria-labelledby="findings-title">
        <h2 id="findings-title">Findings</h2>
        <p className="u-muted">Open a finding to see why it matters and how to fix it.</p>
        <FindingsList findings={report.findings ?? []} studioLinks />
      </section>
      <IdeasCard categoryId={categoryId} ideas={shownIdeas} />
      <InsightsCard insights={shownInsights} />
      <section className="u-card" aria-labelledby="summary-title">
        <h2 id="summary-title">Summary</h2>
        <p>{report.summary || 'No summary yet: we could not tell enough about the business from the website.'}</p>
      </section>
      <CompetitorsCard score={report.score} band={report.band} competitors={report.competitors ?? []} />
      <SpeedCard speed={report.speed} />
      <PointsCard checks={report.checks ?? []} />
    </>
  );
}

/**
 * Every check's points, folded: the table is long (a row per check) and the
 * findings above already say what to fix first, so it opens only on request.
 */
function PointsCard({ checks }: { checks: CheckResultJson[] }) {
  if (checks.length === 0) return null;
  const sum = (key: 'earned' | 'weight') => checks.reduce((total, check) => total + (check[key] ?? 0), 0);
  return (
    <section className="u-card" aria-labelledby="points-title">
      <h2 id="points-title">Where your points went</h2>
      <details>
        <summary style={{ cursor: 'pointer' }}>
          {sum('earned')} of {sum('weight')} points: show all {checks.length} checks
        </summary>
        <PointsBreakdown checks={checks} />
      </details>
    </section>
  );
}
