import { canonicalTimeZone } from './time-zones';

/**
 * The locale every date and number is written in. Uplift's words are
 * American English and a business profile has no locale of its own yet, so
 * there is one locale, never the viewer's browser's: the same store reads
 * the same on every screen it is opened on.
 */
export const STORE_LOCALE = 'en-US';

/**
 * How a store's dates read, one format per kind of date, so one page never
 * writes the same day two ways.
 * Calendar days (YYYY-MM-DD, already the store's days) are written as they
 * are; moments (timestamps) are shown on the store's clock.
 */
export interface StoreFormat {
  readonly locale: string;
  /** The store's IANA zone (its current name), or an offset like "-05:00". */
  readonly timeZone: string;
  /** A calendar day: "Nov 30, 2026". */
  day(day: string): string;
  /** A calendar day without its year, where the year is plain (a chart's axis): "Nov 30". */
  dayNoYear(day: string): string;
  /** A calendar day's weekday: "Mon". */
  weekday(day: string): string;
  /** A moment on the store's clock: "Nov 30, 2026, 7:05 PM". */
  moment(at: string | number | Date): string;
  /** The store-local day of a moment, written as a calendar day: "Nov 30, 2026". */
  momentDay(at: string | number | Date): string;
  /** The store-local calendar day of a moment, as YYYY-MM-DD. */
  dayOf(at: string | number | Date): string;
}

/**
 * A calendar day's year, month and day, or null when `day` is not a real
 * YYYY-MM-DD day (2026-02-30 and the like, which Date would roll over).
 */
export function calendarDayParts(day: string): [number, number, number] | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return [y, m, d];
}

/** A calendar day as the UTC midnight that names it, so formatting in UTC shows that very day. */
function calendarDate(day: string): Date | null {
  const p = calendarDayParts(day);
  return p ? new Date(Date.UTC(p[0], p[1] - 1, p[2])) : null;
}

/** An imported file's fixed offset ("-05:00") in minutes east of UTC, or null for a zone name. */
function offsetMinutes(zone: string): number | null {
  const match = /^([+-])(\d{2}):(\d{2})$/.exec(zone);
  if (!match) return null;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === '-' ? -minutes : minutes;
}

/**
 * The zone as Intl takes it: an IANA name by its current name, or UTC for
 * a fixed offset (whose moments are shifted by it, as not every engine
 * takes offsets) and for anything unknown, never the viewer's own zone.
 */
function usableZone(zone: string): string {
  if (offsetMinutes(zone) !== null) return 'UTC';
  try {
    new Intl.DateTimeFormat(STORE_LOCALE, { timeZone: zone });
    return zone;
  } catch {
    return 'UTC';
  }
}

const cache = new Map<string, StoreFormat>();

/** The formatter for a store in `timeZone` (its IANA name or offset; UTC when unknown). */
export function storeFormat(timeZone?: string): StoreFormat {
  const named = canonicalTimeZone(timeZone?.trim() || 'UTC');
  const offset = offsetMinutes(named);
  const zone = offset === null ? usableZone(named) : named;
  const cached = cache.get(zone);
  if (cached) return cached;
  const intlZone = usableZone(zone);
  const calendar = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat(STORE_LOCALE, { ...options, timeZone: 'UTC' });
  const dayFormat = calendar({ month: 'short', day: 'numeric', year: 'numeric' });
  const noYearFormat = calendar({ month: 'short', day: 'numeric' });
  const weekdayFormat = calendar({ weekday: 'short' });
  const momentFormat = new Intl.DateTimeFormat(STORE_LOCALE, {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: intlZone,
  });
  const isoDay = new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: intlZone });
  const toDate = (at: string | number | Date) => {
    const date = at instanceof Date ? at : new Date(at);
    return offset === null ? date : new Date(date.getTime() + offset * 60_000);
  };
  const withDay = (day: string, format: Intl.DateTimeFormat) => {
    const date = calendarDate(day);
    return date ? format.format(date) : day;
  };
  const dayOf = (at: string | number | Date) => {
    const date = toDate(at);
    if (Number.isNaN(date.getTime())) return '';
    const p = Object.fromEntries(isoDay.formatToParts(date).map((x) => [x.type, x.value]));
    return `${p.year}-${p.month}-${p.day}`;
  };
  const format: StoreFormat = {
    locale: STORE_LOCALE,
    timeZone: zone,
    day: (day) => withDay(day, dayFormat),
    dayNoYear: (day) => withDay(day, noYearFormat),
    weekday: (day) => (calendarDate(day) ? weekdayFormat.format(calendarDate(day)!) : ''),
    moment: (at) => {
      const date = toDate(at);
      return Number.isNaN(date.getTime()) ? '' : momentFormat.format(date);
    },
    momentDay: (at) => {
      const day = dayOf(at);
      return day ? withDay(day, dayFormat) : '';
    },
    dayOf,
  };
  cache.set(zone, format);
  return format;
}
