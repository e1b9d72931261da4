package app

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"uplift.dev/categories/internal/domain"
)

// storeNow is when the store signals below are read: the day after as-of.
var storeNow = time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)

func storeSignals(cat string) domain.StoreSignals {
	return domain.StoreSignals{
		CategoryID: cat, Currency: "USD", CurrencyDecimals: 2,
		AsOf: time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC), OccurTime: storeNow.Add(-time.Hour),
		BestSeller:      &domain.StoreBestSeller{Title: "Trail Mug", NetSales: 9000, Quantity: 6},
		Falling:         &domain.StoreFallingProduct{Title: "Camp Stove", Before: 53400, After: 0, Percent: 100},
		UnusualHeadline: "Orders fell 45 % against your 7-day average; sessions held steady, so conversion dropped — check checkout.",
	}
}

func texts[T any](xs []T, f func(T) string) []string {
	out := make([]string, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

func insightTexts(in []domain.Insight) []string {
	return texts(in, func(i domain.Insight) string { return i.Text })
}

func ideaTitles(in []domain.Idea) []string {
	return texts(in, func(i domain.Idea) string { return i.Title })
}

func ideaIDs(in []domain.Idea) []string { return texts(in, func(i domain.Idea) string { return i.ID }) }

// reviewed saves the shop's website and runs its review to READY.
func (f fixture) reviewed(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	if _, err := f.app.UpdateContentParams(ctx, f.owner, f.catID, ContentParams{SiteURL: ptr(shop)}); err != nil {
		t.Fatal(err)
	}
	rep := f.repo.effects[len(f.repo.effects)-1].NewReport
	if err := f.app.RunReview(ctx, ReviewRequest{CategoryID: f.catID, ReportID: rep.ID}); err != nil {
		t.Fatal(err)
	}
}

func TestWithoutStoreSignalsInsightsAndIdeasAreTheReviews(t *testing.T) {
	f := newFixture(t)
	a := f.app.WithClock(func() time.Time { return storeNow })
	ctx := context.Background()
	if in, err := a.Insights(ctx, f.owner, f.catID); err != nil || len(in) != 0 {
		t.Fatalf("before anything: %v %v", in, err)
	}
	f.reviewed(t)
	in, err := a.Insights(ctx, f.owner, f.catID)
	if err != nil || !slices.Equal(insightTexts(in), []string{"No meta description"}) {
		t.Fatalf("insights = %v %v", insightTexts(in), err)
	}
	ideas, err := a.RecentIdeas(ctx, f.owner, f.catID)
	if err != nil || !slices.Equal(ideaTitles(ideas), []string{"Mug of the month", "Gift sets", "Winter warmers", "Latte art"}) {
		t.Fatalf("ideas = %v %v", ideaTitles(ideas), err)
	}
}

func TestStoreSignalsComeFirstInInsightsAndIdeas(t *testing.T) {
	f := newFixture(t)
	a := f.app.WithClock(func() time.Time { return storeNow })
	ctx := context.Background()
	f.reviewed(t)
	if err := a.ApplyStoreSignals(ctx, storeSignals(f.catID)); err != nil {
		t.Fatal(err)
	}
	in, err := a.Insights(ctx, f.owner, f.catID)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"Your best seller this week: Trail Mug, $90.00 in net sales.",
		"Sales of Camp Stove fell 100 % over the last two weeks.",
		"Orders fell 45 % against your 7-day average; sessions held steady, so conversion dropped — check checkout.",
		"No meta description",
	}
	if !slices.Equal(insightTexts(in), want) {
		t.Fatalf("insights =\n %q\nwant\n %q", insightTexts(in), want)
	}
	if in[0].Evidence == "" || in[1].Evidence == "" || in[0].ID == in[1].ID {
		t.Errorf("store insights need evidence and ids: %+v", in[:2])
	}

	ideas, err := a.RecentIdeas(ctx, f.owner, f.catID)
	if err != nil {
		t.Fatal(err)
	}
	wantIdeas := []string{"Feature your best seller: Trail Mug", "Bring back Camp Stove",
		"Mug of the month", "Gift sets", "Winter warmers", "Latte art"}
	if !slices.Equal(ideaTitles(ideas), wantIdeas) {
		t.Fatalf("ideas =\n %q\nwant\n %q", ideaTitles(ideas), wantIdeas)
	}
	// A store idea opens by id like any other, for the owner and on behalf.
	for _, who := range []domain.Caller{f.owner, {UID: "staff", Uplifter: true}} {
		got, err := a.Idea(ctx, who, f.catID, ideas[0].ID)
		if err != nil || got.Title != wantIdeas[0] || !slices.Equal(got.Products, []string{"Trail Mug"}) {
			t.Fatalf("idea by id as %v: %+v %v", who, got, err)
		}
	}
	if _, err := a.Insights(ctx, domain.Caller{UID: "someone"}, f.catID); !errors.Is(err, domain.ErrPermissionDenied) {
		t.Fatalf("a stranger read the store's insights: %v", err)
	}

	// A new website review replaces the review's ideas, not the store's.
	if err := a.InvalidateIdeas(ctx, f.owner, f.catID); err != nil {
		t.Fatal(err)
	}
	after, _ := a.RecentIdeas(ctx, f.owner, f.catID)
	if !slices.Equal(ideaTitles(after), wantIdeas[:2]) {
		t.Fatalf("right after invalidating: %q (the store's ideas come back at once)", ideaTitles(after))
	}
	if slices.Contains(ideaIDs(after), ideas[0].ID) || slices.Contains(ideaIDs(after), ideas[1].ID) {
		t.Fatalf("invalidated store ideas kept their ids: %v vs %v", ideaIDs(after), ideaIDs(ideas[:2]))
	}
	if _, err := a.Idea(ctx, f.owner, f.catID, ideas[0].ID); err != nil {
		t.Fatalf("an invalidated store idea no longer opens: %v", err)
	}
	latest, _ := f.repo.LatestReport(ctx, f.catID)
	if err := a.RunReview(ctx, ReviewRequest{CategoryID: f.catID, ReportID: latest.ID}); err != nil {
		t.Fatal(err)
	}
	again, _ := a.RecentIdeas(ctx, f.owner, f.catID)
	if !slices.Equal(ideaTitles(again), wantIdeas) || !slices.Equal(ideaIDs(again)[:2], ideaIDs(after)) {
		t.Fatalf("after the new review: %q", ideaTitles(again))
	}
}

func TestStoreSignalsWithoutAWebsite(t *testing.T) {
	f := newFixture(t)
	a := f.app.WithClock(func() time.Time { return storeNow })
	ctx := context.Background()
	s := storeSignals(f.catID)
	s.Falling, s.UnusualHeadline = nil, ""
	if err := a.ApplyStoreSignals(ctx, s); err != nil {
		t.Fatal(err)
	}
	in, _ := a.Insights(ctx, f.owner, f.catID)
	ideas, _ := a.RecentIdeas(ctx, f.owner, f.catID)
	if !slices.Equal(insightTexts(in), []string{"Your best seller this week: Trail Mug, $90.00 in net sales."}) ||
		!slices.Equal(ideaTitles(ideas), []string{"Feature your best seller: Trail Mug"}) {
		t.Fatalf("insights %q, ideas %q", insightTexts(in), ideaTitles(ideas))
	}
	// Invalidating with no website: the store's idea is issued again, and
	// no review is started.
	n := len(f.repo.reports)
	if err := a.InvalidateIdeas(ctx, f.owner, f.catID); err != nil {
		t.Fatal(err)
	}
	after, _ := a.RecentIdeas(ctx, f.owner, f.catID)
	if len(f.repo.reports) != n || !slices.Equal(ideaTitles(after), ideaTitles(ideas)) || after[0].ID == ideas[0].ID {
		t.Fatalf("after invalidating: %d reports, ideas %+v", len(f.repo.reports), after)
	}
}

func TestStoreSignalsKeepTheNewestAndIdeasFollowTheirTopic(t *testing.T) {
	f := newFixture(t)
	a := f.app.WithClock(func() time.Time { return storeNow })
	ctx := context.Background()
	first := storeSignals(f.catID)
	if err := a.ApplyStoreSignals(ctx, first); err != nil {
		t.Fatal(err)
	}
	ideas, _ := a.RecentIdeas(ctx, f.owner, f.catID)
	stored := func() domain.StoreSignals {
		s, err := f.repo.StoreSignals(ctx, f.catID)
		if err != nil || s == nil {
			t.Fatalf("stored signals: %v %v", s, err)
		}
		return *s
	}

	// The same signals again, or older ones arriving late (an earlier day,
	// or the same day computed earlier), change nothing.
	older := first
	older.AsOf, older.OccurTime = first.AsOf.AddDate(0, 0, -1), first.OccurTime.Add(time.Hour)
	older.BestSeller = &domain.StoreBestSeller{Title: "Old Favourite", NetSales: 1, Quantity: 1}
	earlier := first
	earlier.OccurTime = first.OccurTime.Add(-time.Minute)
	earlier.BestSeller = older.BestSeller
	for _, s := range []domain.StoreSignals{first, older, earlier} {
		if err := a.ApplyStoreSignals(ctx, s); err != nil {
			t.Fatal(err)
		}
		if got := stored(); got.BestSeller.Title != "Trail Mug" {
			t.Fatalf("replaced by %+v", got)
		}
		if now, _ := a.RecentIdeas(ctx, f.owner, f.catID); !slices.Equal(ideaIDs(now), ideaIDs(ideas)) {
			t.Fatalf("ideas changed on a repeat: %q", ideaTitles(now))
		}
	}

	// The next day, the same best seller with new numbers keeps its idea;
	// the stove no longer fell, so its idea is retired (it still opens).
	next := first
	next.AsOf, next.OccurTime = first.AsOf.AddDate(0, 0, 1), first.OccurTime.Add(24*time.Hour)
	next.BestSeller = &domain.StoreBestSeller{Title: "Trail Mug", NetSales: 12000, Quantity: 8}
	next.Falling = nil
	if err := a.ApplyStoreSignals(ctx, next); err != nil {
		t.Fatal(err)
	}
	now, _ := a.RecentIdeas(ctx, f.owner, f.catID)
	if !slices.Equal(ideaIDs(now), ideaIDs(ideas)[:1]) {
		t.Fatalf("ideas after the next day: %q", ideaTitles(now))
	}
	if _, err := a.Idea(ctx, f.owner, f.catID, ideas[1].ID); err != nil {
		t.Fatalf("a retired store idea no longer opens: %v", err)
	}
	if got := stored(); got.BestSeller.NetSales != 12000 || got.Falling != nil || !got.AsOf.Equal(next.AsOf) {
		t.Fatalf("stored %+v", got)
	}

	// A new best seller replaces the old idea.
	later := next
	later.OccurTime = next.OccurTime.Add(time.Minute)
	later.BestSeller = &domain.StoreBestSeller{Title: "Camp Stove", NetSales: 17800, Quantity: 2}
	if err := a.ApplyStoreSignals(ctx, later); err != nil {
		t.Fatal(err)
	}
	now, _ = a.RecentIdeas(ctx, f.owner, f.catID)
	if !slices.Equal(ideaTitles(now), []string{"Feature your best seller: Camp Stove"}) || now[0].ID == ideas[0].ID {
		t.Fatalf("ideas after a new best seller: %+v", now)
	}
}

func TestStaleStoreSignalsSayNothing(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	if err := f.app.ApplyStoreSignals(ctx, storeSignals(f.catID)); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		days int
		n    int
	}{{1, 3}, {2, 3}, {3, 2}, {7, 2}, {8, 0}} {
		a := f.app.WithClock(func() time.Time { return storeNow.AddDate(0, 0, c.days-1) })
		if in, _ := a.Insights(ctx, f.owner, f.catID); len(in) != c.n {
			t.Errorf("%d days after as-of: %d insights, want %d: %q", c.days, len(in), c.n, insightTexts(in))
		}
	}
}

