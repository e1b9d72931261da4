package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
	"google.golang.org/protobuf/types/known/timestamppb"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/categories/internal/domain"
	"uplift.dev/platform/events"
	"uplift.dev/platform/schedule"
)

// NoDataCandidates implements app.Repository: categories with the daily
// report on and no store signals (the stores service sends those once a
// store has data), with the newest day published here.
func (r Repo) NoDataCandidates(ctx context.Context) ([]domain.NoDataCandidate, error) {
	rows, err := r.db.Query(ctx, `SELECT c.id, c.time_zone, c.created_at,
			(SELECT max(day) FROM no_data_reports n WHERE n.category_id = c.id)
		FROM categories c
		WHERE NOT c.disable_business_report
		  AND NOT EXISTS (SELECT 1 FROM store_signals s WHERE s.category_id = c.id)
		ORDER BY c.id`)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (domain.NoDataCandidate, error) {
		var c domain.NoDataCandidate
		var last *time.Time
		err := row.Scan(&c.CategoryID, &c.TimeZone, &c.CreatedAt, &last)
		if last != nil {
			c.LastDay = schedule.DateOf(last.UTC())
		}
		return c, err
	})
}

// PublishNoDataReport implements app.Repository.
func (r Repo) PublishNoDataReport(ctx context.Context, rep domain.NoDataReport) (bool, error) {
	published := false
	err := pgx.BeginFunc(ctx, r.db, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `INSERT INTO no_data_reports (category_id, day) VALUES ($1, $2::date) ON CONFLICT DO NOTHING`,
			rep.Category.ID, rep.Day)
		if err != nil || tag.RowsAffected() == 0 {
			return err
		}
		published = true
		return events.Enqueue(ctx, tx, events.SubjectDailyReportReady, toProtoNoData(rep, r.now.Now()))
	})
	return published, err
}

func toProtoNoData(r domain.NoDataReport, at time.Time) *eventsv1.DailyReportReady {
	c := r.Category
	w := &eventsv1.DailyReportReady_WithoutData{StoreName: c.Name, OwnerUserId: c.OwnerID, SiteUrl: c.SiteURL,
		WebsiteStatus: string(r.WebsiteStatus), OccasionName: r.OccasionName, OccasionDate: r.OccasionDate}
	if r.Ready != nil {
		s := int32(r.Ready.Score)
		w.WebsiteScore, w.WebsiteBand, w.OpenFindings = &s, string(domain.BandOf(r.Ready.Score)), int32(domain.OpenFindings(r.Ready))
	}
	if i := r.Idea; i != nil {
		w.Idea = &eventsv1.WeeklyReviewReady_Idea{Id: i.ID, Title: i.Title, WhyNow: i.WhyNow, Channel: i.Channel}
	}
	return &eventsv1.DailyReportReady{CategoryId: c.ID, Date: r.Day, Timezone: c.TimeZone, Status: "NO_DATA",
		WithoutData: w, OccurTime: timestamppb.New(at)}
}
