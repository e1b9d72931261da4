package domain

import (
	"strings"
	"testing"
	"time"
)

// The window a refresh reads ends on the property's today, which is not
// the UTC day: New York on both sides of its November DST change,
// Kiritimati (UTC+14) already on the next day, and the real clock.
func TestGA4WindowEndsOnThePropertysToday(t *testing.T) {
	ny, kir := mustZone(t, "America/New_York"), mustZone(t, "Pacific/Kiritimati")
	for _, c := range []struct {
		now      time.Time
		loc      *time.Location
		from, to string
	}{
		// 01:30 EDT on the DST day: 2026-11-01 05:30Z.
		{time.Date(2026, 11, 1, 5, 30, 0, 0, time.UTC), ny, "2026-10-29", "2026-11-01"},
		// 23:30 EST the same (25-hour) day: 2026-11-02 04:30Z, still the 1st.
		{time.Date(2026, 11, 2, 4, 30, 0, 0, time.UTC), ny, "2026-10-29", "2026-11-01"},
		// 00:30 EST the day after: 2026-11-02 05:30Z.
		{time.Date(2026, 11, 2, 5, 30, 0, 0, time.UTC), ny, "2026-10-30", "2026-11-02"},
		// Kiritimati is 14 hours ahead: 10:00Z on the 1st is the 2nd there.
		{time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC), kir, "2026-10-30", "2026-11-02"},
	} {
		f, to := GA4Window(c.now, c.loc, true)
		if f.String() != c.from || to.String() != c.to {
			t.Errorf("%v in %v: %s – %s, want %s – %s", c.now, c.loc, f, to, c.from, c.to)
		}
		f, to = GA4Window(c.now, c.loc, false)
		if DaysBetween(f, to)+1 != GA4BackfillDays || to.String() != c.to {
			t.Errorf("backfill %s – %s", f, to)
		}
	}
	now := time.Now()
	if _, to := GA4Window(now, ny, true); to != DateOf(now.In(ny)) {
		t.Errorf("real clock: %s", to)
	}
}

// A daily quota waits for midnight Pacific (PST and PDT), an hourly one
// for the next hour.
func TestQuotaRetry(t *testing.T) {
	for _, c := range []struct {
		now  time.Time
		msg  string
		want time.Time
	}{
		{time.Date(2026, 12, 7, 14, 10, 0, 0, time.UTC), "Exhausted property tokens per day quota.", time.Date(2026, 12, 8, 8, 1, 0, 0, time.UTC)},
		{time.Date(2026, 7, 7, 6, 10, 0, 0, time.UTC), "Exhausted property tokens per day quota.", time.Date(2026, 7, 7, 7, 1, 0, 0, time.UTC)},
		{time.Date(2026, 7, 7, 6, 10, 0, 0, time.UTC), "Exhausted property tokens per hour quota.", time.Date(2026, 7, 7, 7, 1, 0, 0, time.UTC)},
		{time.Date(2026, 7, 7, 6, 59, 59, 0, time.UTC), "Exhausted concurrent requests quota.", time.Date(2026, 7, 7, 7, 1, 0, 0, time.UTC)},
	} {
		if got := QuotaRetry(c.now, c.msg); !got.Equal(c.want) {
			t.Errorf("%v %q: %v, want %v", c.now, c.msg, got, c.want)
		}
	}
}

func TestParseGA4Date(t *testing.T) {
	if d, err := ParseGA4Date("20261101"); err != nil || d.String() != "2026-11-01" {
		t.Errorf("%v %v", d, err)
	}
	for _, bad := range []string{"", "2026-11-01", "20261301", "2026110", "RESERVED_TOTAL"} {
		if _, err := ParseGA4Date(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestGA4NotesSayWhatDiffers(t *testing.T) {
	p := int64(47)
	notes := GA4Notes("shop - GA4", &p, 50, true, "America/New_York", "Europe/London", true, false)
	all := strings.Join(notes, "\n")
	for _, want := range []string{"counted 47 purchases in this range; the store recorded 50 orders",
		"counts its days in America/New_York; the store's days are in Europe/London", "sampled"} {
		if !strings.Contains(all, want) {
			t.Errorf("notes %q lack %q", all, want)
		}
	}
	if strings.Contains(all, "thresholded") {
		t.Errorf("thresholded without the flag: %q", all)
	}
	same := int64(50)
	if n := GA4Notes("x", &same, 50, true, "UTC", "UTC", false, false); len(n) != 0 {
		t.Errorf("nothing differs: %q", n)
	}
	one := int64(1)
	if n := GA4Notes("x", &one, 1, false, "", "", false, false); len(n) != 0 {
		t.Errorf("a store without orders: %q", n)
	}
	if n := GA4Notes("x", &one, 2, true, "", "", false, false); !strings.Contains(n[0], "1 purchase in") || !strings.Contains(n[0], "2 orders") {
		t.Errorf("singular: %q", n)
	}
}
