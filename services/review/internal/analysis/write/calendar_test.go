package write

import (
	"testing"
	"time"
)

func TestCalendarDates(t *testing.T) {
	find := func(y int, market, name string) string {
		for _, o := range occasions(y, market) {
			if o.Name == name {
				return o.Date.Format(time.DateOnly)
			}
		}
		return ""
	}
	for _, tt := range []struct {
		year               int
		market, name, want string
	}{
		{2026, "US", "Easter", "2026-04-05"},
		{2025, "US", "Easter", "2025-04-20"},
		{2026, "US", "Mother's Day", "2026-05-10"},
		{2026, "GB", "Mother's Day", "2026-03-15"},
		{2026, "US", "Father's Day", "2026-06-21"},
		{2026, "AU", "Father's Day", "2026-09-06"},
		{2026, "US", "Black Friday", "2026-11-27"},
		{2026, "US", "Cyber Monday", "2026-11-30"},
		{2025, "US", "Black Friday", "2025-11-28"},
		{2026, "FR", "Mother's Day", "2026-05-31"},
	} {
		if got := find(tt.year, tt.market, tt.name); got != tt.want {
			t.Errorf("%s %d %s = %s, want %s", tt.market, tt.year, tt.name, got, tt.want)
		}
	}
	up := upcoming(time.Date(2026, 11, 10, 0, 0, 0, 0, time.UTC), "US")
	var names []string
	for _, o := range up {
		names = append(names, o.Name)
	}
	want := []string{"Black Friday", "Cyber Monday", "Christmas", "New Year"}
	if len(names) != len(want) {
		t.Fatalf("upcoming from 10 Nov = %v, want %v", names, want)
	}
	for i := range want {
		if names[i] != want[i] {
			t.Fatalf("upcoming from 10 Nov = %v, want %v", names, want)
		}
	}
	if up := upcoming(time.Date(2026, 6, 22, 0, 0, 0, 0, time.UTC), "GB"); len(up) != 1 || up[0].Name != "Back to school" {
		t.Errorf("quiet summer should still give the next occasion, got %+v", up)
	}
}
