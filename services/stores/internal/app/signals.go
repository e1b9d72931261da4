package app

import (
	"context"
	"errors"
	"fmt"

	"uplift.dev/stores/internal/domain"
)

// signalsBatch bounds how many categories one round publishes signals for.
const signalsBatch = 100

// PublishDueSignals publishes the store signals of every category whose
// orders changed since they were last published. The sync worker calls it
// at the end of every round, so a round that saved orders (a sync, a sweep,
// a webhook, a shop's redaction) is followed by its signals, and an import
// whose own publication failed is caught up.
func (a *App) PublishDueSignals(ctx context.Context) error {
	due, err := a.repo.DueSignals(ctx, "", signalsBatch)
	if err != nil {
		return err
	}
	var errs []error
	for _, d := range due {
		if ctx.Err() != nil {
			break
		}
		if err := a.publishSignals(ctx, d); err != nil {
			errs = append(errs, fmt.Errorf("signals of %s: %w", d.CategoryID, err))
		}
	}
	return errors.Join(errs...)
}

// publishCategorySignals publishes one category's signals if they are due.
func (a *App) publishCategorySignals(ctx context.Context, categoryID string) error {
	due, err := a.repo.DueSignals(ctx, categoryID, 1)
	if err != nil || len(due) == 0 {
		return err
	}
	return a.publishSignals(ctx, due[0])
}

func (a *App) publishSignals(ctx context.Context, due SignalsDue) error {
	at := a.now()
	s, err := a.signals(ctx, due.CategoryID)
	if err != nil {
		return err
	}
	if err := a.repo.PublishSignals(ctx, s, at, due); err != nil {
		return err
	}
	a.log.InfoContext(ctx, "store signals published", "category", due.CategoryID, "asOf", s.AsOf.String(),
		"bestSeller", s.BestSeller != nil, "falling", s.Falling != nil, "unusual", s.UnusualHeadline != "")
	return nil
}

// signals computes what the category's numbers say as of yesterday in the
// store's time zone: the best seller, the falling product and the daily
// report's headline when the day was unusual (domain.ComputeSignals).
func (a *App) signals(ctx context.Context, categoryID string) (domain.Signals, error) {
	st, err := a.repo.Store(ctx, categoryID)
	if err != nil {
		return domain.Signals{}, err
	}
	asOf := domain.SignalsDay(a.now(), StoreLocation(st.Timezone))
	products, err := a.repo.ProductDays(ctx, categoryID, domain.SignalsFrom(asOf), asOf)
	if err != nil {
		return domain.Signals{}, err
	}
	m, err := a.metrics(ctx, categoryID, asOf.AddDays(-7), asOf)
	if err != nil {
		return domain.Signals{}, err
	}
	report := domain.CompareDayFor(m.Platform, m.Days[7], m.Days[:7], st.Currency)
	sig := domain.ComputeSignals(categoryID, st.Currency, asOf, products, report)
	sig.Timezone = st.Timezone
	return sig, nil
}
