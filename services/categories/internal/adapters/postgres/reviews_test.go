package postgres_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/categories/internal/domain"
	"uplift.dev/platform/events"
)

// analysis is a finished review scoring score with two insights and, for
// each title, an idea.
func analysis(score int, titles ...string) domain.Analysis {
	a := domain.Analysis{
		Summary: fmt.Sprintf("A shop scoring %d.", score),
		Review: domain.Review{SiteURL: "https://fern.example", Score: score, Findings: []domain.Finding{
			{Title: "Slow home page", Fix: "Compress images", PointsLost: 5, State: domain.StateNew},
		}},
		Insights: []domain.Insight{{ID: "in-1", Text: "First", Evidence: "e1"}, {ID: "in-2", Text: "Second"}},
	}
	for _, title := range titles {
		a.Ideas = append(a.Ideas, domain.Idea{Title: title, WhyNow: "why " + title, Channel: "email", Products: []string{"Mug"}})
	}
	return a
}

// startReview saves site on the category, which starts a review; it
// returns the report's id.
func startReview(t *testing.T, s store, id, site string) string {
	t.Helper()
	rep := uuid.NewString()
	s.update(t, id, func(c *domain.Category) domain.Effects {
		c.SiteURL = site
		return domain.Effects{NewReport: &domain.Report{ID: rep, SiteURL: site}}
	})
	return rep
}

