import { STORE_LOCALE } from '../format/store-format';
import { METRIC_KINDS, isMetricKey } from './formulas';

/**
 * Store numbers as the stores API sends them: money and ratios as decimal
 * strings ("16940.00", "2.13"), counts as int64 (a JSON string, or a number
 * from a lenient encoder). `null`/absent means "not available" for the
 * optional fields; for the others proto3 JSON left out a zero.
 */
export type MetricValue = string | number | null | undefined;

/** What a number that is not available is shown as. */
export const NOT_AVAILABLE = '—';

/** A decimal as an integer and a count of decimal places: exact, unlike a float. */
interface Decimal {
  units: bigint;
  scale: number;
}

function toDecimal(value: MetricValue): Decimal | null {
  if (value === null || value === undefined) return null;
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim();
  const match = /^([+-])?(\d*)(?:\.(\d*))?$/.exec(text);
  if (!match || (!match[2] && !match[3])) return null;
  const fraction = match[3] ?? '';
  const units = BigInt(`${match[2] || '0'}${fraction}`);
  return { units: match[1] === '-' ? -units : units, scale: fraction.length };
}

const pow10 = (n: number) => 10n ** BigInt(n);

/** A count (int64 as string or number); absent means zero. */
export function toCount(value: MetricValue): number {
  const n = Number(value ?? 0);
  return Number.isFinite(n) ? n : 0;
}

/** A decimal string (money, a percent) as a number, for display and charts only; absent means zero. */
export function toAmount(value: MetricValue): number {
  const n = Number(value ?? 0);
  return Number.isFinite(n) ? n : 0;
}

/**
 * The change from `previous` to `current` in percent, with one decimal
 * ("12.5", "-3.0"), computed exactly on the decimals. Null when either side
 * is not available or the base is zero (a change from nothing is not a
 * percentage). A negative base is taken by its size, so a move up is positive.
 */
export function percentChange(current: MetricValue, previous: MetricValue): string | null {
  const cur = toDecimal(current);
  const prev = toDecimal(previous);
  if (!cur || !prev || prev.units === 0n) return null;
  const scale = Math.max(cur.scale, prev.scale);
  const a = cur.units * pow10(scale - cur.scale);
  const b = prev.units * pow10(scale - prev.scale);
  const numerator = (a - b) * 1000n; // tenths of a percent
  const denominator = b < 0n ? -b : b;
  const magnitude = numerator < 0n ? -numerator : numerator;
  // Round half away from zero.
  const tenths = (2n * magnitude + denominator) / (2n * denominator);
  const sign = numerator < 0n && tenths !== 0n ? '-' : '';
  return `${sign}${tenths / 10n}.${tenths % 10n}`;
}

export type ChangeDirection = 'up' | 'down' | 'flat';

export interface FormattedChange {
  /** "+12.5 %", "−3.0 %", "0.0 %", or "—" when there is no change to show. */
  text: string;
  direction: ChangeDirection | null;
  /** Whether the move is good news, for colour; the text carries the sign too. */
  tone: 'good' | 'bad' | 'neutral';
}

const changeNumber = new Intl.NumberFormat(STORE_LOCALE, { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/**
 * A change in percent ("12.5", "-45.0", as `percentChange` and the daily
 * report give it) for people: an explicit sign (a real minus), one decimal.
 */
export function formatChange(change: string | null | undefined, options: { higherIsBetter?: boolean } = {}): FormattedChange {
  const value = change === null || change === undefined || change === '' ? NaN : Number(change);
  if (!Number.isFinite(value)) return { text: NOT_AVAILABLE, direction: null, tone: 'neutral' };
  const rounded = Math.round(value * 10) / 10;
  const digits = changeNumber.format(Math.abs(rounded));
  if (rounded === 0) return { text: `${digits} %`, direction: 'flat', tone: 'neutral' };
  const up = rounded > 0;
  const good = up === (options.higherIsBetter ?? true);
  return { text: `${up ? '+' : '−'}${digits} %`, direction: up ? 'up' : 'down', tone: good ? 'good' : 'bad' };
}

const moneyFormats = new Map<string, Intl.NumberFormat | null>();

function moneyFormat(currency: string | undefined, compact: boolean): Intl.NumberFormat | null {
  const code = (currency ?? '').toUpperCase();
  const cacheKey = `${code}|${compact}`;
  if (!moneyFormats.has(cacheKey)) {
    let format: Intl.NumberFormat | null = null;
    if (code) {
      try {
        format = new Intl.NumberFormat(STORE_LOCALE, {
          style: 'currency',
          currency: code,
          ...(compact ? { notation: 'compact', maximumFractionDigits: 1 } : {}),
        });
      } catch {
        format = null; // not an ISO 4217 code
      }
    }
    moneyFormats.set(cacheKey, format);
  }
  return moneyFormats.get(cacheKey) ?? null;
}

const plainMoney = new Intl.NumberFormat(STORE_LOCALE, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const countNumber = new Intl.NumberFormat(STORE_LOCALE, { maximumFractionDigits: 1 });
const wholeNumber = new Intl.NumberFormat(STORE_LOCALE, { maximumFractionDigits: 0 });
const percentNumber = new Intl.NumberFormat(STORE_LOCALE, { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/**
 * Money in the shop's currency ("$16,940.00"); `compact` for chart axes
 * ("$17K"). Null is "not available"; use `value ?? '0'` where absent means zero.
 */
export function formatMoney(value: MetricValue, currency: string | undefined, options: { compact?: boolean } = {}): string {
  if (value === null || value === undefined || value === '') return NOT_AVAILABLE;
  const amount = toAmount(value);
  const format = moneyFormat(currency, options.compact ?? false);
  if (format) return format.format(amount);
  return currency ? `${plainMoney.format(amount)} ${currency}` : plainMoney.format(amount);
}

/** A count ("1,204"), or an average of counts with one decimal ("21.9"). */
export function formatCount(value: MetricValue): string {
  if (value === null || value === undefined || value === '') return NOT_AVAILABLE;
  return countNumber.format(toAmount(value));
}

/** Sessions: whole visits, an average too ("412", never "412.3"). */
export function formatSessions(value: MetricValue): string {
  if (value === null || value === undefined || value === '') return NOT_AVAILABLE;
  return wholeNumber.format(toAmount(value));
}

/** A value that is already a percent ("2.13") as "2.13 %", always with two decimals. */
export function formatPercent(value: MetricValue): string {
  if (value === null || value === undefined || value === '') return NOT_AVAILABLE;
  return `${percentNumber.format(toAmount(value))} %`;
}

/** A metric's value written the way its kind is (money, count, percent); unknown keys as plain numbers. */
export function formatMetric(key: string | undefined, value: MetricValue, currency: string | undefined): string {
  const kind = isMetricKey(key) ? METRIC_KINDS[key] : 'count';
  if (kind === 'money') return formatMoney(value, currency);
  if (kind === 'percent') return formatPercent(value);
  if (key === 'sessions') return formatSessions(value);
  return formatCount(value);
}