func TestStoreSignalsForNoCategoryAreDropped(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	stranger := uuid.NewString()
	bad := storeSignals("not-an-id")
	for _, s := range []domain.StoreSignals{storeSignals(stranger), bad} {
		if err := f.app.ApplyStoreSignals(ctx, s); err != nil {
			t.Fatalf("%s: %v", s.CategoryID, err)
		}
	}
	if len(f.repo.signals) != 0 {
		t.Fatalf("signals stored for no category: %v", f.repo.signals)
	}

	// Deleting the owner deletes the signals; later ones are dropped.
	if err := f.app.ApplyStoreSignals(ctx, storeSignals(f.catID)); err != nil || len(f.repo.signals) != 1 {
		t.Fatalf("signals not stored: %v", err)
	}
	if err := f.app.DeleteUserData(ctx, UserDeleted{UserID: "owner", CategoryID: f.catID}); err != nil {
		t.Fatal(err)
	}
	late := storeSignals(f.catID)
	late.OccurTime = late.OccurTime.Add(time.Hour)
	if err := f.app.ApplyStoreSignals(ctx, late); err != nil {
		t.Fatal(err)
	}
	if len(f.repo.signals) != 0 || len(f.repo.ideas[f.catID]) != 0 {
		t.Fatalf("a deleted user's signals or ideas remain: %v %v", f.repo.signals, f.repo.ideas[f.catID])
	}
}
