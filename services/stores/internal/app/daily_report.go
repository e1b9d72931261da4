package app

import (
	"context"
	"errors"
	"fmt"

	"uplift.dev/stores/internal/domain"
)

// PublishDueReports publishes DailyReportReady for every store with data
// whose daily report is due (domain.ReportDue: from 07:00 store-local, for
// yesterday, once). The worker runs it on a timer; replicas may run it at
// the same moment, and the day's row in daily_reports_sent, written with
// the outbox row, lets exactly one of them publish. It returns how many
// reports this call published.
func (a *App) PublishDueReports(ctx context.Context) (int, error) {
	stores, err := a.repo.ReportStores(ctx)
	if err != nil {
		return 0, fmt.Errorf("daily reports: %w", err)
	}
	var errs []error
	published := 0
	for _, s := range stores {
		if ctx.Err() != nil {
			break
		}
		day, due := domain.ReportDue(a.now(), StoreLocation(s.Timezone), s.LastSent)
		if !due {
			continue
		}
		r, err := a.dailyReport(ctx, s.CategoryID, day)
		if err != nil {
			errs = append(errs, fmt.Errorf("daily report of %s for %s: %w", s.CategoryID, day, err))
			continue
		}
		ok, err := a.repo.PublishDailyReport(ctx, s.CategoryID, r, a.now())
		if err != nil {
			errs = append(errs, fmt.Errorf("publish daily report of %s for %s: %w", s.CategoryID, day, err))
			continue
		}
		if ok {
			published++
			a.log.InfoContext(ctx, "daily report published", "category", s.CategoryID, "day", day.String(),
				"hasData", r.HasData)
		}
	}
	return published, errors.Join(errs...)
}
