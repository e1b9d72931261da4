package app

import (
	"testing"

	"uplift.dev/stores/internal/domain"
)

func TestFutureDaysHadNoSessions(t *testing.T) {
	n := func(v int64) *int64 { return &v }
	today, _ := domain.ParseDate("2026-11-24")
	day := func(d int, sessions *int64) domain.DayTotals {
		return domain.DayTotals{Date: today.AddDays(d - 24), Sessions: sessions, CompletedSessions: sessions}
	}

	days := []domain.DayTotals{day(22, nil), day(23, n(40)), day(24, n(12)), day(25, nil), day(26, nil)}
	futureDaysHadNoSessions(days, today)
	if days[0].Sessions != nil {
		t.Error("a past day Shopify did not report must stay not available")
	}
	for _, d := range days[3:] {
		if d.Sessions == nil || *d.Sessions != 0 || d.CompletedSessions == nil || *d.CompletedSessions != 0 {
			t.Errorf("%s (after today) = %v, want zero sessions", d.Date, d.Sessions)
		}
	}
	if *days[1].Sessions != 40 {
		t.Error("a reported day changed")
	}

	none := []domain.DayTotals{day(24, nil), day(25, nil)}
	futureDaysHadNoSessions(none, today)
	if none[1].Sessions != nil {
		t.Error("a store without sessions got them for a future day")
	}
}
