import { useId } from 'react';
import {
  FormulaHint,
  METRIC_FORMULAS,
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

/** The previous period's totals, as far as they have arrived. */
export type PreviousTotals = { state: 'pending' } | { state: 'error' } | { state: 'ready'; totals: DayMetricsJson };

interface CardSpec {
  key: MetricKey;
  /** The value, with proto3's omitted zeros filled in; null when not available. */
  value: (totals: DayMetricsJson) => MetricValue;
  format: (value: MetricValue, currency: string | undefined) => string;
  /** Shown under the value when it is not available. */
  missing: { value: string; note: string };
}

const CARDS: CardSpec[] = [
  {
    key: 'totalSales',
    value: (t) => t.totalSales ?? '0',
    format: formatMoney,
    missing: { value: '—', note: '' },
  },
  {
    key: 'orders',
    value: (t) => t.orders ?? '0',
    format: formatCount,
    missing: { value: '—', note: '' },
  },
  {
    key: 'averageOrderValue',
    value: (t) => t.averageOrderValue ?? null,
    format: formatMoney,
    missing: { value: '—', note: 'No orders in this period.' },
  },
  {
    key: 'conversionRate',
    value: (t) => t.conversionRate ?? null,
    format: formatPercent,
    missing: {
      value: 'Not available',
      note: "Sessions come only from a connected Shopify store's analytics; Uplift never estimates them.",
    },
  },
];

export interface MetricCardsProps {
  totals: DayMetricsJson;
  previous: PreviousTotals;
  currency: string | undefined;
  /** The range's length, for "vs previous 30 days". */
  days: number;
}

/** Total sales, orders, AOV and conversion rate for the range, each with its change against the period before. */
export function MetricCards({ totals, previous, currency, days }: MetricCardsProps) {
  return (
    <div className="metric-cards">
      {CARDS.map((card) => (
        <MetricCard key={card.key} card={card} totals={totals} previous={previous} currency={currency} days={days} />
      ))}
    </div>
  );
}

function MetricCard({ card, totals, previous, currency, days }: { card: CardSpec } & MetricCardsProps) {
  const labelId = useId();
  const valueId = useId();
  const label = METRIC_LABELS[card.key];
  const value = card.value(totals);
  const available = value !== null && value !== undefined;
  const period = `vs previous ${days} ${days === 1 ? 'day' : 'days'}`;
  return (
    <div role="group" className="metric-card" aria-labelledby={labelId}>
      <h2 className="metric-card__label">
        <span id={labelId}>{label}</span>
        <FormulaHint label={label} formula={METRIC_FORMULAS[card.key]} valueId={valueId} />
      </h2>
      <p id={valueId} className="metric-card__value">{available ? card.format(value, currency) : card.missing.value}</p>
      <p className="metric-card__change">
        {previous.state === 'pending' ? (
          'Comparing with the previous period…'
        ) : (
          <>
            <ChangeText
              change={formatChange(previous.state === 'ready' ? percentChange(value, card.value(previous.totals)) : null)}
            />{' '}
            {period}
          </>
        )}
      </p>
      {!available && card.missing.note && <p className="metric-card__note">{card.missing.note}</p>}
    </div>
  );
}
