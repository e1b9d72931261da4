package domain

import (
	"testing"
	"time"
)

func mustDate(t testing.TB, s string) Date {
	t.Helper()
	d, err := ParseDate(s)
	if err != nil {
		t.Fatalf("ParseDate(%q): %v", s, err)
	}
	return d
}

func TestParseDate(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"2026-11-23", "2028-02-29", "2000-02-29", "0001-01-01", "9999-12-31"} {
		d, err := ParseDate(s)
		if err != nil || d.String() != s {
			t.Errorf("ParseDate(%q) = %v, %v", s, d, err)
		}
	}
	for _, s := range []string{"", "2026-1-23", "2026-13-01", "2026-00-10", "2026-02-29", "2100-02-29",
		"2026-04-31", "2026-11-23T00:00:00Z", " 2026-11-23", "2026/11/23", "20261123xx", "0000-01-01", "2026-11-2a"} {
		if _, err := ParseDate(s); err == nil {
			t.Errorf("ParseDate(%q) accepted", s)
		}
	}
}

func TestAddDaysAndBetween(t *testing.T) {
	t.Parallel()
	cases := []struct {
		from string
		n    int
		want string
	}{
		{"2028-02-28", 1, "2028-02-29"},
		{"2028-02-28", 2, "2028-03-01"},
		{"2027-02-28", 1, "2027-03-01"},
		{"2100-02-28", 1, "2100-03-01"},
		{"2026-01-01", -1, "2025-12-31"},
		{"2026-03-07", 2, "2026-03-09"}, // across New York's spring-forward day
		{"2026-10-31", 1, "2026-11-01"}, // into the fall-back day
		{"2028-03-01", -1, "2028-02-29"},
		{"2026-11-23", 365, "2027-11-23"},
	}
	for _, c := range cases {
		from := mustDate(t, c.from)
		got := from.AddDays(c.n)
		if got.String() != c.want {
			t.Errorf("%s + %d = %s, want %s", c.from, c.n, got, c.want)
		}
		if DaysBetween(from, got) != c.n {
			t.Errorf("DaysBetween(%s, %s) = %d, want %d", from, got, DaysBetween(from, got), c.n)
		}
	}
	a, b := mustDate(t, "2026-11-01"), mustDate(t, "2026-11-02")
	if !a.Before(b) || !b.After(a) || a.Equal(b) || !a.Equal(mustDate(t, "2026-11-01")) {
		t.Error("ordering is wrong")
	}
	if DaysBetween(mustDate(t, "2028-01-01"), mustDate(t, "2029-01-01")) != 366 {
		t.Error("a leap year has 366 days")
	}
	// Every day for 800 years matches the time package.
	day := mustDate(t, "1800-01-01")
	tm := time.Date(1800, 1, 1, 12, 0, 0, 0, time.UTC)
	for i := 0; i < 800*366; i += 7 {
		if got, want := day.AddDays(i), DateOf(tm.AddDate(0, 0, i)); got != want {
			t.Fatalf("1800-01-01 + %d = %s, want %s", i, got, want)
		}
	}
}

func TestDayInterval(t *testing.T) {
	t.Parallel()
	ny, _ := time.LoadLocation("America/New_York")
	syd, _ := time.LoadLocation("Australia/Sydney")
	kol, _ := time.LoadLocation("Asia/Kolkata")
	cases := []struct {
		day   string
		loc   *time.Location
		hours float64
	}{
		{"2026-03-08", ny, 23},
		{"2026-11-01", ny, 25},
		{"2026-11-02", ny, 24},
		{"2026-10-04", syd, 23},
		{"2026-04-05", syd, 25},
		{"2026-11-01", kol, 24},
		{"2028-02-29", time.UTC, 24},
		{"2026-11-01", nil, 24},
	}
	for _, c := range cases {
		start, end := mustDate(t, c.day).In(c.loc)
		if h := end.Sub(start).Hours(); h != c.hours {
			t.Errorf("%s in %v lasts %v h, want %v", c.day, c.loc, h, c.hours)
		}
		if DateOf(start) != mustDate(t, c.day) || DateOf(end.Add(-time.Nanosecond)) != mustDate(t, c.day) {
			t.Errorf("%s in %v: interval %v–%v leaves the day", c.day, c.loc, start, end)
		}
	}
}
