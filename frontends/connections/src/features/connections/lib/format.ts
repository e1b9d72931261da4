import { STORE_LOCALE, type StoreCountsJson, type StoreFormat } from '@uplift/platform';

const numbers = new Intl.NumberFormat(STORE_LOCALE);
const relative = new Intl.RelativeTimeFormat(STORE_LOCALE, { numeric: 'always' });

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** A count as the wire sends it (int64 counts arrive as strings, zero as nothing), grouped: "1,234". */
export function formatCount(value: string | number | undefined): string {
  const n = Number(value ?? 0);
  return numbers.format(Number.isFinite(n) ? n : 0);
}

/** "1 order", "1,234 orders". */
export function countOf(value: string | number | undefined, one: string, many: string): string {
  return `${formatCount(value)} ${Number(value ?? 0) === 1 ? one : many}`;
}

/**
 * What Uplift holds of the store, as stored: "120 orders · 8 products · 30 customers".
 * Never a sync's own counts, which are what that sync brought in (a few orders for a
 * sync of what changed), not the store's size.
 */
export function storeCounts(stored: StoreCountsJson | undefined): string {
  return [
    countOf(stored?.orders, 'order', 'orders'),
    countOf(stored?.products, 'product', 'products'),
    countOf(stored?.customers, 'customer', 'customers'),
  ].join(' · ');
}

/**
 * A past moment for people: "just now", "5 minutes ago", "3 hours ago", and
 * after a day the date and time on the store's clock. Nothing when the timestamp is missing or unreadable.
 */
export function formatWhen(
  timestamp: string | undefined,
  format: StoreFormat,
  now: number = Date.now(),
): string | undefined {
  if (!timestamp) return undefined;
  const at = Date.parse(timestamp);
  if (Number.isNaN(at)) return undefined;
  const ago = now - at;
  if (ago < MINUTE_MS) return 'just now';
  if (ago < HOUR_MS) return relative.format(-Math.floor(ago / MINUTE_MS), 'minute');
  if (ago < DAY_MS) return relative.format(-Math.floor(ago / HOUR_MS), 'hour');
  return format.moment(at);
}
