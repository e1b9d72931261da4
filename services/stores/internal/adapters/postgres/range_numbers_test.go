package postgres_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/google/uuid"

	"uplift.dev/stores/internal/app"
	"uplift.dev/stores/internal/domain"
)

// TestRangeNumbersHasEveryDayWithTotalsOrSessions: a range's days are
// every day with totals, sessions or both, once each and in order, the
// sessions on the day they were counted (nil where none were) and nothing
// outside the range.
func TestRangeNumbersHasEveryDayWithTotalsOrSessions(t *testing.T) {
	t.Parallel()
	r := newRepo(t)
	ctx := context.Background()
	cat := uuid.NewString()
	l := link(t, r, cat)
	at := func(d int) time.Time { return time.Date(2026, 3, d, 12, 0, 0, 0, time.UTC) }
	save(t, r, cat,
		order("1", domain.SourceShopify, at(2), sold(at(2), "tea", 1, 500)),
		order("2", domain.SourceShopify, at(4), sold(at(4), "tea", 2, 1000)),
		order("3", domain.SourceShopify, at(9), sold(at(9), "tea", 1, 500)), // outside the range
	)
	if err := r.SaveSessions(ctx, l, []app.DaySessions{
		{Day: domain.DateOf(at(1)), Sessions: 10, Completed: 0}, // before the range
		{Day: domain.DateOf(at(3)), Sessions: 30, Completed: 1}, // sessions only
		{Day: domain.DateOf(at(4)), Sessions: 40, Completed: 2}, // both
		{Day: domain.DateOf(at(6)), Sessions: 60, Completed: 3}, // sessions only, last
	}); err != nil {
		t.Fatal(err)
	}
	n, err := r.RangeNumbers(ctx, cat, day(t, "2026-03-02"), day(t, "2026-03-07"))
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		day                 string
		orders, gross       int64
		sessions, completed int64 // -1: none
	}
	var got []row
	for _, d := range n.Days {
		s, c := int64(-1), int64(-1)
		if d.Sessions != nil {
			s = *d.Sessions
		}
		if d.CompletedSessions != nil {
			c = *d.CompletedSessions
		}
		got = append(got, row{d.Date.String(), d.Orders, int64(d.Gross), s, c})
	}
	want := []row{
		{"2026-03-02", 1, 500, -1, -1},
		{"2026-03-03", 0, 0, 30, 1},
		{"2026-03-04", 1, 1000, 40, 2},
		{"2026-03-06", 0, 0, 60, 3},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("days = %+v\nwant   %+v", got, want)
	}
}
