import { calendarDayParts, type StoreDateRange, type StoreMetricsRequest } from '@uplift/platform';

/** The backend refuses longer ranges (stores service, MaxRangeDays). */
export const MAX_RANGE_DAYS = 400;

export const RANGE_PRESETS = [
  { id: '7d', days: 7, label: 'Last 7 days' },
  { id: '30d', days: 30, label: 'Last 30 days' },
  { id: '90d', days: 90, label: 'Last 90 days' },
] as const;

export type RangeChoice = (typeof RANGE_PRESETS)[number]['id'] | 'custom';

export const DEFAULT_RANGE_CHOICE: RangeChoice = '30d';

/** The address's query parameters that hold the choice: `?range=7d`, or `?range=custom&from=…&to=…`. */
export const RANGE_PARAMS = { choice: 'range', from: 'from', to: 'to' } as const;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

export function isCalendarDate(day: string): boolean {
  return calendarDayParts(day) !== null;
}

/** `day` moved by `n` calendar days (negative for earlier); calendar arithmetic, so time zones and DST do not matter. */
export function addDays(day: string, n: number): string {
  const p = calendarDayParts(day);
  if (!p) throw new Error(`addDays: not a date: ${day}`);
  const date = new Date(Date.UTC(p[0], p[1] - 1, p[2] + n));
  return `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

/** How many days `from`..`to` covers, both ends included. */
export function daysInRange(range: StoreDateRange): number {
  const a = calendarDayParts(range.from);
  const b = calendarDayParts(range.to);
  if (!a || !b) return 0;
  return Math.round((Date.UTC(b[0], b[1] - 1, b[2]) - Date.UTC(a[0], a[1] - 1, a[2])) / 86_400_000) + 1;
}

export interface RangeSelection {
  choice: RangeChoice;
  /**
   * What to ask for; undefined while a custom range is not valid. A preset
   * is asked as `lastDays`, which the server resolves on the store's clock
   * (the viewer's may be on another date).
   */
  request: StoreMetricsRequest | undefined;
  /** Why a custom range is not valid, for people. */
  error: string | undefined;
  /** The custom inputs' values (empty unless the choice is custom). */
  customFrom: string;
  customTo: string;
}

/**
 * A custom range's problem, or undefined when it can be asked for. `today`
 * is the store's today once the server has said it: a range cannot end
 * after it, since those days have no numbers yet.
 */
export function validateCustomRange(from: string, to: string, today?: string): string | undefined {
  if (!from || !to) return 'Choose both a start date and an end date.';
  if (!isCalendarDate(from) || !isCalendarDate(to)) return 'Enter the dates as real calendar days (YYYY-MM-DD).';
  if (from > to) return 'The start date must be on or before the end date.';
  if (today && to > today) return "The end date can't be after today in your store's time zone.";
  const days = daysInRange({ from, to });
  if (days > MAX_RANGE_DAYS) return `Choose at most ${MAX_RANGE_DAYS} days; this range has ${days}.`;
  return undefined;
}

/**
 * Reads the choice from the address; anything unknown falls back to the
 * default (last 30 days). `today` is the store's, when known.
 */
export function resolveRange(params: URLSearchParams, today?: string): RangeSelection {
  const raw = params.get(RANGE_PARAMS.choice);
  if (raw === 'custom') {
    const customFrom = params.get(RANGE_PARAMS.from) ?? '';
    const customTo = params.get(RANGE_PARAMS.to) ?? '';
    const error = validateCustomRange(customFrom, customTo, today);
    return {
      choice: 'custom',
      request: error ? undefined : { from: customFrom, to: customTo },
      error,
      customFrom,
      customTo,
    };
  }
  const preset = RANGE_PRESETS.find((p) => p.id === raw) ?? RANGE_PRESETS.find((p) => p.id === DEFAULT_RANGE_CHOICE)!;
  return { choice: preset.id, request: { lastDays: preset.days }, error: undefined, customFrom: '', customTo: '' };
}

/**
 * Whether a day is not over: the store's today. Its numbers are so far, so
 * it is marked wherever it appears (chart, table, comparison).
 */
export function isPartialDay(day: string | undefined, today: string | undefined): boolean {
  return Boolean(day && today && day === today);
}

/** How much of the comparison period came before the store's first order. */
export type ComparisonCoverage =
  | { kind: 'whole' }
  | { kind: 'partly'; daysBefore: number; days: number; firstOrderDay: string }
  | { kind: 'none'; firstOrderDay: string };

/**
 * The comparison period against the first order's day: a period partly
 * before it sets days without data against the range (a "+292.7 %" that
 * says only that the store is new); one wholly before it has nothing to
 * compare. Without a first order there is nothing to say.
 */
export function comparisonCoverage(previous: StoreDateRange, firstOrderDay: string | undefined): ComparisonCoverage {
  if (!firstOrderDay || !isCalendarDate(firstOrderDay) || firstOrderDay <= previous.from) return { kind: 'whole' };
  const days = daysInRange(previous);
  if (firstOrderDay > previous.to) return { kind: 'none', firstOrderDay };
  return { kind: 'partly', daysBefore: daysInRange({ from: previous.from, to: addDays(firstOrderDay, -1) }), days, firstOrderDay };
}
