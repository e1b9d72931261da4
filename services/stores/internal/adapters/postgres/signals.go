package postgres

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/jackc/pgx/v5"
	"google.golang.org/protobuf/types/known/timestamppb"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/platform/events"
	"uplift.dev/stores/internal/app"
	"uplift.dev/stores/internal/domain"
)

// markSignalsDue records in tx that the category's orders changed, so its
// store signals are published again (see migration 0002).
func markSignalsDue(ctx context.Context, tx pgx.Tx, categoryID string) error {
	if _, err := tx.Exec(ctx, `
		INSERT INTO signals_due (category_id) VALUES ($1)
		ON CONFLICT (category_id) DO UPDATE SET version = signals_due.version + 1, marked_at = now()`, categoryID); err != nil {
		return fmt.Errorf("signals due: %w", err)
	}
	return nil
}

// ProductDays implements app.Repository: domain.ProductDays, counted by
// the database from the stored sales (test orders have none).
func (r Repo) ProductDays(ctx context.Context, categoryID string, from, to domain.Date) ([]domain.ProductDay, error) {
	rows, err := r.Pool.Query(ctx, `
		SELECT local_day, product_key, (array_agg(product_title ORDER BY happened_at DESC))[1],
		       sum(quantity)::bigint, sum(gross - discounts - returns)::bigint
		FROM sales
		WHERE category_id = $1 AND local_day BETWEEN $2 AND $3 AND line = 'PRODUCT' AND product_key <> ''
		GROUP BY local_day, product_key
		ORDER BY local_day, product_key`, categoryID, pgDate(from), pgDate(to))
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (domain.ProductDay, error) {
		var p domain.ProductDay
		var day time.Time
		var net int64
		err := row.Scan(&day, &p.Key, &p.Title, &p.Quantity, &net)
		p.Date, p.NetSales = fromPgDate(day), domain.Money(net)
		return p, err
	})
}

// DueSignals implements app.Repository.
func (r Repo) DueSignals(ctx context.Context, categoryID string, limit int) ([]app.SignalsDue, error) {
	rows, err := r.Pool.Query(ctx, `
		SELECT category_id::text, version FROM signals_due
		WHERE $1 = '' OR category_id::text = $1
		ORDER BY marked_at LIMIT $2`, categoryID, limit)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (app.SignalsDue, error) {
		var d app.SignalsDue
		err := row.Scan(&d.CategoryID, &d.Version)
		return d, err
	})
}

// PublishSignals implements app.Repository.
func (r Repo) PublishSignals(ctx context.Context, s domain.Signals, at time.Time, due app.SignalsDue) error {
	return r.tx(ctx, func(tx pgx.Tx) error {
		if err := events.Enqueue(ctx, tx, events.SubjectStoreSignalsUpdated, toProtoSignals(s, at)); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `DELETE FROM signals_due WHERE category_id = $1 AND version = $2`, due.CategoryID, due.Version)
		return err
	})
}

// toProtoSignals is the event for s, computed at.
func toProtoSignals(s domain.Signals, at time.Time) *eventsv1.StoreSignalsUpdated {
	ev := &eventsv1.StoreSignalsUpdated{
		CategoryId: s.CategoryID, Currency: s.Currency, CurrencyDecimals: int32(domain.MinorUnits(s.Currency)),
		AsOf: s.AsOf.String(), UnusualHeadline: s.UnusualHeadline, OccurTime: timestamppb.New(at), Timezone: s.Timezone,
	}
	if b := s.BestSeller; b != nil {
		ev.BestSeller = &eventsv1.StoreSignalsUpdated_BestSeller{Title: b.Title, NetSalesMinor: int64(b.NetSales), Quantity: b.Quantity}
	}
	if f := s.Falling; f != nil {
		ev.FallingProduct = &eventsv1.StoreSignalsUpdated_FallingProduct{Title: f.Title,
			NetSalesBeforeMinor: int64(f.Before), NetSalesAfterMinor: int64(f.After),
			FallPercent: int32(min(f.Percent, math.MaxInt32))}
	}
	return ev
}
