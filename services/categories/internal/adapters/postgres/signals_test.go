package postgres_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"uplift.dev/categories/internal/domain"
)

func TestStoreSignalsAreReplacedWithTheirIdeasInOneChange(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newStore(t)
	id := s.ensure(t, "u", "Fern")
	first := domain.StoreSignals{CategoryID: id, Currency: "JPY", CurrencyDecimals: 0, AsOf: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC),
		OccurTime: t0, BestSeller: &domain.StoreBestSeller{Title: "Mug", NetSales: 12000, Quantity: 4},
		Falling:         &domain.StoreFallingProduct{Title: "Tea", Before: 9000, After: 3000, Percent: 66},
		UnusualHeadline: "Sales doubled", TimeZone: "-05:00"}
	change := func(fn func(domain.Category, *domain.StoreSignals, []domain.Idea) (domain.StoreChange, error)) error {
		return s.repo.UpdateStoreSignals(ctx, id, fn)
	}
	if err := change(func(c domain.Category, cur *domain.StoreSignals, ideas []domain.Idea) (domain.StoreChange, error) {
		if c.ID != id || cur != nil || len(ideas) != 0 {
			t.Errorf("first change sees %+v %+v %+v", c, cur, ideas)
		}
		return domain.StoreChange{Signals: &first, AddIdeas: []domain.Idea{
			{Topic: "best-seller:Mug", Title: "Feature the Mug", Products: []string{"Mug"}},
			{Topic: "falling:Tea", Title: "Bring Tea back"},
		}}, nil
	}); err != nil {
		t.Fatal(err)
	}
	got, err := s.repo.StoreSignals(ctx, id)
	if err != nil || got == nil {
		t.Fatalf("signals %+v %v", got, err)
	}
	if got.Currency != "JPY" || got.CurrencyDecimals != 0 || !got.AsOf.Equal(first.AsOf) || got.AsOf.Location() != time.UTC ||
		!got.OccurTime.Equal(t0) || got.BestSeller == nil || *got.BestSeller != *first.BestSeller ||
		got.Falling == nil || *got.Falling != *first.Falling || got.UnusualHeadline != "Sales doubled" || got.TimeZone != "-05:00" {
		t.Fatalf("signals %+v (best %+v, falling %+v)", got, got.BestSeller, got.Falling)
	}
	var mug string
	if err := change(func(_ domain.Category, cur *domain.StoreSignals, ideas []domain.Idea) (domain.StoreChange, error) {
		if cur == nil || cur.BestSeller == nil || len(ideas) != 2 || ideas[0].Title != "Feature the Mug" || !ideas[0].CreatedAt.Equal(t0) {
			t.Errorf("second change sees %+v %+v", cur, ideas)
		}
		if len(ideas) > 1 {
			mug = ideas[0].ID
			// Nothing sold, nothing fell: both NULL again.
			return domain.StoreChange{Signals: &domain.StoreSignals{CategoryID: id, Currency: "JPY", AsOf: first.AsOf.AddDate(0, 0, 1), OccurTime: t0.Add(time.Hour)},
				RetireIdeas: []string{ideas[1].ID}}, nil
		}
		return domain.StoreChange{}, nil
	}); err != nil {
		t.Fatal(err)
	}
	got, err = s.repo.StoreSignals(ctx, id)
	if err != nil || got.BestSeller != nil || got.Falling != nil || got.UnusualHeadline != "" || !got.AsOf.Equal(first.AsOf.AddDate(0, 0, 1)) {
		t.Fatalf("replaced signals %+v %v", got, err)
	}
	ideas, err := s.repo.RecentIdeas(ctx, id, 10)
	if err != nil || len(ideas) != 1 || ideas[0].ID != mug {
		t.Fatalf("ideas %+v %v, want the Mug's only, under its id", ideas, err)
	}

	// An idea without a topic is refused, and nothing of its change stays.
	if err := change(func(domain.Category, *domain.StoreSignals, []domain.Idea) (domain.StoreChange, error) {
		return domain.StoreChange{Signals: &first, RetireIdeas: []string{mug}, AddIdeas: []domain.Idea{{Title: "No topic"}}}, nil
	}); err == nil {
		t.Fatal("a store idea without a topic was stored")
	}
	if got, _ := s.repo.StoreSignals(ctx, id); got.BestSeller != nil {
		t.Fatal("a refused change replaced the signals")
	}
	if ideas, _ := s.repo.RecentIdeas(ctx, id, 10); len(ideas) != 1 || ideas[0].ID != mug {
		t.Fatalf("a refused change retired ideas: %+v", ideas)
	}
	// A change fn refuses, or with no signals, writes nothing.
	refused := errors.New("refused")
	if err := change(func(domain.Category, *domain.StoreSignals, []domain.Idea) (domain.StoreChange, error) {
		return domain.StoreChange{Signals: &first}, refused
	}); !errors.Is(err, refused) {
		t.Fatalf("refused: %v", err)
	}
	if err := change(func(domain.Category, *domain.StoreSignals, []domain.Idea) (domain.StoreChange, error) {
		return domain.StoreChange{AddIdeas: []domain.Idea{{Topic: "x", Title: "x"}}}, nil
	}); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.repo.StoreSignals(ctx, id); got.BestSeller != nil {
		t.Fatal("a refused change replaced the signals")
	}
	if n := s.count(t, `SELECT count(*) FROM ideas WHERE category_id = $1`, id); n != 2 {
		t.Fatalf("%d ideas, want the two first ones", n)
	}
	if n := s.count(t, `SELECT count(*) FROM outbox WHERE subject <> 'uplift.categories.updated'`); n != 0 {
		t.Fatalf("%d events for store signals, want none", n)
	}
}
