import { lazy, Suspense, useId } from 'react';
import type { DayMetricsJson } from '@uplift/platform';

export const CHART_HEIGHT_PX = 300;

export interface SalesChartProps {
  /** Oldest first, one per day. */
  days: DayMetricsJson[];
  currency: string | undefined;
}

// recharts is most of the page's JavaScript: a page without numbers (or
// still waiting for them) shows at once and never fetches it.
const SalesChartPlot = lazy(() => import('./sales-chart-plot').then((chunk) => ({ default: chunk.SalesChartPlot })));

/**
 * Total sales (a line, left axis) and orders (bars, right axis) by day. The
 * daily table under it carries the same numbers for anyone who cannot see the
 * chart. The caption shows at once; the plot keeps its place while it loads.
 */
export function SalesChart({ days, currency }: SalesChartProps) {
  const titleId = useId();
  const descriptionId = useId();
  return (
    <figure className="chart u-card" aria-labelledby={titleId} aria-describedby={descriptionId}>
      <figcaption>
        <h2 id={titleId}>Daily sales and orders</h2>
        <p id={descriptionId} className="u-muted">
          Total sales (line, left axis) and orders (bars, right axis) for each day. The table below lists the same
          numbers.
        </p>
      </figcaption>
      <Suspense fallback={<div style={{ height: CHART_HEIGHT_PX }} aria-busy="true" />}>
        <SalesChartPlot days={days} currency={currency} />
      </Suspense>
    </figure>
  );
}
