import { describe, expect, it } from 'vitest';
import { canonicalTimeZone, timeZoneChoices } from './time-zones';
import { calendarDayParts, STORE_LOCALE, storeFormat } from './store-format';

describe('calendarDayParts', () => {
  it('reads real calendar days only', () => {
    expect(calendarDayParts('2028-02-29')).toEqual([2028, 2, 29]);
    expect(calendarDayParts('2026-02-29')).toBeNull();
    expect(calendarDayParts('2026-11-31')).toBeNull();
    expect(calendarDayParts('2026-1-05')).toBeNull();
    expect(calendarDayParts('2026-12-02T00:00:00Z')).toBeNull();
  });
});

describe('storeFormat', () => {
  it('writes each kind of date one way, in the store locale', () => {
    const f = storeFormat('America/New_York');
    expect(f.locale).toBe(STORE_LOCALE);
    expect(f.day('2026-11-30')).toBe('Nov 30, 2026');
    expect(f.dayNoYear('2026-11-30')).toBe('Nov 30');
    expect(f.weekday('2026-11-30')).toBe('Mon');
    expect(f.day('not a day')).toBe('not a day');
  });

  it("puts a moment on the store's clock and day, whatever the viewer's", () => {
    // 00:05 UTC on 2 Dec is 19:05 on 1 Dec in New York and 05:35 on 2 Dec in Kolkata.
    const at = '2026-12-02T00:05:00Z';
    expect(storeFormat('America/New_York').moment(at)).toBe('Dec 1, 2026, 7:05 PM');
    expect(storeFormat('America/New_York').dayOf(at)).toBe('2026-12-01');
    expect(storeFormat('America/New_York').momentDay(at)).toBe('Dec 1, 2026');
    expect(storeFormat('Asia/Kolkata').dayOf(at)).toBe('2026-12-02');
    expect(storeFormat('Asia/Calcutta').timeZone).toBe('Asia/Kolkata');
  });

  it('follows daylight saving: the hour of a fixed UTC instant moves, the day is right', () => {
    const ny = storeFormat('America/New_York');
    expect(ny.moment('2026-11-01T05:30:00Z')).toBe('Nov 1, 2026, 1:30 AM'); // EDT ends at 06:00 UTC
    expect(ny.moment('2026-11-01T06:30:00Z')).toBe('Nov 1, 2026, 1:30 AM'); // the second 1:30, in EST
    expect(ny.moment('2026-11-01T07:30:00Z')).toBe('Nov 1, 2026, 2:30 AM');
  });

  it('takes an imported file\u2019s fixed offset, and UTC for an unknown zone (never the browser\u2019s)', () => {
    expect(storeFormat('-05:00').dayOf('2026-12-02T03:00:00Z')).toBe('2026-12-01');
    expect(storeFormat('Not/AZone').timeZone).toBe('UTC');
    expect(storeFormat(undefined).timeZone).toBe('UTC');
  });
});

describe('time zone names', () => {
  it('shows the current IANA names of renamed zones', () => {
    expect(canonicalTimeZone('Asia/Calcutta')).toBe('Asia/Kolkata');
    expect(canonicalTimeZone('Europe/Kiev')).toBe('Europe/Kyiv');
    expect(canonicalTimeZone('Asia/Saigon')).toBe('Asia/Ho_Chi_Minh');
    expect(canonicalTimeZone('Europe/Paris')).toBe('Europe/Paris');
    expect(canonicalTimeZone('-05:00')).toBe('-05:00');
  });

  it('lists each zone once, by its current name', () => {
    const zones = timeZoneChoices('Asia/Calcutta');
    expect(zones).toContain('Asia/Kolkata');
    expect(zones).not.toContain('Asia/Calcutta');
    expect(zones).not.toContain('Europe/Kiev');
    expect(new Set(zones).size).toBe(zones.length);
    for (const zone of zones) expect(() => new Intl.DateTimeFormat('en-US', { timeZone: zone })).not.toThrow();
  });
});
