import { describe, expect, it } from 'vitest';
import { addDays, daysInRange, isCalendarDate, localToday, previousRange, resolveRange, validateCustomRange } from './date-range';

describe('date ranges', () => {
  it('counts calendar days, across month ends, leap days and DST changes', () => {
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addDays('2023-03-01', -1)).toBe('2023-02-28');
    expect(addDays('2025-03-30', 1)).toBe('2025-03-31'); // Europe's DST change
    expect(addDays('2024-12-31', 1)).toBe('2025-01-01');
    expect(daysInRange({ from: '2024-03-01', to: '2024-03-31' })).toBe(31);
    expect(previousRange({ from: '2024-03-01', to: '2024-03-31' })).toEqual({ from: '2024-01-30', to: '2024-02-29' });
  });

  it("takes today from the browser's local date", () => {
    expect(localToday(new Date(2024, 0, 31, 23, 59))).toBe('2024-01-31');
    expect(localToday(new Date(2024, 1, 1, 0, 1))).toBe('2024-02-01');
  });

  it('refuses impossible dates and ranges the API would refuse', () => {
    expect(isCalendarDate('2023-02-29')).toBe(false);
    expect(validateCustomRange('', '2024-01-01')).toBe('Choose both a start date and an end date.');
    expect(validateCustomRange('2024-01-02', '2024-01-01')).toBe('The start date must be on or before the end date.');
    expect(validateCustomRange('2024-01-01', '2024-01-01')).toBeUndefined();
    expect(validateCustomRange('2023-01-01', '2024-02-04')).toBeUndefined(); // 400 days
    expect(validateCustomRange('2023-01-01', '2024-02-05')).toBe('Choose at most 400 days; this range has 401.');
  });

  it('falls back to the last 30 days for an unknown choice', () => {
    const selection = resolveRange(new URLSearchParams('range=week'), '2024-03-31');
    expect(selection.choice).toBe('30d');
    expect(selection.range).toEqual({ from: '2024-03-02', to: '2024-03-31' });
  });
});
