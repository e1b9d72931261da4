import { lazy, Suspense, useId } from 'react';
import type { DayMetricsJson, StoreFormat } from '@uplift/platform';

export const CHART_HEIGHT_PX = 300;

export interface SalesChartProps {
  /** Oldest first, one per day. */
  days: DayMetricsJson[];
  currency: string | undefined;
  /** The store's today: its point is marked as not over. */
  today: string | undefined;
  format: StoreFormat;
}

// recharts is most of the page's JavaScript: a page without numbers (or
// still waiting for them) shows at once and never fetches it.
const SalesChartPlot = lazy(() => import('./sales-chart-plot').then((chunk) => ({ default: chunk.SalesChartPlot })));

/**
 * Total sales (a line, left axis) and orders (bars, right axis) by day. The
 * daily table under it carries the same numbers for anyone who cannot see the
 * chart. The caption shows at once; the plot keeps its place while it loads.
 */
export function SalesChart(props: SalesChartProps) {
  const { days, today, format } = props;
  const titleId = useId();
  const descriptionId = useId();
  const partial = Boolean(today && days.some((day) => day.date === today));
  return (
    <figure className="chart u-card" aria-labelledby={titleId} aria-describedby={descriptionId}>
      <figcaption>
        <h2 id={titleId}>Daily sales and orders</h2>
        <p id={descriptionId} className="u-muted">
          Total sales (line, left axis) and orders (bars, right axis) for each day. The table below lists the same
          numbers.
          {partial && ` The last day, today (${format.day(today!)}), is not over: its numbers are so far.`}
        </p>
      </figcaption>
      <Suspense fallback={<div style={{ height: CHART_HEIGHT_PX }} aria-busy="true" />}>
        <SalesChartPlot {...props} />
      </Suspense>
    </figure>
  );
}
