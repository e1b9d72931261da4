package app

import (
	"context"
	"errors"
	"fmt"
	"slices"

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

// SendDailyReportNow publishes one store's report of yesterday (store-local)
// at once instead of at its 07:00 slot, for an operator (admins only) and
// for the end-to-end tests, which cannot wait for the morning. It claims
// the same day's row the slot would, so the day's report still goes out
// once: a day already published is domain.ErrAlreadySent, and the slot
// then finds the day done. A store without data is domain.ErrNoReportData
// (no email of empty zeros). It returns the day reported.
func (a *App) SendDailyReportNow(ctx context.Context, who domain.Caller, categoryID string) (domain.Date, error) {
	if !who.Admin {
		return domain.Date{}, domain.ErrPermissionDenied
	}
	if err := validateCategoryID(categoryID); err != nil {
		return domain.Date{}, err
	}
	stores, err := a.repo.ReportStores(ctx)
	if err != nil {
		return domain.Date{}, err
	}
	i := slices.IndexFunc(stores, func(s ReportStore) bool { return s.CategoryID == categoryID })
	if i < 0 {
		return domain.Date{}, domain.ErrNoReportData
	}
	day := domain.DateOf(a.now().In(StoreLocation(stores[i].Timezone))).AddDays(-1)
	r, err := a.dailyReport(ctx, categoryID, day)
	if err != nil {
		return day, err
	}
	if !r.HasData {
		return day, domain.ErrNoReportData
	}
	ok, err := a.repo.PublishDailyReport(ctx, categoryID, r, a.now())
	if err != nil {
		return day, err
	}
	if !ok {
		return day, domain.ErrAlreadySent
	}
	a.log.InfoContext(ctx, "daily report published by an operator", "category", categoryID, "day", day.String(), "actor", who.UID)
	return day, nil
}
