package domain

import (
	"testing"
	"time"
)

// TestScheduleLocationPrefersTheShopsZone: the connected shop's IANA zone
// wins over the browser's guess at sign-up; an imported file's fixed
// offset (no daylight saving) only stands in when nothing better is known.
func TestScheduleLocationPrefersTheShopsZone(t *testing.T) {
	cases := []struct {
		business, store string
		want            string
		offset          int // seconds east of UTC on 2026-07-01
	}{
		{"Europe/Paris", "America/New_York", "America/New_York", -4 * 3600},
		{"", "Australia/Sydney", "Australia/Sydney", 10 * 3600},
		{"Asia/Tokyo", "-05:00", "Asia/Tokyo", 9 * 3600},
		{"", "-05:00", "-05:00", -5 * 3600},
		{"Europe/Paris", "", "Europe/Paris", 2 * 3600},
		{"Europe/Paris", "Mars/Olympus", "Europe/Paris", 2 * 3600},
		{"", "", "UTC", 0},
		{"Local", "garbage", "UTC", 0},
	}
	july := time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)
	for _, c := range cases {
		loc := ScheduleLocation(c.business, c.store)
		_, off := july.In(loc).Zone()
		if loc.String() != c.want || off != c.offset {
			t.Errorf("ScheduleLocation(%q, %q) = %s (%+ds), want %s (%+ds)", c.business, c.store, loc, off, c.want, c.offset)
		}
	}
}

// Old zone names are accepted and kept by their current names, so one
// zone is not two in the store's settings: a browser in Kolkata reports "Asia/Calcutta".
func TestNormalizeTimeZone(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"Asia/Calcutta": "Asia/Kolkata", "Europe/Kiev": "Europe/Kyiv",
		"Asia/Saigon": "Asia/Ho_Chi_Minh", "Europe/Paris": "Europe/Paris", "UTC": "UTC"} {
		if got, err := NormalizeTimeZone(in); err != nil || got != want {
			t.Errorf("NormalizeTimeZone(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "Local", "Mars/Olympus", "/etc/passwd", "Europe/Paris "} {
		if _, err := NormalizeTimeZone(bad); err == nil {
			t.Errorf("NormalizeTimeZone(%q) accepted", bad)
		}
	}
	for old, current := range renamedZones {
		if _, err := time.LoadLocation(current); err != nil {
			t.Errorf("%s's current name %s is not in the zone database: %v", old, current, err)
		}
	}
}
