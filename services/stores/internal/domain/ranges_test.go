package domain

import (
	"testing"
	"time"
)

// The preset ranges follow the store's clock: at one instant two stores on
// either side of midnight get different ranges, and neither includes its
// unfinished today. Checked both ways round (a store behind UTC and one
// ahead of it) and across both daylight-saving changes.
func TestLastWholeDaysFollowsTheStoresClock(t *testing.T) {
	t.Parallel()
	zone := func(name string) *time.Location {
		loc, err := time.LoadLocation(name)
		if err != nil {
			t.Fatal(err)
		}
		return loc
	}
	cases := []struct {
		name     string
		now      time.Time
		zone     string
		days     int
		from, to string
	}{
		// 00:05 UTC on 2 Dec is still 1 Dec (19:05) in New York: the case.
		{"behind UTC", time.Date(2026, 12, 2, 0, 5, 0, 0, time.UTC), "America/New_York", 30, "2026-11-01", "2026-11-30"},
		// 20:00 UTC on 1 Dec is already 2 Dec (01:30) in Kolkata.
		{"ahead of UTC", time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC), "Asia/Kolkata", 30, "2026-11-02", "2026-12-01"},
		{"Kiritimati, 14 h ahead", time.Date(2026, 12, 1, 10, 30, 0, 0, time.UTC), "Pacific/Kiritimati", 7, "2026-11-25", "2026-12-01"},
		// The first minute of a store's day: yesterday is whole, today has begun.
		{"store midnight", time.Date(2026, 12, 2, 5, 0, 0, 0, time.UTC), "America/New_York", 7, "2026-11-25", "2026-12-01"},
		{"a minute before", time.Date(2026, 12, 2, 4, 59, 0, 0, time.UTC), "America/New_York", 7, "2026-11-24", "2026-11-30"},
		// New York falls back on 1 Nov 2026 (a 25-hour day): 00:30 EST on 2 Nov is 05:30 UTC.
		{"after fall-back", time.Date(2026, 11, 2, 5, 30, 0, 0, time.UTC), "America/New_York", 7, "2026-10-26", "2026-11-01"},
		// London springs forward on 29 Mar 2026: 00:30 BST on 30 Mar is 23:30 UTC on 29 Mar.
		{"after spring-forward", time.Date(2026, 3, 29, 23, 30, 0, 0, time.UTC), "Europe/London", 90, "2025-12-30", "2026-03-29"},
		{"one day", time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC), "UTC", 1, "2025-12-31", "2025-12-31"},
	}
	for _, c := range cases {
		from, to := LastWholeDays(c.now, zone(c.zone), c.days)
		if from.String() != c.from || to.String() != c.to {
			t.Errorf("%s: %s – %s, want %s – %s", c.name, from, to, c.from, c.to)
		}
		if DaysBetween(from, to)+1 != c.days {
			t.Errorf("%s: %d days, want %d", c.name, DaysBetween(from, to)+1, c.days)
		}
		if !to.Before(Today(c.now, zone(c.zone))) {
			t.Errorf("%s: the range includes the store's unfinished today", c.name)
		}
	}
}

// On the real clock, every minute of a whole day in a zone far from UTC
// gives a range that ends exactly the day before the store's today.
func TestLastWholeDaysRealClock(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"Pacific/Honolulu", "Asia/Kathmandu", "Pacific/Kiritimati"} {
		loc, _ := time.LoadLocation(name)
		start := time.Now().Truncate(time.Hour)
		for m := 0; m < 24*60; m += 7 {
			now := start.Add(time.Duration(m) * time.Minute)
			_, to := LastWholeDays(now, loc, 30)
			if want := DateOf(now.In(loc)).AddDays(-1); to != want {
				t.Fatalf("%s at %s: ends %s, want %s", name, now, to, want)
			}
		}
	}
}
