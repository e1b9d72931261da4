package schedule

import (
	"testing"
	"time"
)

// TestZoneRemembersWhatItRead: a name read twice gives the same zone as
// reading it afresh (daylight saving included), the second time without
// the zone database; names that are not zones are never kept.
func TestZoneRemembersWhatItRead(t *testing.T) {
	t.Parallel()
	summer := time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)
	winter := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name         string
		fixed        bool
		summer, wint int // offsets in seconds
	}{
		{"Europe/Paris", false, 2 * 3600, 3600},
		{"America/New_York", false, -4 * 3600, -5 * 3600},
		{"-05:00", true, -5 * 3600, -5 * 3600},
		{"+05:30", true, 5*3600 + 1800, 5*3600 + 1800},
	} {
		first, fixed, ok := Zone(c.name)
		again, fixed2, ok2 := Zone(c.name)
		if !ok || !ok2 || fixed != c.fixed || fixed2 != c.fixed {
			t.Fatalf("Zone(%q) = %v, %v, %v then %v, %v, %v", c.name, first, fixed, ok, again, fixed2, ok2)
		}
		if again != first {
			t.Errorf("Zone(%q) read the zone again instead of remembering it", c.name)
		}
		fresh, _, _ := loadZone(c.name)
		for _, at := range []time.Time{summer, winter} {
			_, got := at.In(again).Zone()
			_, want := at.In(fresh).Zone()
			if got != want {
				t.Errorf("Zone(%q) at %s: offset %d, read afresh %d", c.name, at, got, want)
			}
		}
		if _, off := summer.In(again).Zone(); off != c.summer {
			t.Errorf("Zone(%q) in July: offset %d, want %d", c.name, off, c.summer)
		}
		if _, off := winter.In(again).Zone(); off != c.wint {
			t.Errorf("Zone(%q) in January: offset %d, want %d", c.name, off, c.wint)
		}
		if again.String() != c.name {
			t.Errorf("Zone(%q) is named %q", c.name, again.String())
		}
	}
	for _, name := range []string{"", "Local", "Mars/Olympus", "-25:00", "junk"} {
		if _, _, ok := Zone(name); ok {
			t.Errorf("Zone(%q) is ok", name)
		}
		if _, kept := zones.Load(name); kept {
			t.Errorf("Zone kept %q, which is not a zone", name)
		}
	}
}
