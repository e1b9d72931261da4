import { useId } from 'react';
import {
  FormulaHint,
  METRIC_FORMULAS,
  METRIC_LABELS,
  NOT_AVAILABLE,
  formatCount,
  formatMoney,
  formatPercent,
  type DayMetricsJson,
  type MetricKey,
} from '@uplift/platform';
import { formatWeekday } from '../lib/date-range';

/** The table's columns after the date, in the order Shopify's sales report uses. */
const COLUMNS: { key: MetricKey; cell: (day: DayMetricsJson, currency: string | undefined) => string | null }[] = [
  { key: 'orders', cell: (d) => formatCount(d.orders ?? '0') },
  { key: 'grossSales', cell: (d, c) => formatMoney(d.grossSales ?? '0', c) },
  { key: 'discounts', cell: (d, c) => formatMoney(d.discounts ?? '0', c) },
  { key: 'returns', cell: (d, c) => formatMoney(d.returns ?? '0', c) },
  { key: 'netSales', cell: (d, c) => formatMoney(d.netSales ?? '0', c) },
  { key: 'shipping', cell: (d, c) => formatMoney(d.shipping ?? '0', c) },
  { key: 'taxes', cell: (d, c) => formatMoney(d.taxes ?? '0', c) },
  { key: 'totalSales', cell: (d, c) => formatMoney(d.totalSales ?? '0', c) },
  { key: 'averageOrderValue', cell: (d, c) => (d.averageOrderValue == null ? null : formatMoney(d.averageOrderValue, c)) },
  { key: 'sessions', cell: (d) => (d.sessions == null ? null : formatCount(d.sessions)) },
  { key: 'conversionRate', cell: (d) => (d.conversionRate == null ? null : formatPercent(d.conversionRate)) },
];

/** Short headers where the full name would widen the table a lot. */
const SHORT_LABELS: Partial<Record<MetricKey, string>> = { averageOrderValue: 'AOV', conversionRate: 'Conv. rate' };

function Cell({ text }: { text: string | null }) {
  if (text !== null) return <td>{text}</td>;
  return (
    <td>
      <span aria-hidden="true">{NOT_AVAILABLE}</span>
      <span className="u-sr-only">Not available</span>
    </td>
  );
}

/**
 * Total sales with Shopify's own figure for the day beside it when the two
 * differ: the numbers are counted as Shopify counts them, so a difference is
 * worth a person's look (a late refund, an order the sync has not seen yet).
 */
function TotalSalesCell({ day, currency }: { day: DayMetricsJson; currency: string | undefined }) {
  const ours = formatMoney(day.totalSales ?? '0', currency);
  const theirs = day.shopifyTotalSales;
  if (theirs == null || theirs === (day.totalSales ?? '0.00')) return <td>{ours}</td>;
  return (
    <td>
      {ours}
      <span className="u-mismatch" role="note">
        Shopify reports {formatMoney(theirs, currency)}
      </span>
    </td>
  );
}

export interface DailyTableProps {
  days: DayMetricsJson[];
  currency: string | undefined;
}

/**
 * Every day of the range, newest first (the range's totals are the headline
 * cards); scrolls sideways on narrow screens.
 */
export function DailyTable({ days, currency }: DailyTableProps) {
  const titleId = useId();
  const newestFirst = [...days].sort((a, b) => (b.date ?? '').localeCompare(a.date ?? ''));
  return (
    <section className="u-card">
      <h2 id={titleId}>By day</h2>
      <div className="u-table-scroll" role="region" aria-labelledby={titleId} tabIndex={0}>
        <table className="u-table">
          <caption className="u-sr-only">Numbers by day, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Date</th>
              {COLUMNS.map(({ key }) => (
                <th key={key} scope="col">
                  <span className="u-table__head">
                    {SHORT_LABELS[key] ? <abbr title={METRIC_LABELS[key]}>{SHORT_LABELS[key]}</abbr> : METRIC_LABELS[key]}
                    <FormulaHint label={METRIC_LABELS[key]} formula={METRIC_FORMULAS[key]} />
                  </span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {newestFirst.map((day) => (
              <tr key={day.date}>
                <th scope="row">
                  <span className="u-muted">{formatWeekday(day.date ?? '')}</span>{' '}
                  <time dateTime={day.date}>{day.date}</time>
                </th>
                {COLUMNS.map(({ key, cell }) =>
                  key === 'totalSales' ? (
                    <TotalSalesCell key={key} day={day} currency={currency} />
                  ) : (
                    <Cell key={key} text={cell(day, currency)} />
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