func finish(t *testing.T, s store, id, rep string, a domain.Analysis, weekly *domain.WeeklyReview) bool {
	t.Helper()
	ok, err := s.repo.FinishReview(context.Background(), id, rep, a, weekly)
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

// addStoreIdea stores signals for the category with one store idea on topic.
func addStoreIdea(t *testing.T, s store, id, topic string) {
	t.Helper()
	err := s.repo.UpdateStoreSignals(context.Background(), id, func(domain.Category, *domain.StoreSignals, []domain.Idea) (domain.StoreChange, error) {
		return domain.StoreChange{
			Signals:  &domain.StoreSignals{CategoryID: id, Currency: "EUR", CurrencyDecimals: 2, AsOf: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), OccurTime: t0},
			AddIdeas: []domain.Idea{{Topic: topic, Title: "Store idea " + topic, Channel: "email"}},
		}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func titles(ideas []domain.Idea) []string {
	out := make([]string, len(ideas))
	for i, idea := range ideas {
		out[i] = idea.Title
	}
	return out
}

func TestAFinishedReviewIsReadWithItsInsightsAndTopIdeas(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newStore(t)
	id := s.ensure(t, "owner", "Fern")
	rep := startReview(t, s, id, "https://fern.example")
	if !finish(t, s, id, rep, analysis(72, "one", "two", "three", "four"), nil) {
		t.Fatal("the current review was not stored")
	}
	got, err := s.repo.Report(ctx, rep)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != domain.StatusReady || got.Progress != 100 || got.Step != "Done" || got.Summary != "A shop scoring 72." ||
		got.Review == nil || got.Review.Score != 72 || len(got.Review.Findings) != 1 || got.Review.Findings[0].Fix != "Compress images" {
		t.Fatalf("report %+v", got)
	}
	if len(got.Insights) != 2 || got.Insights[0].ID != "in-1" || got.Insights[0].Evidence != "e1" || got.Insights[1].Text != "Second" {
		t.Fatalf("insights %+v, want both in order", got.Insights)
	}
	if want := []string{"one", "two", "three"}; fmt.Sprint(titles(got.Ideas)) != fmt.Sprint(want) {
		t.Fatalf("report ideas %v, want the top %d in the engine's order %v", titles(got.Ideas), domain.TopIdeas, want)
	}
	if i := got.Ideas[0]; i.WhyNow != "why one" || i.Channel != "email" || len(i.Products) != 1 || i.Products[0] != "Mug" || !i.CreatedAt.Equal(t0) {
		t.Fatalf("idea %+v, want its fields and the clock's time", i)
	}
	ready, err := s.repo.LatestReadyReport(ctx, id)
	if err != nil || ready == nil || ready.ID != rep {
		t.Fatalf("latest ready %+v %v", ready, err)
	}
	if c := s.get(t, id); c.AdditionalInfo != "A shop scoring 72." {
		t.Fatalf("the category's summary is %q", c.AdditionalInfo)
	}
	ru := reportUpdated(t, s, id)
	if last := ru[len(ru)-1]; last.ReportId != rep || last.Status != "REPORT_STATUS_READY" || last.ProgressPercent != 100 {
		t.Fatalf("last ReportUpdated %v", last)
	}
	if n := s.outbox(t, events.SubjectWeeklyReviewReady); n != 0 {
		t.Fatalf("%d weekly emails for a review that is not the week's and no email offered", n)
	}

	// Redelivered: nothing is stored twice.
	if finish(t, s, id, rep, analysis(72, "one"), nil) {
		t.Fatal("a finished review was finished again")
	}
	if n := s.count(t, `SELECT count(*) FROM insights WHERE report_id = $1`, rep); n != 2 {
		t.Fatalf("%d insights after a redelivery", n)
	}
	if n := s.count(t, `SELECT count(*) FROM ideas WHERE category_id = $1`, id); n != 4 {
		t.Fatalf("%d ideas after a redelivery", n)
	}
}

// The newest review passes the last ready review of the same site on, and
// the review that finishes makes way for nothing but a newer one.
func TestAReviewReplacedMeanwhileFailsAndTheNewOneComparesWithTheLastReady(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newStore(t)
	id := s.ensure(t, "owner", "Fern")
	first := startReview(t, s, id, "https://fern.example")
	finish(t, s, id, first, analysis(60, "a"), nil)

	old := startReview(t, s, id, "https://fern.example")
	rr := decode(t, s, events.SubjectReviewRequested, func() *eventsv1.ReviewRequested { return &eventsv1.ReviewRequested{} })
	if len(rr) != 2 || rr[1].ReportId != old || len(rr[1].PreviousReviewJson) == 0 {
		t.Fatalf("the second review's request %v, want the last ready review to compare with", rr)
	}
	newer := startReview(t, s, id, "https://other.example")
	rr = decode(t, s, events.SubjectReviewRequested, func() *eventsv1.ReviewRequested { return &eventsv1.ReviewRequested{} })
	if rr[2].PreviousReviewJson != nil {
		t.Fatal("a review of another site was given the old site's review to compare with")
	}
	if finish(t, s, id, old, analysis(90, "late"), nil) {
		t.Fatal("a replaced review was stored as current")
	}
	got, err := s.repo.Report(ctx, old)
	if err != nil || got.Status != domain.StatusFailed || got.Error != domain.SupersededMessage || got.Review != nil {
		t.Fatalf("replaced report %+v %v", got, err)
	}
	if latest, err := s.repo.LatestReport(ctx, id); err != nil || latest.ID != newer {
		t.Fatalf("latest %+v %v", latest, err)
	}
	if ready, err := s.repo.LatestReadyReport(ctx, id); err != nil || ready.ID != first {
		t.Fatalf("latest ready %+v %v, want the first", ready, err)
	}
	if c := s.get(t, id); c.AdditionalInfo != "A shop scoring 60." {
		t.Fatalf("a replaced review wrote the summary %q", c.AdditionalInfo)
	}

	// The website removed while its review runs: the review is not stored.
	s.update(t, id, func(c *domain.Category) domain.Effects { c.SiteURL = ""; return domain.Effects{} })
	if finish(t, s, id, newer, analysis(95, "gone"), nil) {
		t.Fatal("a review of a website no longer set was stored")
	}
	if got, err := s.repo.Report(ctx, newer); err != nil || got.Status != domain.StatusFailed {
		t.Fatalf("review of a removed website %+v %v", got, err)
	}
}

func TestProgressNeverMovesBack(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newStore(t)
	id := s.ensure(t, "owner", "Fern")
	rep := startReview(t, s, id, "https://fern.example")
	for _, p := range []struct {
		pct  int
		step string
	}{{40, "Reading pages"}, {20, "Late redelivery"}, {40, "Same again"}, {70, "Scoring"}} {
		if err := s.repo.ReviewProgress(ctx, id, rep, p.pct, p.step); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.repo.Report(ctx, rep)
	if err != nil || got.Progress != 70 || got.Step != "Scoring" {
		t.Fatalf("report %+v %v", got, err)
	}
	var pcts []int32
	for _, ev := range reportUpdated(t, s, id)[1:] {
		pcts = append(pcts, ev.ProgressPercent)
	}
	if fmt.Sprint(pcts) != "[40 40 70]" {
		t.Fatalf("progress events %v, want [40 40 70]", pcts)
	}
	finish(t, s, id, rep, analysis(50), nil)
	if err := s.repo.ReviewProgress(ctx, id, rep, 90, "After the end"); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.repo.Report(ctx, rep); got.Progress != 100 || got.Step != "Done" {
		t.Fatalf("a finished report moved to %d %q", got.Progress, got.Step)
	}
}

func TestAFailedReviewIsFailedOnceAndAWeeksSaysSo(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newStore(t)
	id := s.ensure(t, "owner", "Fern")
	rep := startReview(t, s, id, "https://fern.example")
	if err := s.repo.ReviewProgress(ctx, id, rep, 30, "Reading"); err != nil {
		t.Fatal(err)
	}
	weekly := &domain.WeeklyReview{CategoryID: id, ReportID: rep, Failure: "it did not answer"}
	// Not the week's review: no weekly email.
	if err := s.repo.FailReview(ctx, id, rep, domain.FailureMessage, weekly); err != nil {
		t.Fatal(err)
	}
	got, err := s.repo.Report(ctx, rep)
	if err != nil || got.Status != domain.StatusFailed || got.Error != domain.FailureMessage {
		t.Fatalf("report %+v %v", got, err)
	}
	ru := reportUpdated(t, s, id)
	if last := ru[len(ru)-1]; last.Status != "REPORT_STATUS_FAILED" || last.ProgressPercent != 30 {
		t.Fatalf("ReportUpdated %v, want FAILED at the progress reached", last)
	}
	if n := s.outbox(t, events.SubjectWeeklyReviewReady); n != 0 {
		t.Fatalf("%d weekly emails for a review that is not the week's", n)
	}
	// Progress arriving after the failure moves nothing.
	if err := s.repo.ReviewProgress(ctx, id, rep, 90, "Late"); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.repo.Report(ctx, rep); got.Progress != 30 || got.Status != domain.StatusFailed {
		t.Fatalf("a failed report moved to %d %s", got.Progress, got.Status)
	}

	// The week's review fails: one email, however often the failure comes.
	week := "2026-03-02"
	var weekRep string
	if ok, err := s.repo.StartWeeklyReview(ctx, id, week, func(c domain.Category) *domain.Report {
		weekRep = uuid.NewString()
		return &domain.Report{ID: weekRep, SiteURL: c.SiteURL, Week: week}
	}); err != nil || !ok {
		t.Fatalf("start the week: %v %v", ok, err)
	}
	before := len(reportUpdated(t, s, id))
	for range 2 {
		if err := s.repo.FailReview(ctx, id, weekRep, domain.FailureMessage, weekly); err != nil {
			t.Fatal(err)
		}
	}
	wr := decode(t, s, events.SubjectWeeklyReviewReady, func() *eventsv1.WeeklyReviewReady { return &eventsv1.WeeklyReviewReady{} })
	if len(wr) != 1 || wr[0].Week != week || wr[0].Status != "FAILED" || wr[0].Failure != "it did not answer" || !wr[0].OccurTime.AsTime().Equal(t0) {
		t.Fatalf("WeeklyReviewReady %v, want one FAILED for %s", wr, week)
	}
	if n := len(reportUpdated(t, s, id)) - before; n != 1 {
		t.Fatalf("%d ReportUpdated for failing one report twice", n)
	}
}

func TestTheWeeksReviewSendsItsEmailWithTheStoredIdeasID(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newStore(t)
	id := s.ensure(t, "owner", "Fern")
	s.update(t, id, func(c *domain.Category) domain.Effects { c.SiteURL = "https://fern.example"; return domain.Effects{} })
	week := "2026-03-02"
	var rep string
	if ok, err := s.repo.StartWeeklyReview(ctx, id, week, func(c domain.Category) *domain.Report {
		rep = uuid.NewString()
		return &domain.Report{ID: rep, SiteURL: c.SiteURL, Week: week}
	}); err != nil || !ok {
		t.Fatalf("start: %v %v", ok, err)
	}
	a := analysis(81, "", "Spring sale")
	w := domain.NewWeeklyReview(s.get(t, id), rep, "", a, nil)
	finish(t, s, id, rep, a, &w)
	got, err := s.repo.Report(ctx, rep)
	if err != nil || got.Week != week {
		t.Fatalf("report %+v %v, want week %s", got, err, week)
	}
	wr := decode(t, s, events.SubjectWeeklyReviewReady, func() *eventsv1.WeeklyReviewReady { return &eventsv1.WeeklyReviewReady{} })
	if len(wr) != 1 || wr[0].Week != week || wr[0].Status != "READY" || wr[0].Score != 81 || wr[0].Idea == nil || wr[0].Idea.Title != "Spring sale" {
		t.Fatalf("WeeklyReviewReady %v", wr)
	}
	idea, err := s.repo.Idea(ctx, id, wr[0].Idea.Id)
	if err != nil || idea.Title != "Spring sale" {
		t.Fatalf("the email's idea %q opens as %+v %v", wr[0].Idea.Id, idea, err)
	}
}

// The website's ideas make way for the next review's; the store's stay, and
// lead the list.
func TestRecentIdeasListTheStoresFirstThenTheNewest(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newStore(t)
	id := s.ensure(t, "owner", "Fern")
	other := s.ensure(t, "owner", "Other")
	first := startReview(t, s, id, "https://fern.example")
	finish(t, s, id, first, analysis(60, "old-1", "old-2"), nil)
	oldIdeas, err := s.repo.RecentIdeas(ctx, id, 10)
	if err != nil {
		t.Fatal(err)
	}
	s.clk.Advance(time.Hour)
	addStoreIdea(t, s, id, "best-seller:Mug")
	s.clk.Advance(time.Hour)
	second := startReview(t, s, id, "https://fern.example")
	finish(t, s, id, second, analysis(70, "new-1", "new-2", "new-3"), nil)

	for _, tc := range []struct {
		limit int
		want  string
	}{
		{10, "[Store idea best-seller:Mug new-1 new-2 new-3]"},
		{2, "[Store idea best-seller:Mug new-1]"},
	} {
		got, err := s.repo.RecentIdeas(ctx, id, tc.limit)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(titles(got)) != tc.want {
			t.Errorf("limit %d: %v, want %s", tc.limit, titles(got), tc.want)
		}
	}
	// A replaced idea still opens by id, but only in its own category.
	if idea, err := s.repo.Idea(ctx, id, oldIdeas[0].ID); err != nil || idea.Title != "old-1" {
		t.Fatalf("an old idea: %+v %v", idea, err)
	}
	if _, err := s.repo.Idea(ctx, other, oldIdeas[0].ID); err == nil {
		t.Fatal("an idea opened in another category")
	}
}

// A new website makes every current idea stale at once; the store's come
// back under new ids, as new ideas dated by the clock.
func TestInvalidatingIdeasReissuesTheStoresUnderNewIDs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newStore(t)
	id := s.ensure(t, "owner", "Fern")
	rep := startReview(t, s, id, "https://fern.example")
	finish(t, s, id, rep, analysis(60, "web"), nil)
	addStoreIdea(t, s, id, "best-seller:Mug")
	before, err := s.repo.RecentIdeas(ctx, id, 10)
	if err != nil || len(before) != 2 {
		t.Fatalf("ideas before %+v %v", before, err)
	}
	s.clk.Advance(24 * time.Hour)
	s.update(t, id, func(c *domain.Category) domain.Effects {
		c.SiteURL = "https://new.example"
		return domain.Effects{InvalidateIdeas: true}
	})
	after, err := s.repo.RecentIdeas(ctx, id, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(after) != 1 || after[0].Title != "Store idea best-seller:Mug" || after[0].Topic != "best-seller:Mug" || after[0].ID == before[0].ID {
		t.Fatalf("ideas after %+v, want the store's again under a new id", after)
	}
	if !after[0].CreatedAt.Equal(t0.Add(24 * time.Hour)) {
		t.Errorf("the reissued idea is dated %v, want the clock's %v", after[0].CreatedAt, t0.Add(24*time.Hour))
	}
	for _, old := range before {
		if _, err := s.repo.Idea(ctx, id, old.ID); err != nil {
			t.Errorf("stale idea %s no longer opens: %v", old.Title, err)
		}
	}
	// The reissued idea is the store's current one.
	err = s.repo.UpdateStoreSignals(ctx, id, func(_ domain.Category, _ *domain.StoreSignals, ideas []domain.Idea) (domain.StoreChange, error) {
		if len(ideas) != 1 || ideas[0].ID != after[0].ID {
			t.Errorf("current store ideas %+v", ideas)
		}
		return domain.StoreChange{}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
