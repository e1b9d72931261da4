import { useId } from 'react';
import {
  FormulaHint,
  formulaFor,
  isWooCommerceSource,
  METRIC_LABELS,
  formatChange,
  formatCount,
  formatMoney,
  formatPercent,
  percentChange,
  type DayMetricsJson,
  type MetricKey,
  type MetricValue,
} from '@uplift/platform';
import { ChangeText } from './change-text';

/**
 * The previous period's totals, as far as they have arrived; `none` when
 * the period is wholly before the store's first order (nothing to compare).
 */
export type PreviousTotals = { state: 'none' } | { state: 'ready'; totals: DayMetricsJson };

interface CardSpec {
  key: MetricKey;
  /** The value, with proto3's omitted zeros filled in; null when not available. */
  value: (totals: DayMetricsJson) => MetricValue;
  format: (value: MetricValue, currency: string | undefined) => string;
  /** Shown under the value when it is not available; `connected` when a Shopify store is, `woo` when the numbers are a WooCommerce store's, `ga4` when sessions come from Google Analytics 4. */
  missing: { value: string; note: (connected: boolean, woo: boolean, ga4: boolean) => string };
}

const CARDS: CardSpec[] = [
  {
    key: 'totalSales',
    value: (t) => t.totalSales ?? '0',
    format: formatMoney,
    missing: { value: '—', note: () => '' },
  },
  {
    key: 'orders',
    value: (t) => t.orders ?? '0',
    format: formatCount,
    missing: { value: '—', note: () => '' },
  },
  {
    key: 'averageOrderValue',
    value: (t) => t.averageOrderValue ?? null,
    format: formatMoney,
    missing: { value: '—', note: () => 'No orders in this period.' },
  },
  {
    key: 'conversionRate',
    value: (t) => t.conversionRate ?? null,
    format: formatPercent,
    missing: {
      value: 'Not available',
      note: (connected, woo, ga4) =>
        ga4
          ? 'Google Analytics 4 has not reported sessions for every day of this range; Uplift never estimates them.'
          : woo && !connected
          ? 'WooCommerce does not share sessions, so there is no conversion rate; Uplift never estimates them. Connect Google Analytics 4 on Connections to get it.'
          : connected
          ? "Shopify's analytics has not reported sessions for every day of this range; Uplift never estimates them."
          : "Sessions come from a connected Shopify store's analytics or from Google Analytics 4; Uplift never estimates them. Connect Google Analytics 4 on Connections to get it.",
    },
  },
];

export interface MetricCardsProps {
  totals: DayMetricsJson;
  previous: PreviousTotals;
  currency: string | undefined;
  /** The range's length, for "vs previous 30 days". */
  days: number;
  /** The previous period starts before the store's first order. */
  partlyBeforeFirstOrder?: boolean;
  /** The range includes the store's today, which is not over. */
  includesToday?: boolean;
  /** A Shopify store is connected (sessions can come from it). */
  connected?: boolean;
  /** Where the numbers come from (the API's `source`): a WooCommerce store's follow WooCommerce's rules and words. */
  source?: string;
  /** The Google Analytics 4 property sessions and conversion come from, if they do. */
  ga4Property?: string;
}

/** Total sales, orders, AOV and conversion rate for the range, each with its change against the period before. */
export function MetricCards(props: MetricCardsProps) {
  return (
    <div className="metric-cards">
      {CARDS.map((card) => (
        <MetricCard key={card.key} card={card} {...props} />
      ))}
    </div>
  );
}

function MetricCard({
  card,
  totals,
  previous,
  currency,
  days,
  partlyBeforeFirstOrder,
  includesToday,
  connected = false,
  source,
  ga4Property,
}: { card: CardSpec } & MetricCardsProps) {
  const labelId = useId();
  const valueId = useId();
  const label = METRIC_LABELS[card.key];
  const value = card.value(totals);
  const available = value !== null && value !== undefined;
  const marks = [partlyBeforeFirstOrder && 'partly before your first order', includesToday && 'today so far'].filter(
    Boolean,
  );
  const period = `vs previous ${days} ${days === 1 ? 'day' : 'days'}${marks.length ? ` (${marks.join('; ')})` : ''}`;
  const note = available ? '' : card.missing.note(connected, isWooCommerceSource(source), Boolean(ga4Property));
  return (
    <div role="group" className="metric-card" aria-labelledby={labelId}>
      <h2 className="metric-card__label">
        <span id={labelId}>{label}</span>
        <FormulaHint label={label} formula={formulaFor(card.key, '', source, ga4Property)} valueId={valueId} />
      </h2>
      <p id={valueId} className="metric-card__value">{available ? card.format(value, currency) : card.missing.value}</p>
      <p className="metric-card__change">
        {previous.state === 'none' ? (
          'No earlier orders to compare with'
        ) : (
          <>
            <ChangeText change={formatChange(percentChange(value, card.value(previous.totals)))} /> {period}
          </>
        )}
      </p>
      {note && <p className="metric-card__note">{note}</p>}
    </div>
  );
}
