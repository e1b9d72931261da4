package app

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"uplift.dev/categories/internal/domain"
	"uplift.dev/platform/schedule"
)

func (m *memRepo) ClaimReview(_ context.Context, reportID string, _ time.Time) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.claims[reportID] {
		return false, nil
	}
	m.claims[reportID] = true
	return true, nil
}

func (m *memRepo) WeeklyReviewCandidates(context.Context) ([]domain.WeeklyReviewCandidate, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []domain.WeeklyReviewCandidate
	for id, c := range m.cats {
		if c.SiteURL == "" || c.DisableWeeklyEmail {
			continue
		}
		cand := domain.WeeklyReviewCandidate{CategoryID: id, TimeZone: c.TimeZone}
		if ws := m.weekly[id]; len(ws) > 0 {
			cand.LastWeek, _ = schedule.ParseDate(slices.Max(ws))
		}
		out = append(out, cand)
	}
	return out, nil
}

func (m *memRepo) StartWeeklyReview(ctx context.Context, categoryID, week string, newReport func(domain.Category) *domain.Report) (bool, error) {
	m.mu.Lock()
	if slices.Contains(m.weekly[categoryID], week) {
		m.mu.Unlock()
		return false, nil
	}
	m.weekly[categoryID] = append(m.weekly[categoryID], week)
	m.mu.Unlock()
	_, err := m.Update(ctx, categoryID, func(c *domain.Category) (domain.Effects, error) {
		return domain.Effects{NewReport: newReport(*c)}, nil
	})
	return err == nil, err
}

func at(t *testing.T, s string) func() time.Time {
	t.Helper()
	now, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return func() time.Time { return now }
}

// TestWeeklyReviewIsANewReviewComparedWithLastWeek: on Monday morning in
// the store's zone the weekly review starts a new report (not the stored
// one); its result says what is new, fixed and still open against last
// week's, with the biggest fixes first and one idea for the week.
func TestWeeklyReviewIsANewReviewComparedWithLastWeek(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	last := analysisOf(52)
	last.Review.Findings = []domain.Finding{
		{ID: "alt", Title: "Images without alt text", Fix: "Add alt text", PointsLost: 6, State: domain.StateNew},
		{ID: "meta", Title: "No meta description", Fix: "Write one", PointsLost: 4, State: domain.StateNew},
	}
	f.analyzer.sites[shop] = last
	if _, err := f.app.UpdateContentParams(ctx, f.owner, f.catID, ContentParams{SiteURL: ptr(shop), TimeZone: ptr("America/New_York")}); err != nil {
		t.Fatal(err)
	}
	first := f.repo.reports[len(f.repo.reports)-1]
	if err := f.app.RunReview(ctx, ReviewRequest{CategoryID: f.catID, ReportID: first.ID, SiteURL: shop}); err != nil {
		t.Fatal(err)
	}
	if len(f.repo.weeklyReady) != 0 {
		t.Fatal("a review the owner started published a weekly email")
	}

	// Monday 07:59 in New York: not yet. 08:00: due, once.
	early := f.app.WithClock(at(t, "2026-11-16T12:59:00Z"))
	if n, err := early.StartDueWeeklyReviews(ctx); err != nil || n != 0 {
		t.Fatalf("before 08:00 local: started %d, %v", n, err)
	}
	monday := f.app.WithClock(at(t, "2026-11-16T13:00:00Z"))
	for i := range 2 {
		n, err := monday.StartDueWeeklyReviews(ctx)
		if err != nil || n != 1-i {
			t.Fatalf("round %d: started %d, %v", i, n, err)
		}
	}
	weekly := f.repo.reports[len(f.repo.reports)-1]
	if weekly.ID == first.ID || weekly.Week != "2026-11-16" || weekly.Status != domain.StatusGenerating {
		t.Fatalf("weekly report = %+v", weekly)
	}

	this := analysisOf(61)
	this.Review.Findings = []domain.Finding{
		{ID: "alt", Title: "Images without alt text", Fix: "Add alt text", PointsLost: 6, State: domain.StateOpen},
		{ID: "meta", Title: "No meta description", State: domain.StateFixed},
		{ID: "speed", Title: "Slow hero image", Fix: "Compress it", PointsLost: 9, State: domain.StateNew},
		{ID: "h1", Title: "No heading", Fix: "Add an h1", PointsLost: 2, State: domain.StateNew},
		{ID: "ssl", Title: "Mixed content", Fix: "Load over https", PointsLost: 3, State: domain.StateOpen},
	}
	f.analyzer.sites[shop] = this
	if err := f.app.RunReview(ctx, ReviewRequest{CategoryID: f.catID, ReportID: weekly.ID, SiteURL: shop}); err != nil {
		t.Fatal(err)
	}
	if len(f.repo.weeklyReady) != 1 {
		t.Fatalf("weekly emails published: %d", len(f.repo.weeklyReady))
	}
	w := f.repo.weeklyReady[0]
	titles := func(fs []domain.Finding) []string {
		var out []string
		for _, f := range fs {
			out = append(out, f.Title)
		}
		return out
	}
	if w.Week != "2026-11-16" || w.Score != 61 || w.Band != domain.BandMedium || w.PreviousScore == nil || *w.PreviousScore != 52 {
		t.Errorf("weekly = week %s score %d band %s previous %v", w.Week, w.Score, w.Band, w.PreviousScore)
	}
	if got := titles(w.Fixed); !slices.Equal(got, []string{"No meta description"}) {
		t.Errorf("fixed = %v", got)
	}
	if got := titles(w.New); !slices.Equal(got, []string{"Slow hero image", "No heading"}) {
		t.Errorf("new = %v", got)
	}
	if got := titles(w.Tops); !slices.Equal(got, []string{"Slow hero image", "Images without alt text", "Mixed content"}) {
		t.Errorf("top fixes = %v", got)
	}
	if w.Idea == nil || w.Idea.Title != "Mug of the month" {
		t.Errorf("idea = %+v", w.Idea)
	}
	// A second delivery of the request finds the report claimed or done.
	err := f.app.RunReview(ctx, ReviewRequest{CategoryID: f.catID, ReportID: weekly.ID, SiteURL: shop})
	if err != nil && !errors.Is(err, ErrReviewHeld) {
		t.Fatal(err)
	}
	if len(f.repo.weeklyReady) != 1 {
		t.Fatal("a redelivered request published the weekly email again")
	}
}

