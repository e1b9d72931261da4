import { useId } from 'react';
import {
  FormulaHint,
  formulaFor,
  METRIC_LABELS,
  NOT_AVAILABLE,
  formatCount,
  formatMoney,
  formatPercent,
  formatSessions,
  type DayMetricsJson,
  type MetricKey,
  type StoreFormat,
} from '@uplift/platform';
import { isPartialDay } from '../lib/date-range';

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
  { key: 'sessions', cell: (d) => (d.sessions == null ? null : formatSessions(d.sessions)) },
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
  /** The range's totals, from the same stored sums as the headline cards. */
  totals: DayMetricsJson;
  currency: string | undefined;
  /** The store's today: its row is marked as not over. */
  today: string | undefined;
  format: StoreFormat;
  /** The API's `source`: a WooCommerce store's numbers are explained in WooCommerce's words. */
  source?: string;
  /** The Google Analytics 4 property sessions and conversion come from, if they do. */
  ga4Property?: string;
}

function Cells({ day, currency }: { day: DayMetricsJson; currency: string | undefined }) {
  return COLUMNS.map(({ key, cell }) =>
    key === 'totalSales' ? (
      <TotalSalesCell key={key} day={day} currency={currency} />
    ) : (
      <Cell key={key} text={cell(day, currency)} />
    ),
  );
}

/**
 * Every day of the range, newest first, and the range's total under them
 * (the headline cards' figures, so a person can check each card against
 * the columns: average order value = (gross sales − discounts) ÷ orders);
 * scrolls sideways on narrow screens.
 */
export function DailyTable({ days, totals, currency, today, format, source, ga4Property }: DailyTableProps) {
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
                    <FormulaHint label={METRIC_LABELS[key]} formula={formulaFor(key, '', source, ga4Property)} />
                  </span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {newestFirst.map((day) => (
              <tr key={day.date}>
                <th scope="row">
                  <span className="u-muted">{format.weekday(day.date ?? '')}</span>{' '}
                  <time dateTime={day.date}>{format.day(day.date ?? '')}</time>
                  {isPartialDay(day.date, today) && (
                    <span className="u-badge u-badge--new" style={{ marginLeft: '.35rem' }}>
                      Today, so far
                    </span>
                  )}
                </th>
                <Cells day={day} currency={currency} />
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">Range total</th>
              <Cells day={{ ...totals, shopifyTotalSales: undefined }} currency={currency} />
            </tr>
          </tfoot>
        </table>
      </div>
    </section>
  );
}
