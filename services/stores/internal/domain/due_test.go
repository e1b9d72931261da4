package domain

import (
	"testing"
	"time"
)

func mustZone(t testing.TB, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatalf("zone %s: %v", name, err)
	}
	return loc
}

// TestReportDue checks the rule at fixed instants: before and at 07:00
// store-local, across the date line, on both daylight-saving days, with and
// without a report already sent.
func TestReportDue(t *testing.T) {
	t.Parallel()
	utc := func(s string) time.Time {
		ts, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return ts
	}
	cases := []struct {
		name, zone, now, last string
		want                  string // "" = not due
	}{
		{"NY before 07:00", "America/New_York", "2026-06-10T10:59:59Z", "", ""},
		{"NY at 07:00 EDT", "America/New_York", "2026-06-10T11:00:00Z", "", "2026-06-09"},
		{"NY late evening still due", "America/New_York", "2026-06-11T03:59:00Z", "", "2026-06-09"},
		{"NY next day before 07:00: the missed day is not sent late", "America/New_York", "2026-06-11T05:00:00Z", "2026-06-08", ""},
		{"NY already sent", "America/New_York", "2026-06-10T15:00:00Z", "2026-06-09", ""},
		{"NY last sent the day before", "America/New_York", "2026-06-10T15:00:00Z", "2026-06-08", "2026-06-09"},
		{"NY a later day already sent (clock moved back)", "America/New_York", "2026-06-10T15:00:00Z", "2026-06-10", ""},
		{"NY spring forward: 06:59 EDT", "America/New_York", "2026-03-08T10:59:00Z", "2026-03-06", ""},
		{"NY spring forward: 07:00 EDT is 11:00 UTC", "America/New_York", "2026-03-08T11:00:00Z", "2026-03-06", "2026-03-07"},
		{"NY fall back: 06:59 EST is 11:59 UTC", "America/New_York", "2026-11-01T11:59:00Z", "2026-10-30", ""},
		{"NY fall back: 07:00 EST is 12:00 UTC", "America/New_York", "2026-11-01T12:00:00Z", "2026-10-30", "2026-10-31"},
		{"Kolkata half-hour offset: 01:29 UTC", "Asia/Kolkata", "2026-03-08T01:29:00Z", "", ""},
		{"Kolkata 07:00 IST is 01:30 UTC", "Asia/Kolkata", "2026-03-08T01:30:00Z", "", "2026-03-07"},
		{"Kiritimati +14: local day ahead of UTC", "Pacific/Kiritimati", "2026-06-14T17:00:00Z", "", "2026-06-14"},
		{"Kiritimati 06:59", "Pacific/Kiritimati", "2026-06-14T16:59:00Z", "", ""},
		{"London spring forward: 07:00 BST is 06:00 UTC", "Europe/London", "2026-03-29T06:00:00Z", "2026-03-27", "2026-03-28"},
		{"London spring forward: 05:59 UTC", "Europe/London", "2026-03-29T05:59:00Z", "2026-03-27", ""},
		{"London fall back: 07:00 GMT is 07:00 UTC", "Europe/London", "2026-10-25T07:00:00Z", "2026-10-23", "2026-10-24"},
		{"London fall back: 06:59 UTC", "Europe/London", "2026-10-25T06:59:00Z", "2026-10-23", ""},
		{"year boundary", "Europe/London", "2027-01-01T07:00:00Z", "2026-12-30", "2026-12-31"},
	}
	for _, c := range cases {
		var last Date
		if c.last != "" {
			last = mustDate(t, c.last)
		}
		day, due := ReportDue(utc(c.now), mustZone(t, c.zone), last)
		got := ""
		if due {
			got = day.String()
		}
		if got != c.want {
			t.Errorf("%s: ReportDue(%s in %s, last %q) = %q, want %q", c.name, c.now, c.zone, c.last, got, c.want)
		}
	}
	// A fixed offset (an imported file's zone) and no zone at all.
	if day, due := ReportDue(utc("2026-06-10T12:00:00Z"), time.FixedZone("-05:00", -5*3600), Date{}); !due || day.String() != "2026-06-09" {
		t.Errorf("fixed offset: %v %v", day, due)
	}
	if _, due := ReportDue(utc("2026-06-10T06:59:00Z"), nil, Date{}); due {
		t.Error("nil zone counts as UTC: not due before 07:00 UTC")
	}
}

// TestReportDueSendsOncePerDayAcrossDST runs a worker's clock minute by
// minute across both daylight-saving changes in each zone, recording what
// it sends: every store-local day gets exactly one report, for the day
// before, at its first tick at or after 07:00 local.
func TestReportDueSendsOncePerDayAcrossDST(t *testing.T) {
	t.Parallel()
	windows := [][2]string{{"2026-03-05T00:00:00Z", "2026-03-11T00:00:00Z"},
		{"2026-03-26T00:00:00Z", "2026-04-01T00:00:00Z"},
		{"2026-10-22T00:00:00Z", "2026-10-28T00:00:00Z"},
		{"2026-10-29T00:00:00Z", "2026-11-04T00:00:00Z"}}
	for _, zone := range []string{"America/New_York", "Asia/Kolkata", "Pacific/Kiritimati", "Europe/London"} {
		loc := mustZone(t, zone)
		for _, w := range windows {
			from, _ := time.Parse(time.RFC3339, w[0])
			to, _ := time.Parse(time.RFC3339, w[1])
			// The worker has run before: the report of the window's
			// first local morning is already out.
			last := DateOf(from.In(loc)).AddDays(-1)
			sentOn := map[Date]int{}
			for now := from; now.Before(to); now = now.Add(time.Minute) {
				day, due := ReportDue(now, loc, last)
				if !due {
					continue
				}
				local := now.In(loc)
				if local.Hour() != ReportHour || local.Minute() != 0 {
					t.Errorf("%s: sent at %s local, want the first tick at 07:00", zone, local)
				}
				if want := DateOf(local).AddDays(-1); day != want {
					t.Errorf("%s: at %s sent %s, want %s", zone, local, day, want)
				}
				if DaysBetween(last, day) != 1 {
					t.Errorf("%s: sent %s after %s: a day skipped or repeated", zone, day, last)
				}
				sentOn[DateOf(local)]++
				last = day
			}
			// Every local morning that falls inside the window sent once.
			first, lastDay := DateOf(from.In(loc)), DateOf(to.In(loc))
			for d := first.AddDays(1); d.Before(lastDay); d = d.AddDays(1) {
				if sentOn[d] != 1 {
					t.Errorf("%s: %d reports sent on the morning of %s, want 1", zone, sentOn[d], d)
				}
			}
		}
	}
}

// TestReportDueOnTheRealClock checks the rule against the machine's clock
// in each zone.
func TestReportDueOnTheRealClock(t *testing.T) {
	t.Parallel()
	for _, zone := range []string{"America/New_York", "Asia/Kolkata", "Pacific/Kiritimati", "Europe/London", "UTC"} {
		loc := mustZone(t, zone)
		now := time.Now()
		local := now.In(loc)
		day, due := ReportDue(now, loc, Date{})
		if due != (local.Hour() >= ReportHour) {
			t.Errorf("%s: due = %v at %s local", zone, due, local.Format(time.Kitchen))
		}
		if !due {
			continue
		}
		if want := DateOf(local).AddDays(-1); day != want {
			t.Errorf("%s: due for %s, want %s", zone, day, want)
		}
		if _, again := ReportDue(now, loc, day); again {
			t.Errorf("%s: due again after sending %s", zone, day)
		}
	}
}