// TestWeeklyReviewFollowsTheSwitchAndTheZone: no website or the weekly
// email off means no weekly review; a store with no zone yet uses UTC.
func TestWeeklyReviewFollowsTheSwitchAndTheZone(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	monday := f.app.WithClock(at(t, "2026-11-16T08:00:00Z"))
	if n, _ := monday.StartDueWeeklyReviews(ctx); n != 0 {
		t.Fatal("weekly review without a website")
	}
	if _, err := f.app.UpdateContentParams(ctx, f.owner, f.catID, ContentParams{SiteURL: ptr(shop), DisableWeeklyEmail: ptr(true)}); err != nil {
		t.Fatal(err)
	}
	if n, _ := monday.StartDueWeeklyReviews(ctx); n != 0 {
		t.Fatal("weekly review with the weekly email off")
	}
	if _, err := f.app.UpdateContentParams(ctx, f.owner, f.catID, ContentParams{DisableWeeklyEmail: ptr(false), SiteURL: ptr(shop)}); err != nil {
		t.Fatal(err)
	}
	if n, _ := f.app.WithClock(at(t, "2026-11-16T07:59:00Z")).StartDueWeeklyReviews(ctx); n != 0 {
		t.Fatal("weekly review before 08:00 UTC for a store without a zone")
	}
	if n, _ := monday.StartDueWeeklyReviews(ctx); n != 1 {
		t.Fatal("no weekly review at 08:00 UTC for a store without a zone")
	}
}

func TestTimeZoneIsCheckedAndKept(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	for _, bad := range []string{"Mars/Olympus", "Local", "../../etc/passwd", "Europe/Paris ", ""} {
		_, err := f.app.UpdateContentParams(ctx, f.owner, f.catID, ContentParams{TimeZone: ptr(bad)})
		var ve *domain.ValidationError
		if !errors.As(err, &ve) || ve.Field != "timeZone" {
			t.Errorf("time zone %q: err = %v, want a timeZone validation error", bad, err)
		}
	}
	c, err := f.app.UpdateContentParams(ctx, f.owner, f.catID, ContentParams{TimeZone: ptr("Asia/Kolkata")})
	if err != nil || c.TimeZone != "Asia/Kolkata" {
		t.Fatalf("saved zone %q, %v", c.TimeZone, err)
	}
	if eff := f.repo.effects[len(f.repo.effects)-1]; !eff.Announce {
		t.Error("a changed time zone was not announced (CategoryUpdated)")
	}
	// Sign-up's zone fills only a category that has none.
	if c, err := f.app.CreateCategory(ctx, f.owner, "mugs@example.com", "", "Europe/Paris"); err != nil || c.TimeZone != "Asia/Kolkata" {
		t.Errorf("CreateCategory replaced the zone: %q, %v", c.TimeZone, err)
	}
	if _, err := f.app.CreateCategory(ctx, f.owner, "mugs@example.com", "", "Nowhere/Else"); err == nil {
		t.Error("CreateCategory took a zone that does not exist")
	}
}
