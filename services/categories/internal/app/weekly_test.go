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

func (m *memRepo) WeeklyReviewCandidates(context.Context) ([]domain.WeeklyReviewCandidate, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []domain.WeeklyReviewCandidate
	for id, c := range m.cats {
		if c.SiteURL == "" || c.DisableWeeklyEmail {
			continue
		}
		cand := domain.WeeklyReviewCandidate{CategoryID: id, TimeZone: c.TimeZone, StoreTimeZone: m.signals[id].TimeZone}
		if ws := m.weekly[id]; len(ws) > 0 {
			cand.LastWeek, _ = schedule.ParseDate(slices.Max(ws))
		}
		for _, r := range m.reports {
			if r.CategoryID == id && (cand.FirstReviewAt.IsZero() || r.CreatedAt.Before(cand.FirstReviewAt)) {
				cand.FirstReviewAt = r.CreatedAt
			}
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
	// The owner's first review has its own email, never a weekly one.
	if len(f.repo.weeklyReady) != 1 || !f.repo.weeklyReady[0].First || f.repo.weeklyReady[0].PreviousScore != nil {
		t.Fatalf("the first review published %+v, want its first-review email", f.repo.weeklyReady)
	}
	f.repo.weeklyReady = nil

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
	// A second delivery of the review's answer finds the report done.
	if err := f.app.FinishReview(ctx, ReviewResult{CategoryID: f.catID, ReportID: weekly.ID, Analysis: f.analyzer.sites[shop]}); err != nil {
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

// TestWeeklyReviewIsTimedInTheShopsZone: the business signed up in Paris,
// but its connected shop keeps New York time, so the review starts at
// 08:00 in New York, once a week, on a clock moved a quarter of an hour at
// a time through both of New York's daylight-saving changes (which fall on
// other weekends than Paris's).
func TestWeeklyReviewIsTimedInTheShopsZone(t *testing.T) {
	ny, _ := time.LoadLocation("America/New_York")
	for _, span := range []struct{ from, to string }{
		// From a Monday 00:00 in New York (last week's window closed, this
		// week's slot not yet come). DST starts Sunday 8 March 2026 in New
		// York (Paris: 29 March) and ends Sunday 1 November (Paris: 25
		// October).
		{"2026-03-02T05:00:00Z", "2026-03-17T00:00:00Z"},
		{"2026-10-26T04:00:00Z", "2026-11-10T00:00:00Z"},
	} {
		f := newFixture(t)
		ctx := context.Background()
		if _, err := f.app.UpdateContentParams(ctx, f.owner, f.catID, ContentParams{SiteURL: ptr(shop), TimeZone: ptr("Europe/Paris")}); err != nil {
			t.Fatal(err)
		}
		f.repo.mu.Lock()
		f.repo.signals[f.catID] = domain.StoreSignals{CategoryID: f.catID, TimeZone: "America/New_York"}
		f.repo.mu.Unlock()
		from, _ := time.Parse(time.RFC3339, span.from)
		to, _ := time.Parse(time.RFC3339, span.to)
		var starts []string
		for now := from; now.Before(to); now = now.Add(15 * time.Minute) {
			n, err := f.app.WithClock(func() time.Time { return now }).StartDueWeeklyReviews(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if n > 0 {
				starts = append(starts, now.In(ny).Format("Mon 2006-01-02 15:04 MST"))
			}
		}
		var want []string
		for d := from.In(ny); d.Before(to); d = d.AddDate(0, 0, 1) {
			if slot := time.Date(d.Year(), d.Month(), d.Day(), 8, 0, 0, 0, ny); d.Weekday() == time.Monday && slot.Before(to) {
				want = append(want, slot.Format("Mon 2006-01-02 15:04 MST"))
			}
		}
		if !slices.Equal(starts, want) {
			t.Errorf("%s to %s: weekly reviews started %v, want %v", span.from, span.to, starts, want)
		}
	}
}

// TestOperatorRunsTheWeeksReviewAheadOfMonday: an admin may start this
// week's review at once (the email follows when it is done); it claims the
// week the Monday slot would, so the slot then sends nothing more and a
// second run is refused. Owners may not, nor may anyone for a business
// without a website or with the weekly email off.
func TestOperatorRunsTheWeeksReviewAheadOfMonday(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	admin := domain.Caller{UID: "ops", Admin: true}
	// Sunday 15 November 2026, 23:30 in Sydney (the shop's zone) is still
	// the week of Monday 9 November there, while it is already Monday 16
	// November 00:30 in Tokyo (the business's zone from sign-up).
	sunday := f.app.WithClock(at(t, "2026-11-15T12:30:00Z"))
	if _, err := sunday.RunWeeklyReviewNow(ctx, admin, f.catID); !errors.Is(err, domain.ErrWeeklyReviewOff) {
		t.Fatalf("without a website: %v", err)
	}
	if _, err := f.app.UpdateContentParams(ctx, f.owner, f.catID, ContentParams{SiteURL: ptr(shop), TimeZone: ptr("Asia/Tokyo")}); err != nil {
		t.Fatal(err)
	}
	f.repo.mu.Lock()
	f.repo.signals[f.catID] = domain.StoreSignals{CategoryID: f.catID, TimeZone: "Australia/Sydney"}
	f.repo.mu.Unlock()
	if _, err := sunday.RunWeeklyReviewNow(ctx, f.owner, f.catID); !errors.Is(err, domain.ErrPermissionDenied) {
		t.Fatalf("an owner ran it: %v", err)
	}
	if _, err := sunday.RunWeeklyReviewNow(ctx, domain.Caller{UID: "ops", Uplifter: true}, f.catID); !errors.Is(err, domain.ErrPermissionDenied) {
		t.Fatalf("an uplifter (not an admin) ran it: %v", err)
	}
	var ve *domain.ValidationError
	if _, err := sunday.RunWeeklyReviewNow(ctx, admin, "not-a-uuid"); !errors.As(err, &ve) {
		t.Fatalf("bad id: %v", err)
	}
	week, err := sunday.RunWeeklyReviewNow(ctx, admin, f.catID)
	if err != nil || week != "2026-11-09" {
		t.Fatalf("week %q, %v; want the Sydney week of 2026-11-09", week, err)
	}
	if last := f.repo.effects[len(f.repo.effects)-1]; last.NewReport == nil || last.NewReport.Week != week {
		t.Fatalf("no new report for the week: %+v", last)
	}
	if _, err := sunday.RunWeeklyReviewNow(ctx, admin, f.catID); !errors.Is(err, domain.ErrAlreadySent) {
		t.Fatalf("second run: %v", err)
	}
	// The slot finds the week done; the next Monday 08:00 in Sydney starts the next.
	if n, _ := sunday.StartDueWeeklyReviews(ctx); n != 0 {
		t.Fatal("the slot started the week again")
	}
	if n, _ := f.app.WithClock(at(t, "2026-11-15T20:59:00Z")).StartDueWeeklyReviews(ctx); n != 0 {
		t.Fatal("started before Monday 08:00 in Sydney")
	}
	if n, _ := f.app.WithClock(at(t, "2026-11-15T21:00:00Z")).StartDueWeeklyReviews(ctx); n != 1 {
		t.Fatal("not started at Monday 08:00 in Sydney")
	}
	off := newFixture(t)
	if _, err := off.app.UpdateContentParams(ctx, off.owner, off.catID, ContentParams{SiteURL: ptr(shop), DisableWeeklyEmail: ptr(true)}); err != nil {
		t.Fatal(err)
	}
	if _, err := off.app.RunWeeklyReviewNow(ctx, admin, off.catID); !errors.Is(err, domain.ErrWeeklyReviewOff) {
		t.Fatalf("weekly email off: %v", err)
	}
}

// TestOperatorRunOnTheRealClock: with the real clock the week claimed is
// the current one in the shop's zone: a Monday, at most six days ago.
func TestOperatorRunOnTheRealClock(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	if _, err := f.app.UpdateContentParams(ctx, f.owner, f.catID, ContentParams{SiteURL: ptr(shop)}); err != nil {
		t.Fatal(err)
	}
	f.repo.mu.Lock()
	f.repo.signals[f.catID] = domain.StoreSignals{CategoryID: f.catID, TimeZone: "Pacific/Kiritimati"}
	f.repo.mu.Unlock()
	before := time.Now()
	week, err := f.app.RunWeeklyReviewNow(ctx, domain.Caller{UID: "ops", Admin: true}, f.catID)
	if err != nil {
		t.Fatal(err)
	}
	kiritimati, _ := time.LoadLocation("Pacific/Kiritimati")
	monday, err := time.ParseInLocation(time.DateOnly, week, kiritimati)
	if err != nil || monday.Weekday() != time.Monday {
		t.Fatalf("week %q is not a Monday (%v)", week, err)
	}
	if age := before.Sub(monday); age < 0 || age >= 7*24*time.Hour {
		t.Fatalf("week %s is not the current one in Kiritimati (now %s)", week, before.In(kiritimati))
	}
}

// reviewedAt saves the fixture's website at t (the first review asked for
// then) and finishes that review, as the owner's sign-up does.
func reviewedAt(t *testing.T, f fixture, zone string, at time.Time) {
	t.Helper()
	ctx := context.Background()
	a := f.app.WithClock(func() time.Time { return at })
	if _, err := a.UpdateContentParams(ctx, f.owner, f.catID, ContentParams{SiteURL: ptr(shop), TimeZone: ptr(zone)}); err != nil {
		t.Fatal(err)
	}
	f.repo.mu.Lock()
	first := &f.repo.reports[len(f.repo.reports)-1]
	first.CreatedAt = at // the repository stamps it when it is written
	id := first.ID
	f.repo.mu.Unlock()
	if err := a.RunReview(ctx, ReviewRequest{CategoryID: f.catID, ReportID: id, SiteURL: shop}); err != nil {
		t.Fatal(err)
	}
}

// TestFirstReviewIsNotAWeeklyReview: right after
// sign-up the schedule starts no weekly review (the first weekly email
// used to go out minutes after the first review, "the same as last
// week"); the first one comes the Monday after, at 08:00 in the store's
// zone, and compares with the first review. Across zones, dates and the
// daylight-saving changes of March, April and October.
func TestFirstReviewIsNotAWeeklyReview(t *testing.T) {
	for _, c := range []struct {
		zone, signUp, nextSlot string // signUp and nextSlot are the zone's wall clock
	}{
		{"America/New_York", "2026-11-18 10:00", "2026-11-23 08:00"},
		// Sunday night before the change: the next morning is next week's.
		{"Europe/Paris", "2026-03-29 23:30", "2026-03-30 08:00"},
		// Monday after 08:00, the day DST began in New York a day before.
		{"America/New_York", "2026-03-09 09:15", "2026-03-16 08:00"},
		// Monday 07:00, before the slot: that week is the first review's.
		{"Asia/Kolkata", "2026-06-01 07:00", "2026-06-08 08:00"},
		// Sydney's clocks go back on Sunday 5 April 2026.
		{"Australia/Sydney", "2026-04-03 12:00", "2026-04-06 08:00"},
		{"Europe/London", "2026-10-24 18:00", "2026-10-26 08:00"},
	} {
		loc, _ := time.LoadLocation(c.zone)
		signUp, _ := time.ParseInLocation("2006-01-02 15:04", c.signUp, loc)
		slot, _ := time.ParseInLocation("2006-01-02 15:04", c.nextSlot, loc)
		f := newFixture(t)
		reviewedAt(t, f, c.zone, signUp)
		ctx := context.Background()
		for _, now := range []time.Time{signUp.Add(time.Minute), signUp.Add(2 * time.Hour), slot.Add(-time.Minute)} {
			if n, err := f.app.WithClock(func() time.Time { return now }).StartDueWeeklyReviews(ctx); err != nil || n != 0 {
				t.Fatalf("%s signed up %s: at %s started %d weekly reviews (%v), want none before %s",
					c.zone, c.signUp, now.In(loc).Format(time.DateTime), n, err, c.nextSlot)
			}
		}
		if n, err := f.app.WithClock(func() time.Time { return slot }).StartDueWeeklyReviews(ctx); err != nil || n != 1 {
			t.Fatalf("%s signed up %s: at %s started %d (%v), want the first weekly review", c.zone, c.signUp, c.nextSlot, n, err)
		}
		weekly := f.repo.reports[len(f.repo.reports)-1]
		if weekly.Week != schedule.DateOf(slot).String() {
			t.Errorf("%s: weekly review's week %q, want %s", c.zone, weekly.Week, schedule.DateOf(slot))
		}
		f.analyzer.sites[shop] = analysisOf(70)
		if err := f.app.WithClock(func() time.Time { return slot }).RunReview(ctx,
			ReviewRequest{CategoryID: f.catID, ReportID: weekly.ID, SiteURL: shop}); err != nil {
			t.Fatal(err)
		}
		got := f.repo.weeklyReady
		if len(got) != 2 || !got[0].First || got[1].First || got[1].PreviousScore == nil || *got[1].PreviousScore != 64 {
			t.Fatalf("%s: emails %+v, want the first review's then a weekly one against it (64)", c.zone, got)
		}
	}
}

// TestFirstReviewOnTheRealClock: signed up now, on the wall clock, in zones
// on either side of the date line: no weekly review starts today.
func TestFirstReviewOnTheRealClock(t *testing.T) {
	for _, zone := range []string{"UTC", "Pacific/Kiritimati", "Pacific/Pago_Pago", "Europe/Berlin"} {
		f := newFixture(t)
		reviewedAt(t, f, zone, time.Now())
		if n, err := f.app.StartDueWeeklyReviews(context.Background()); err != nil || n != 0 {
			t.Fatalf("%s: %d weekly reviews started right after the first review (%v)", zone, n, err)
		}
	}
}

// TestScheduledReRunKeepsTheScoreOnHome: while the
// weekly re-run nobody on the page asked for is under way, Home shows the
// last review as it is (ready, with its score), not "reviewing… 78 %";
// a review the owner asks for shows its progress.
func TestScheduledReRunKeepsTheScoreOnHome(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	signUp := time.Date(2026, 11, 18, 15, 0, 0, 0, time.UTC)
	reviewedAt(t, f, "UTC", signUp)
	monday := f.app.WithClock(at(t, "2026-11-23T08:00:00Z"))
	if n, err := monday.StartDueWeeklyReviews(ctx); err != nil || n != 1 {
		t.Fatalf("started %d, %v", n, err)
	}
	weekly := f.repo.reports[len(f.repo.reports)-1]
	if err := f.repo.ReviewProgress(ctx, f.catID, weekly.ID, 78, "Checking your pages"); err != nil {
		t.Fatal(err)
	}
	shown, err := monday.CurrentReport(ctx, f.owner, f.catID)
	if err != nil {
		t.Fatal(err)
	}
	if shown.Status != domain.StatusReady || shown.Review == nil || shown.Review.Score != 64 || shown.ID == weekly.ID {
		t.Fatalf("Home shows %s (%d %%) during the weekly re-run, want the last ready review", shown.Status, shown.Progress)
	}
	// The owner saves another website: that review is theirs, with progress.
	f.analyzer.sites[shop+"shop/"] = analysisOf(50)
	if _, err := monday.UpdateContentParams(ctx, f.owner, f.catID, ContentParams{SiteURL: ptr(shop + "shop/")}); err != nil {
		t.Fatal(err)
	}
	shown, err = monday.CurrentReport(ctx, f.owner, f.catID)
	if err != nil || shown.Status != domain.StatusGenerating {
		t.Fatalf("a review the owner started shows %s (%v), want its progress", shown.Status, err)
	}
}
