import { describe, expect, it } from 'vitest';
import { formatCount, formatWhen, storeCounts } from './format';

describe('format', () => {
  it('reads counts (numbers, or strings from older answers), and missing ones as zero', () => {
    expect(formatCount('1234567')).toBe('1,234,567');
    expect(formatCount(undefined)).toBe('0');
    expect(formatCount('not a number')).toBe('0');
    expect(storeCounts({ orders: 1, products: 2 })).toBe('1 order · 2 products · 0 customers');
  });

  it('says how long ago within a day, then the local date and time', () => {
    const now = Date.parse('2025-06-10T12:00:00Z');
    expect(formatWhen('2025-06-10T11:59:30Z', now)).toBe('just now');
    expect(formatWhen('2025-06-10T11:55:00Z', now)).toBe('5 minutes ago');
    expect(formatWhen('2025-06-10T09:00:00Z', now)).toBe('3 hours ago');
    const older = formatWhen('2025-06-01T08:30:00Z', now);
    expect(older).toBe(new Date('2025-06-01T08:30:00Z').toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }));
    expect(formatWhen(undefined, now)).toBeUndefined();
    expect(formatWhen('garbage', now)).toBeUndefined();
  });
});
