package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"google.golang.org/protobuf/types/known/timestamppb"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/platform/events"
	"uplift.dev/stores/internal/app"
)

// ReportStores implements app.Repository: the stores with an import, a
// Shopify or a WooCommerce connection (of any status: the numbers stay after a disconnect),
// with the newest daily report day sent.
func (r Repo) ReportStores(ctx context.Context) ([]app.ReportStore, error) {
	rows, err := r.Pool.Query(ctx, `
		SELECT s.category_id::text, s.timezone,
		       (SELECT max(day) FROM daily_reports_sent d WHERE d.category_id = s.category_id)
		FROM stores s
		WHERE EXISTS (SELECT 1 FROM imports i WHERE i.category_id = s.category_id)
		   OR EXISTS (SELECT 1 FROM shopify_connections c WHERE c.category_id = s.category_id)
		   OR EXISTS (SELECT 1 FROM woocommerce_connections w WHERE w.category_id = s.category_id)
		ORDER BY s.category_id`)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (app.ReportStore, error) {
		var s app.ReportStore
		var last pgtype.Date
		err := row.Scan(&s.CategoryID, &s.Timezone, &last)
		if last.Valid {
			s.LastSent = fromPgDate(last.Time)
		}
		return s, err
	})
}

// PublishDailyReport implements app.Repository.
func (r Repo) PublishDailyReport(ctx context.Context, categoryID string, rep app.DailyReport, at time.Time) (bool, error) {
	var published bool
	err := r.tx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `INSERT INTO daily_reports_sent (category_id, day, sent_at) VALUES ($1, $2, $3)
			ON CONFLICT DO NOTHING`, categoryID, pgDate(rep.Date), at)
		if err != nil || tag.RowsAffected() == 0 {
			return err
		}
		published = true
		return events.Enqueue(ctx, tx, events.SubjectDailyReportReady, toProtoDailyReport(categoryID, rep, at))
	})
	return published, err
}

// toProtoDailyReport is the event for a category's report, published at.
func toProtoDailyReport(categoryID string, r app.DailyReport, at time.Time) *eventsv1.DailyReportReady {
	ev := &eventsv1.DailyReportReady{CategoryId: categoryID, Date: r.Date.String(), Timezone: r.Timezone,
		Currency: r.Currency, Status: "NO_DATA", OccurTime: timestamppb.New(at)}
	if !r.HasData {
		return ev
	}
	ev.Status = "READY"
	ev.Headline, ev.Notes, ev.BestSeller = r.Headline, r.Notes, r.BestSeller
	ev.Summary, ev.Action = r.Summary, r.Action
	for _, m := range r.Metrics {
		ev.Metrics = append(ev.Metrics, &eventsv1.DailyReportReady_Metric{Key: m.Key, Label: m.Label,
			Value: m.Value, Average: m.Average, ChangePercent: m.ChangePercent, Unusual: m.Unusual, Formula: m.Formula})
	}
	return ev
}
