import { describe, expect, it } from 'vitest';
import {
  addDays,
  comparisonCoverage,
  daysInRange,
  isCalendarDate,
  isPartialDay,
  resolveRange,
  validateCustomRange,
} from './date-range';

describe('date ranges', () => {
  it('counts calendar days, across month ends, leap days and DST changes', () => {
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addDays('2023-03-01', -1)).toBe('2023-02-28');
    expect(addDays('2025-03-30', 1)).toBe('2025-03-31'); // Europe's DST change
    expect(addDays('2024-12-31', 1)).toBe('2025-01-01');
    expect(daysInRange({ from: '2024-03-01', to: '2024-03-31' })).toBe(31);
  });

  it('refuses impossible dates and ranges the API would refuse', () => {
    expect(isCalendarDate('2023-02-29')).toBe(false);
    expect(validateCustomRange('', '2024-01-01')).toBe('Choose both a start date and an end date.');
    expect(validateCustomRange('2024-01-02', '2024-01-01')).toBe('The start date must be on or before the end date.');
    expect(validateCustomRange('2024-01-01', '2024-01-01')).toBeUndefined();
    expect(validateCustomRange('2023-01-01', '2024-02-04')).toBeUndefined(); // 400 days
    expect(validateCustomRange('2023-01-01', '2024-02-05')).toBe('Choose at most 400 days; this range has 401.');
  });

  it("bounds a custom range by the store's today, not the browser's", () => {
    // The browser (UTC) is on 2 Dec while the store (New York) is on 1 Dec.
    expect(validateCustomRange('2026-11-01', '2026-12-01', '2026-12-01')).toBeUndefined();
    expect(validateCustomRange('2026-11-01', '2026-12-02', '2026-12-01')).toBe(
      "The end date can't be after today in your store's time zone.",
    );
    // Before the server has said the store's today, nothing is assumed.
    expect(validateCustomRange('2026-11-01', '2026-12-02')).toBeUndefined();
  });

  it("asks for presets as whole days on the store's clock, never as the browser's dates", () => {
    for (const [choice, days] of [
      ['7d', 7],
      ['30d', 30],
      ['90d', 90],
    ] as const) {
      expect(resolveRange(new URLSearchParams(`range=${choice}`), '2026-12-01').request).toEqual({ lastDays: days });
    }
    const custom = resolveRange(new URLSearchParams('range=custom&from=2026-11-01&to=2026-11-30'), '2026-12-01');
    expect(custom.request).toEqual({ from: '2026-11-01', to: '2026-11-30' });
  });

  it('falls back to the last 30 days for an unknown choice', () => {
    const selection = resolveRange(new URLSearchParams('range=week'));
    expect(selection.choice).toBe('30d');
    expect(selection.request).toEqual({ lastDays: 30 });
  });

  it("marks only the store's today as partial", () => {
    expect(isPartialDay('2026-12-01', '2026-12-01')).toBe(true);
    expect(isPartialDay('2026-11-30', '2026-12-01')).toBe(false);
    expect(isPartialDay('2026-12-01', undefined)).toBe(false);
  });

  it('says how much of the comparison period is before the first order', () => {
    const previous = { from: '2026-06-04', to: '2026-09-01' }; // 90 days
    expect(comparisonCoverage(previous, undefined)).toEqual({ kind: 'whole' });
    expect(comparisonCoverage(previous, '2026-06-04')).toEqual({ kind: 'whole' });
    expect(comparisonCoverage(previous, '2026-01-01')).toEqual({ kind: 'whole' });
    expect(comparisonCoverage(previous, '2026-06-05')).toEqual({
      kind: 'partly',
      daysBefore: 1,
      days: 90,
      firstOrderDay: '2026-06-05',
    });
    expect(comparisonCoverage(previous, '2026-08-03')).toMatchObject({ kind: 'partly', daysBefore: 60 });
    expect(comparisonCoverage(previous, '2026-09-01')).toMatchObject({ kind: 'partly', daysBefore: 89 });
    expect(comparisonCoverage(previous, '2026-09-02')).toEqual({ kind: 'none', firstOrderDay: '2026-09-02' });
  });

  it('agrees with a day-by-day count for many periods and first orders', () => {
    let seed = 21;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let i = 0; i < 500; i++) {
      const from = addDays('2025-01-01', next(700));
      const to = addDays(from, next(400));
      const first = addDays('2024-12-01', next(1200));
      let before = 0;
      for (let d = from; d <= to; d = addDays(d, 1)) if (d < first) before++;
      const coverage = comparisonCoverage({ from, to }, first);
      const days = daysInRange({ from, to });
      if (before === 0) expect(coverage.kind).toBe('whole');
      else if (before === days) expect(coverage.kind).toBe('none');
      else expect(coverage).toEqual({ kind: 'partly', daysBefore: before, days, firstOrderDay: first });
    }
  });
});
