package schedule

import (
	"testing"
	"time"
)

func zone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func TestWeeklyDueAtFixedInstants(t *testing.T) {
	paris := zone(t, "Europe/Paris")
	slot := Weekly(time.Monday, 8)
	cases := []struct {
		name, now, last, want string // want "" means not due
	}{
		{"Monday 07:59 Paris", "2026-06-08T05:59:00Z", "", ""},
		{"Monday 08:00 Paris", "2026-06-08T06:00:00Z", "", "2026-06-08"},
		{"Sunday still this week's", "2026-06-14T21:00:00Z", "", "2026-06-08"},
		{"already done this week", "2026-06-10T12:00:00Z", "2026-06-08", ""},
		{"last week's done", "2026-06-10T12:00:00Z", "2026-06-01", "2026-06-08"},
		{"next Monday before 08:00", "2026-06-15T05:00:00Z", "2026-06-01", ""},
		// 29 March 2026: Paris moves from 02:00 to 03:00 on a Sunday; 30
		// March is the first Monday after it.
		{"Monday after spring change", "2026-03-30T06:00:00Z", "2026-03-23", "2026-03-30"},
		{"Monday before the slot, last week done", "2026-03-30T05:59:00Z", "2026-03-23", ""},
	}
	for _, c := range cases {
		now, _ := time.Parse(time.RFC3339, c.now)
		var last Date
		if c.last != "" {
			last, _ = ParseDate(c.last)
		}
		occ, due := slot.Due(now, paris, last)
		got := ""
		if due {
			got = occ.String()
		}
		if got != c.want {
			t.Errorf("%s: Due(%s, last %q) = %q, want %q", c.name, c.now, c.last, got, c.want)
		}
	}
}

// TestOncePerPeriodAcrossDST moves a worker's clock minute by minute through
// both daylight-saving changes and checks each slot fires exactly once, at
// its wall-clock hour, in zones east and west of UTC and one that moves by
// half an hour.
func TestOncePerPeriodAcrossDST(t *testing.T) {
	for _, name := range []string{"Europe/Paris", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata"} {
		loc := zone(t, name)
		for _, slot := range []Slot{Daily(7), Weekly(time.Monday, 8), Weekly(time.Sunday, 2)} {
			for _, span := range [][2]string{{"2026-03-01T00:00:00Z", "2026-04-15T00:00:00Z"}, {"2026-09-25T00:00:00Z", "2026-11-10T00:00:00Z"}} {
				from, _ := time.Parse(time.RFC3339, span[0])
				to, _ := time.Parse(time.RFC3339, span[1])
				var last Date
				fired := map[Date]int{}
				for now := from; now.Before(to); now = now.Add(time.Minute) {
					occ, due := slot.Due(now, loc, last)
					if !due {
						continue
					}
					fired[occ]++
					last = occ
					local := now.In(loc)
					if DateOf(local) != occ && !slot.Weekly {
						t.Errorf("%s %+v: fired for %s on %s", name, slot, occ, local)
					}
					// At the slot's instant (the first one after a skipped
					// hour), except when the clock starts inside a window.
					if want := occ.At(loc, slot.Hour); !now.Equal(want) && !now.Equal(from) {
						t.Errorf("%s %+v: fired at %s, want %s", name, slot, local, want)
					}
				}
				days := int(to.Sub(from).Hours()/24) - 1
				want := days
				if slot.Weekly {
					want = days / 7
				}
				if len(fired) < want {
					t.Errorf("%s %+v %s: fired %d periods, want at least %d", name, slot, span[0], len(fired), want)
				}
				for d, n := range fired {
					if n != 1 {
						t.Errorf("%s %+v: %s fired %d times", name, slot, d, n)
					}
				}
			}
		}
	}
}

func TestDateHelpers(t *testing.T) {
	d, err := ParseDate("2026-12-31")
	if err != nil || d.AddDays(1).String() != "2027-01-01" || !d.Before(d.AddDays(1)) || d.IsZero() {
		t.Fatalf("date helpers: %v %v", d, err)
	}
	if _, err := ParseDate("2026-02-30"); err == nil {
		t.Fatal("30 February parsed")
	}
}

// TestPeriodIsTheOccurrenceHoldingNow: what an operator's "send it now"
// claims, before and after the slot's hour, across a daylight-saving change
// and on either side of the date line.
func TestPeriodIsTheOccurrenceHoldingNow(t *testing.T) {
	paris := zone(t, "Europe/Paris")
	auckland := zone(t, "Pacific/Auckland")
	cases := []struct {
		name string
		slot Slot
		now  string
		loc  *time.Location
		want string
	}{
		{"weekly, Monday before 08:00 is this week", Weekly(time.Monday, 8), "2026-06-08T05:00:00Z", paris, "2026-06-08"},
		{"weekly, Sunday night is still the week's", Weekly(time.Monday, 8), "2026-06-14T21:30:00Z", paris, "2026-06-08"},
		{"weekly, Sunday 22:30 UTC is Monday in Paris", Weekly(time.Monday, 8), "2026-06-14T22:30:00Z", paris, "2026-06-15"},
		{"weekly, the Sunday clocks go forward", Weekly(time.Monday, 8), "2026-03-29T01:30:00Z", paris, "2026-03-23"},
		{"weekly, Auckland is a day ahead", Weekly(time.Monday, 8), "2026-06-14T13:00:00Z", auckland, "2026-06-15"},
		{"daily, before the hour is today", Daily(7), "2026-10-25T01:30:00Z", paris, "2026-10-25"},
		{"daily, nil zone is UTC", Daily(7), "2026-10-25T23:30:00Z", nil, "2026-10-25"},
	}
	for _, c := range cases {
		now, _ := time.Parse(time.RFC3339, c.now)
		if got := c.slot.Period(now, c.loc).String(); got != c.want {
			t.Errorf("%s: Period(%s) = %s, want %s", c.name, c.now, got, c.want)
		}
	}
}
