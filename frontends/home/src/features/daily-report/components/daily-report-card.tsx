import { useId } from 'react';
import { Link } from 'react-router';
import {
  ErrorBanner,
  FormulaHint,
  NOT_AVAILABLE,
  Spinner,
  STUDIO_PHOTO_LINK_TEXT,
  studioPath,
  formatChange,
  formatMetric,
  formulaFor,
  higherIsBetter,
  storeFormat,
  useDailyReport,
  type DailyReportJson,
  type ReportMetricJson,
} from '@uplift/platform';

/**
 * The daily business report on Home: yesterday (in the store's time zone)
 * against the average of the 7 days before it, polled like the current report.
 * Without store data it is one line pointing to Connections, never a card of zeros.
 * The headline and the suggested action are the report's own sentences (the
 * stores service writes them from these numbers), shown as they are, so Home
 * and the daily email never tell the day differently.
 */
export function DailyReportCard({ categoryId }: { categoryId: string }) {
  const report = useDailyReport(categoryId);
  if (report.isPending) {
    return (
      <p>
        <Spinner /> Loading your daily business report…
      </p>
    );
  }
  if (report.isError && !report.data) {
    return (
      <ErrorBanner
        message={`We couldn't load your daily business report: ${report.error.message || 'please try again in a moment.'}`}
      />
    );
  }
  if (report.data?.status !== 'READY') return <NoStoreData />;
  return <ReadyReport report={report.data} />;
}

function NoStoreData() {
  return (
    <p className="daily-report--empty">
      No store data yet: <Link to="/connections">connect your store or import an order export</Link> to get a daily
      business report.
    </p>
  );
}

function ReadyReport({ report }: { report: DailyReportJson }) {
  const titleId = useId();
  const metrics = report.metrics ?? [];
  const notes = report.notes ?? [];
  return (
    <section className="u-card daily-report" aria-labelledby={titleId}>
      <h2 id={titleId}>Yesterday ({storeFormat(report.timezone).day(report.date ?? '')})</h2>
      {report.headline && <p className="daily-report__headline">{report.headline}</p>}
      <ul className="daily-report__metrics" aria-label="Yesterday against the 7-day average">
        {metrics.map((metric) => (
          <MetricItem key={metric.key ?? metric.label} metric={metric} currency={report.currency} source={report.source} />
        ))}
      </ul>
      {notes.length > 0 && (
        <ul className="daily-report__notes" aria-label="Notes">
          {notes.map((note, index) => (
            <li key={index}>{note}</li>
          ))}
        </ul>
      )}
      {report.bestSeller && (
        <p>
          Best seller: {report.bestSeller}{' '}
          <Link
            to={studioPath(report.bestSeller)}
            aria-label={`${STUDIO_PHOTO_LINK_TEXT} of ${report.bestSeller}`}
          >
            {STUDIO_PHOTO_LINK_TEXT}
          </Link>
        </p>
      )}
      {report.action && (
        <div className="daily-report__action">
          <h3>Suggested action</h3>
          <p>{report.action}</p>
        </div>
      )}
    </section>
  );
}

function MetricItem({ metric, currency, source }: { metric: ReportMetricJson; currency: string | undefined; source: string | undefined }) {
  const valueId = useId();
  const label = metric.label || metric.key || '';
  const formula = formulaFor(metric.key, metric.formula ?? '', source);
  const value = metric.value == null ? 'Not available' : formatMetric(metric.key, metric.value, currency);
  const average = metric.average == null ? NOT_AVAILABLE : formatMetric(metric.key, metric.average, currency);
  const change = formatChange(metric.changePercent, { higherIsBetter: higherIsBetter(metric.key) });
  return (
    <li className={metric.unusual ? 'daily-metric daily-metric--unusual' : 'daily-metric'}>
      <h3 className="daily-metric__label">
        {label}
        {formula && <FormulaHint label={label} formula={formula} valueId={valueId} />}
        {metric.unusual && <span className="u-badge u-badge--unusual">Unusual</span>}
      </h3>
      <p id={valueId} className="daily-metric__value">{value}</p>
      <p className="daily-metric__detail">
        7-day average {average}, change{' '}
        {change.direction === null ? (
          <span className="u-change u-change--neutral">
            <span aria-hidden="true">{NOT_AVAILABLE}</span>
            <span className="u-sr-only">no change to show</span>
          </span>
        ) : (
          <span className={`u-change u-change--${change.tone}`}>{change.text}</span>
        )}
      </p>
    </li>
  );
}
