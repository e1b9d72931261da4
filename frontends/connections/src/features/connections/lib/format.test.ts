import { describe, expect, it } from 'vitest';
import { storeFormat } from '@uplift/platform';
import { formatCount, formatWhen, storeCounts } from './format';

describe('format', () => {
  it('reads counts (numbers, or strings from older answers), and missing ones as zero', () => {
    expect(formatCount('1234567')).toBe('1,234,567');
    expect(formatCount(undefined)).toBe('0');
    expect(formatCount('not a number')).toBe('0');
    expect(storeCounts({ orders: 1, products: 2 })).toBe('1 order · 2 products · 0 customers');
  });

  it("says how long ago within a day, then the date and time on the store's clock", () => {
    const now = Date.parse('2025-06-10T12:00:00Z');
    const ny = storeFormat('America/New_York');
    expect(formatWhen('2025-06-10T11:59:30Z', ny, now)).toBe('just now');
    expect(formatWhen('2025-06-10T11:55:00Z', ny, now)).toBe('5 minutes ago');
    expect(formatWhen('2025-06-10T09:00:00Z', ny, now)).toBe('3 hours ago');
    // 02:30 UTC on 2 June is still 1 June in New York, whatever the viewer's zone.
    expect(formatWhen('2025-06-02T02:30:00Z', ny, now)).toBe('Jun 1, 2025, 10:30 PM');
    expect(formatWhen('2025-06-02T02:30:00Z', storeFormat('Asia/Kolkata'), now)).toBe('Jun 2, 2025, 8:00 AM');
    expect(formatWhen(undefined, ny, now)).toBeUndefined();
    expect(formatWhen('garbage', ny, now)).toBeUndefined();
  });
});
