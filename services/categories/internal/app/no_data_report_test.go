package app

import (
	"context"
	"slices"
	"testing"
	"time"

	"uplift.dev/categories/internal/domain"
	"uplift.dev/platform/schedule"
)

func (m *memRepo) NoDataCandidates(context.Context) ([]domain.NoDataCandidate, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []domain.NoDataCandidate
	for id, c := range m.cats {
		if _, has := m.signals[id]; has || c.DisableBusinessReport {
			continue
		}
		cand := domain.NoDataCandidate{CategoryID: id, TimeZone: c.TimeZone, CreatedAt: c.CreatedAt}
		for _, r := range m.noData {
			if r.Category.ID == id {
				d, _ := schedule.ParseDate(r.Day)
				if cand.LastDay.Before(d) {
					cand.LastDay = d
				}
			}
		}
		out = append(out, cand)
	}
	return out, nil
}

func (m *memRepo) PublishNoDataReport(_ context.Context, r domain.NoDataReport) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if slices.ContainsFunc(m.noData, func(x domain.NoDataReport) bool { return x.Category.ID == r.Category.ID && x.Day == r.Day }) {
		return false, nil
	}
	m.noData = append(m.noData, r)
	return true, nil
}

type fixedCalendar struct{}

func (fixedCalendar) NextOccasion(context.Context, time.Time, string) (string, time.Time, bool, error) {
	return "Black Friday", time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC), true, nil
}

// TestDailyReportWithoutData: a store with no data gets its daily report
// at 07:00 in its zone, once a day, carrying the website's last score, the
// next seasonal date and an idea; a store with data (signals) or with the
// report switched off gets none from here.
func TestDailyReportWithoutData(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	if _, err := f.app.UpdateContentParams(ctx, f.owner, f.catID, ContentParams{SiteURL: ptr(shop), TimeZone: ptr("Europe/Paris")}); err != nil {
		t.Fatal(err)
	}
	rep := f.repo.reports[len(f.repo.reports)-1]
	if err := f.app.RunReview(ctx, ReviewRequest{CategoryID: f.catID, ReportID: rep.ID, SiteURL: shop}); err != nil {
		t.Fatal(err)
	}
	a := f.app.WithCalendar(fixedCalendar{})
	// Signed up on Tuesday 24 November, Paris time: the first report is
	// Wednesday morning's, of Tuesday; none of Monday on Tuesday morning.
	c := f.repo.cats[f.catID]
	c.CreatedAt = time.Date(2026, 11, 24, 0, 30, 0, 0, time.UTC)
	f.repo.cats[f.catID] = c
	if n, _ := a.WithClock(at(t, "2026-11-24T06:00:00Z")).PublishDueNoDataReports(ctx); n != 0 {
		t.Fatal("a report of the day before sign-up")
	}
	// 06:59 and 07:00 in Paris (UTC+1 in November).
	if n, err := a.WithClock(at(t, "2026-11-25T05:59:00Z")).PublishDueNoDataReports(ctx); err != nil || n != 0 {
		t.Fatalf("before 07:00: %d, %v", n, err)
	}
	for i, now := range []string{"2026-11-25T06:00:00Z", "2026-11-25T20:00:00Z"} {
		n, err := a.WithClock(at(t, now)).PublishDueNoDataReports(ctx)
		if err != nil || n != 1-i {
			t.Fatalf("%s: published %d, %v", now, n, err)
		}
	}
	r := f.repo.noData[0]
	if r.Day != "2026-11-24" || r.WebsiteStatus != domain.StatusReady || r.Ready == nil || r.Ready.Score != 64 ||
		r.OccasionName != "Black Friday" || r.OccasionDate != "2026-11-27" || r.Idea == nil || r.Idea.Title == "" {
		t.Fatalf("report without data = %+v", r)
	}
	// Data arrives (store signals): no report from here the next day.
	f.repo.signals[f.catID] = domain.StoreSignals{CategoryID: f.catID}
	if n, _ := a.WithClock(at(t, "2026-11-26T06:00:00Z")).PublishDueNoDataReports(ctx); n != 0 {
		t.Fatal("a store with data got a report without data")
	}
	delete(f.repo.signals, f.catID)
	if _, err := f.app.UpdateEmailPreferences(ctx, f.owner, f.catID, ptr(true)); err != nil {
		t.Fatal(err)
	}
	if n, _ := a.WithClock(at(t, "2026-11-26T06:00:00Z")).PublishDueNoDataReports(ctx); n != 0 {
		t.Fatal("the daily report went out switched off")
	}
}
