package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"uplift.dev/categories/internal/domain"
	"uplift.dev/platform/schedule"
)

// PublishDueNoDataReports publishes the daily report of every store that
// has no store data yet and the daily report on, at 07:00 in its time zone
// (domain.NoDataReportSlot, the stores service's rule for stores with
// data). Instead of numbers it carries the website's status, the next
// seasonal date and an idea, so the email is never one of empty zeros.
// Replicas may run it at once; the day's row in no_data_reports, written
// with the outbox row, lets one publish. It returns how many it published.
func (a *App) PublishDueNoDataReports(ctx context.Context) (int, error) {
	cands, err := a.repo.NoDataCandidates(ctx)
	if err != nil {
		return 0, fmt.Errorf("daily reports without data: %w", err)
	}
	var errs []error
	published := 0
	for _, c := range cands {
		if ctx.Err() != nil {
			break
		}
		var last = c.LastDay
		if !last.IsZero() {
			last = last.AddDays(1) // the morning that published it
		}
		loc := domain.Category{TimeZone: c.TimeZone}.Location()
		morning, due := domain.NoDataReportSlot.Due(a.now(), loc, last)
		if !due || morning.AddDays(-1).Before(schedule.DateOf(c.CreatedAt.In(loc))) {
			continue
		}
		r, err := a.noDataReport(ctx, c.CategoryID, morning.AddDays(-1).String())
		if err != nil {
			errs = append(errs, fmt.Errorf("daily report without data of %s: %w", c.CategoryID, err))
			continue
		}
		ok, err := a.repo.PublishNoDataReport(ctx, r)
		if err != nil {
			errs = append(errs, fmt.Errorf("daily report without data of %s: %w", c.CategoryID, err))
			continue
		}
		if ok {
			published++
			a.log.InfoContext(ctx, "daily report without data published", "category", c.CategoryID, "day", r.Day)
		}
	}
	return published, errors.Join(errs...)
}

// noDataReport gathers what a store without data can be told.
func (a *App) noDataReport(ctx context.Context, categoryID, day string) (domain.NoDataReport, error) {
	cat, err := a.repo.Get(ctx, categoryID)
	if err != nil {
		return domain.NoDataReport{}, err
	}
	r := domain.NoDataReport{Category: cat, Day: day, WebsiteStatus: domain.StatusNoWebsite}
	if cat.SiteURL != "" {
		latest, err := a.repo.LatestReport(ctx, cat.ID)
		if err != nil {
			return r, err
		}
		r.WebsiteStatus = domain.StatusGenerating
		if latest != nil {
			r.WebsiteStatus = latest.Status
		}
		ready, err := a.repo.LatestReadyReport(ctx, cat.ID)
		if err != nil {
			return r, err
		}
		if ready != nil && ready.SiteURL == cat.SiteURL {
			r.Ready = ready.Review
		}
	}
	if a.calendar != nil {
		// The store's calendar day decides what is still to come.
		name, date, ok, err := a.calendar.NextOccasion(ctx, a.now().In(cat.Location()), cat.SiteURL)
		if err != nil {
			return r, err
		}
		if ok {
			r.OccasionName, r.OccasionDate = name, date.Format(time.DateOnly)
		}
	}
	ideas, err := a.repo.RecentIdeas(ctx, cat.ID, 1)
	if err != nil {
		return r, err
	}
	if len(ideas) > 0 {
		r.Idea = &ideas[0]
	}
	return r, nil
}
