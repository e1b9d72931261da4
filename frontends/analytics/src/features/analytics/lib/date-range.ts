import type { StoreDateRange } from '@uplift/platform';

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

/** Today in the browser's time zone, as YYYY-MM-DD. */
export function localToday(now: Date = new Date()): string {
  return `${pad(now.getFullYear(), 4)}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

function parts(day: string): [number, number, number] | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(y, m - 1, d));
  // Reject 2024-02-30 and the like, which Date would roll over.
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return [y, m, d];
}

export function isCalendarDate(day: string): boolean {
  return parts(day) !== null;
}

/** `day` moved by `n` calendar days (negative for earlier); calendar arithmetic, so time zones and DST do not matter. */
export function addDays(day: string, n: number): string {
  const p = parts(day);
  if (!p) throw new Error(`addDays: not a date: ${day}`);
  const date = new Date(Date.UTC(p[0], p[1] - 1, p[2] + n));
  return `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

/** How many days `from`..`to` covers, both ends included. */
export function daysInRange(range: StoreDateRange): number {
  const a = parts(range.from);
  const b = parts(range.to);
  if (!a || !b) return 0;
  return Math.round((Date.UTC(b[0], b[1] - 1, b[2]) - Date.UTC(a[0], a[1] - 1, a[2])) / 86_400_000) + 1;
}

/** The last `days` days, today included. */
export function lastDays(days: number, today: string): StoreDateRange {
  return { from: addDays(today, -(days - 1)), to: today };
}

/** The period of the same length that ends the day before `range` starts. */
export function previousRange(range: StoreDateRange): StoreDateRange {
  const length = daysInRange(range);
  return { from: addDays(range.from, -length), to: addDays(range.from, -1) };
}

export interface RangeSelection {
  choice: RangeChoice;
  /** The range to ask for; undefined while a custom range is not valid. */
  range: StoreDateRange | undefined;
  /** Why a custom range is not valid, for people. */
  error: string | undefined;
  /** The custom inputs' values (empty unless the choice is custom). */
  customFrom: string;
  customTo: string;
}

/** A custom range's problem, or undefined when it can be asked for. */
export function validateCustomRange(from: string, to: string): string | undefined {
  if (!from || !to) return 'Choose both a start date and an end date.';
  if (!isCalendarDate(from) || !isCalendarDate(to)) return 'Enter the dates as real calendar days (YYYY-MM-DD).';
  if (from > to) return 'The start date must be on or before the end date.';
  const days = daysInRange({ from, to });
  if (days > MAX_RANGE_DAYS) return `Choose at most ${MAX_RANGE_DAYS} days; this range has ${days}.`;
  return undefined;
}

/** Reads the choice from the address; anything unknown falls back to the default (last 30 days). */
export function resolveRange(params: URLSearchParams, today: string): RangeSelection {
  const raw = params.get(RANGE_PARAMS.choice);
  if (raw === 'custom') {
    const customFrom = params.get(RANGE_PARAMS.from) ?? '';
    const customTo = params.get(RANGE_PARAMS.to) ?? '';
    const error = validateCustomRange(customFrom, customTo);
    return {
      choice: 'custom',
      range: error ? undefined : { from: customFrom, to: customTo },
      error,
      customFrom,
      customTo,
    };
  }
  const preset = RANGE_PRESETS.find((p) => p.id === raw) ?? RANGE_PRESETS.find((p) => p.id === DEFAULT_RANGE_CHOICE)!;
  return { choice: preset.id, range: lastDays(preset.days, today), error: undefined, customFrom: '', customTo: '' };
}

const dayFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
const shortDayFormat = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });

const weekdayFormat = new Intl.DateTimeFormat(undefined, { weekday: 'short', timeZone: 'UTC' });

/** The day of the week of a YYYY-MM-DD day ("Sat"). */
export function formatWeekday(day: string): string {
  const p = parts(day);
  return p ? weekdayFormat.format(new Date(Date.UTC(p[0], p[1] - 1, p[2]))) : '';
}

/** A YYYY-MM-DD day for people ("3 May 2025"); `short` drops the year ("3 May"). */
export function formatDay(day: string, options: { short?: boolean } = {}): string {
  const p = parts(day);
  if (!p) return day;
  return (options.short ? shortDayFormat : dayFormat).format(new Date(Date.UTC(p[0], p[1] - 1, p[2])));
}
