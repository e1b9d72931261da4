package postgres_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/categories/internal/domain"
	"uplift.dev/platform/events"
	"uplift.dev/platform/schedule"
)

func candidate(t *testing.T, s store, id string) (domain.WeeklyReviewCandidate, bool) {
	t.Helper()
	cands, err := s.repo.WeeklyReviewCandidates(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cands {
		if c.CategoryID == id {
			return c, true
		}
	}
	return domain.WeeklyReviewCandidate{}, false
}

func newWeekReport(week string) func(domain.Category) *domain.Report {
	return func(c domain.Category) *domain.Report {
		return &domain.Report{ID: uuid.NewString(), SiteURL: c.SiteURL, Week: week}
	}
}

func TestWeeklyReviewCandidatesAreTheCategoriesWithASiteAndTheEmailOn(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newStore(t)
	site := func(c *domain.Category) { c.SiteURL = "https://" + c.ID + ".example" }
	due := s.ensure(t, "u", "due")
	s.update(t, due, func(c *domain.Category) domain.Effects {
		site(c)
		c.TimeZone = "Europe/London"
		return domain.Effects{}
	})
	withStore := s.ensure(t, "u", "store zone")
	s.update(t, withStore, func(c *domain.Category) domain.Effects { site(c); return domain.Effects{} })
	if err := s.repo.UpdateStoreSignals(ctx, withStore, func(domain.Category, *domain.StoreSignals, []domain.Idea) (domain.StoreChange, error) {
		return domain.StoreChange{Signals: &domain.StoreSignals{CategoryID: withStore, AsOf: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), OccurTime: t0, TimeZone: "America/New_York"}}, nil
	}); err != nil {
		t.Fatal(err)
	}
	noSite := s.ensure(t, "u", "no site")
	off := s.ensure(t, "u", "email off")
	s.update(t, off, func(c *domain.Category) domain.Effects { site(c); c.DisableWeeklyEmail = true; return domain.Effects{} })
	reportOff := s.ensure(t, "u", "daily report off")
	s.update(t, reportOff, func(c *domain.Category) domain.Effects {
		site(c)
		c.DisableBusinessReport = true
		return domain.Effects{}
	})

	cands, err := s.repo.WeeklyReviewCandidates(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]domain.WeeklyReviewCandidate{}
	for i, c := range cands {
		if i > 0 && cands[i-1].CategoryID >= c.CategoryID {
			t.Fatalf("candidates not in id order: %v", cands)
		}
		got[c.CategoryID] = c
	}
	if len(got) != 3 || got[noSite].CategoryID != "" || got[off].CategoryID != "" {
		t.Fatalf("candidates %+v, want %s, %s and %s", cands, due, withStore, reportOff)
	}
	if c := got[due]; c.TimeZone != "Europe/London" || c.StoreTimeZone != "" || !c.LastWeek.IsZero() || !c.FirstReviewAt.IsZero() {
		t.Fatalf("candidate %+v", c)
	}
	if c := got[withStore]; c.TimeZone != "Europe/Paris" || c.StoreTimeZone != "America/New_York" {
		t.Fatalf("candidate with a store zone %+v", c)
	}

	// A review asked for dates the first review; the newest week started is the last week.
	// Each review is done before the next week starts, so each week makes
	// a review of its own rather than adopting the one under way.
	finish(t, s, due, startReview(t, s, due, "https://"+due+".example"), analysis(50), nil)
	for _, week := range []string{"2026-03-02", "2026-03-16", "2026-03-09"} {
		if _, err := s.repo.StartWeeklyReview(ctx, due, week, newWeekReport(week)); err != nil {
			t.Fatal(err)
		}
		latest, err := s.repo.LatestReport(ctx, due)
		if err != nil {
			t.Fatal(err)
		}
		finish(t, s, due, latest.ID, analysis(50), nil)
	}
	c, _ := candidate(t, s, due)
	if c.LastWeek != (schedule.Date{Year: 2026, Month: time.March, Day: 16}) || c.FirstReviewAt.IsZero() {
		t.Fatalf("candidate after three weeks %+v, want last week 2026-03-16 and a first review", c)
	}
	var first time.Time
	if n := s.count(t, `SELECT count(*) FROM reports WHERE category_id = $1`, due); n != 4 {
		t.Fatalf("%d reports, want the first review and three weeks'", n)
	}
	if err := s.pool.QueryRow(ctx, `SELECT created_at FROM reports WHERE category_id = $1 AND week IS NULL`, due).Scan(&first); err != nil || !first.Equal(c.FirstReviewAt) {
		t.Fatalf("first review at %v, want the first report's %v (%v)", c.FirstReviewAt, first, err)
	}
}

// The week a candidate read from the database is due for, across zones and
// a daylight-saving change, is started once; after it, the candidate is
// not due again until the next Monday's slot.
func TestTheWeekDueIsStartedOnceInTheStoresZone(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, zone, storeZone string
		now                   time.Time
		week                  string // "" when nothing is due
	}{
		{"London, Monday before 08:00 GMT", "Europe/London", "", time.Date(2026, 3, 23, 7, 30, 0, 0, time.UTC), ""},
		{"London, Monday 08:30 GMT", "Europe/London", "", time.Date(2026, 3, 23, 8, 30, 0, 0, time.UTC), "2026-03-23"},
		// Clocks went forward on Sunday 29 March: 07:30 UTC is 08:30 BST.
		{"London, the Monday after the change", "Europe/London", "", time.Date(2026, 3, 30, 7, 30, 0, 0, time.UTC), "2026-03-30"},
		// Clocks went back on Sunday 1 November: 12:30 UTC is 07:30 EST.
		{"New York, the Monday after the change, early", "America/New_York", "", time.Date(2026, 11, 2, 12, 30, 0, 0, time.UTC), ""},
		{"New York, the Monday after the change", "America/New_York", "", time.Date(2026, 11, 2, 13, 0, 0, 0, time.UTC), "2026-11-02"},
		// Monday in Auckland is still Sunday in UTC.
		{"Auckland, Monday morning", "Pacific/Auckland", "", time.Date(2026, 3, 29, 20, 0, 0, 0, time.UTC), "2026-03-30"},
		{"Auckland, later that week", "Pacific/Auckland", "", time.Date(2026, 4, 2, 3, 0, 0, 0, time.UTC), "2026-03-30"},
		// The shop's own zone wins over the browser's.
		{"shop in Tokyo, business in Paris", "Europe/Paris", "Asia/Tokyo", time.Date(2026, 3, 1, 23, 30, 0, 0, time.UTC), "2026-03-02"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			s := newStore(t)
			s.clk.Set(tc.now)
			id := s.ensure(t, "u", "Fern")
			s.update(t, id, func(c *domain.Category) domain.Effects {
				c.SiteURL, c.TimeZone = "https://fern.example", tc.zone
				return domain.Effects{}
			})
			if tc.storeZone != "" {
				if err := s.repo.UpdateStoreSignals(ctx, id, func(domain.Category, *domain.StoreSignals, []domain.Idea) (domain.StoreChange, error) {
					return domain.StoreChange{Signals: &domain.StoreSignals{CategoryID: id, AsOf: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), OccurTime: tc.now, TimeZone: tc.storeZone}}, nil
				}); err != nil {
					t.Fatal(err)
				}
			}
			c, ok := candidate(t, s, id)
			if !ok {
				t.Fatal("not a candidate")
			}
			week, due := c.Due(tc.now)
			if tc.week == "" {
				if due {
					t.Fatalf("due for %s", week)
				}
				return
			}
			if !due || week.String() != tc.week {
				t.Fatalf("due %v for %s, want %s", due, week, tc.week)
			}
			for i, want := range []bool{true, false} {
				ok, err := s.repo.StartWeeklyReview(ctx, id, week.String(), newWeekReport(week.String()))
				if err != nil || ok != want {
					t.Fatalf("start %d: %v %v, want %v", i+1, ok, err, want)
				}
			}
			rr := decode(t, s, events.SubjectReviewRequested, func() *eventsv1.ReviewRequested { return &eventsv1.ReviewRequested{} })
			if len(rr) != 1 || !rr[0].OccurTime.AsTime().Equal(tc.now) {
				t.Fatalf("ReviewRequested %v, want one dated by the clock", rr)
			}
			latest, err := s.repo.LatestReport(ctx, id)
			if err != nil || latest == nil || latest.Week != tc.week || latest.Status != domain.StatusGenerating {
				t.Fatalf("the week's report %+v %v", latest, err)
			}
			c, _ = candidate(t, s, id)
			if c.LastWeek.String() != tc.week {
				t.Fatalf("last week %s, want %s", c.LastWeek, tc.week)
			}
			if w, due := c.Due(tc.now); due {
				t.Fatalf("due again for %s right after it started", w)
			}
			next, _ := schedule.ParseDate(tc.week)
			nextSlot := next.AddDays(7).At(domain.ScheduleLocation(tc.zone, tc.storeZone), 8)
			if w, due := c.Due(nextSlot.Add(-time.Minute)); due {
				t.Fatalf("due for %s a minute before the next slot", w)
			}
			if w, due := c.Due(nextSlot); !due || w != next.AddDays(7) {
				t.Fatalf("next Monday's slot: due %v for %s, want %s", due, w, next.AddDays(7))
			}
		})
	}
}

// A review of the same site under way becomes the week's, rather than a
// second review starting; a category without a site or the email is left.
func TestStartingTheWeekAdoptsAReviewUnderWay(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newStore(t)
	id := s.ensure(t, "u", "Fern")
	saved := startReview(t, s, id, "https://fern.example")
	before := s.outbox(t, events.SubjectReviewRequested)
	ok, err := s.repo.StartWeeklyReview(ctx, id, "2026-03-02", newWeekReport("2026-03-02"))
	if err != nil || !ok {
		t.Fatalf("start: %v %v", ok, err)
	}
	if n := s.count(t, `SELECT count(*) FROM reports WHERE category_id = $1`, id); n != 1 {
		t.Fatalf("%d reports, want the one under way only", n)
	}
	if rep, err := s.repo.Report(ctx, saved); err != nil || rep.Week != "2026-03-02" {
		t.Fatalf("the review under way %+v %v, want it to be the week's", rep, err)
	}
	if n := s.count(t, `SELECT count(*) FROM weekly_reviews WHERE category_id = $1 AND report_id = $2`, id, saved); n != 1 {
		t.Fatalf("%d week rows naming the adopted report", n)
	}
	if n := s.outbox(t, events.SubjectReviewRequested); n != before {
		t.Fatalf("%d more ReviewRequested for an adopted review", n-before)
	}

	for name, change := range map[string]func(*domain.Category){
		"no website":     func(c *domain.Category) { c.SiteURL = "" },
		"the email off":  func(c *domain.Category) { c.DisableWeeklyEmail = true },
		"both, and more": func(c *domain.Category) { c.SiteURL, c.DisableWeeklyEmail = "", true },
	} {
		other := s.ensure(t, "u", name)
		s.update(t, other, func(c *domain.Category) domain.Effects {
			c.SiteURL = "https://x.example"
			change(c)
			return domain.Effects{}
		})
		called := false
		ok, err := s.repo.StartWeeklyReview(ctx, other, "2026-03-02", func(domain.Category) *domain.Report { called = true; return nil })
		if err != nil || ok || called {
			t.Fatalf("%s: started %v %v (report made: %v)", name, ok, err, called)
		}
		if n := s.count(t, `SELECT count(*) FROM weekly_reviews WHERE category_id = $1`, other); n != 0 {
			t.Fatalf("%s: the week was claimed", name)
		}
	}
}

func TestNoDataCandidatesAndTheirDailyReportOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newStore(t)
	tokyo := s.ensure(t, "u", "Tokyo")
	s.update(t, tokyo, func(c *domain.Category) domain.Effects {
		c.TimeZone, c.SiteURL = "Asia/Tokyo", "https://tokyo.example"
		return domain.Effects{}
	})
	noZone := s.ensure(t, "u", "No zone")
	s.update(t, noZone, func(c *domain.Category) domain.Effects { c.TimeZone = ""; return domain.Effects{} })
	off := s.ensure(t, "u", "Report off")
	s.update(t, off, func(c *domain.Category) domain.Effects { c.DisableBusinessReport = true; return domain.Effects{} })
	withData := s.ensure(t, "u", "With data")
	addStoreIdea(t, s, withData, "best-seller:Mug")

	list := func() map[string]domain.NoDataCandidate {
		t.Helper()
		cands, err := s.repo.NoDataCandidates(ctx)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]domain.NoDataCandidate{}
		for i, c := range cands {
			if i > 0 && cands[i-1].CategoryID >= c.CategoryID {
				t.Fatalf("candidates not in id order: %v", cands)
			}
			out[c.CategoryID] = c
		}
		return out
	}
	got := list()
	if len(got) != 2 || got[tokyo].TimeZone != "Asia/Tokyo" || got[noZone].CategoryID != noZone || got[noZone].TimeZone != "" {
		t.Fatalf("candidates %+v, want %s and %s", got, tokyo, noZone)
	}
	created := s.get(t, tokyo).CreatedAt
	if c := got[tokyo]; !c.CreatedAt.Equal(created) || !c.LastDay.IsZero() {
		t.Fatalf("candidate %+v, want created %v and no day yet", c, created)
	}

	cat := s.get(t, tokyo)
	score := 64
	rep := domain.NoDataReport{Category: cat, Day: "2026-03-01", WebsiteStatus: domain.StatusReady,
		Ready:        &domain.Review{Score: score, Findings: []domain.Finding{{State: domain.StateOpen}, {State: domain.StateFixed}}},
		OccasionName: "Mother's Day", OccasionDate: "2026-03-15", Idea: &domain.Idea{ID: "i1", Title: "Gift cards"}}
	for i, want := range []bool{true, false} {
		ok, err := s.repo.PublishNoDataReport(ctx, rep)
		if err != nil || ok != want {
			t.Fatalf("publish %d: %v %v, want %v", i+1, ok, err, want)
		}
	}
	next := rep
	next.Day = "2026-02-28" // an older day, late: still its own day
	if ok, err := s.repo.PublishNoDataReport(ctx, next); err != nil || !ok {
		t.Fatalf("publish another day: %v %v", ok, err)
	}
	dr := decode(t, s, events.SubjectDailyReportReady, func() *eventsv1.DailyReportReady { return &eventsv1.DailyReportReady{} })
	if len(dr) != 2 {
		t.Fatalf("%d DailyReportReady, want one per day", len(dr))
	}
	d := dr[0]
	w := d.WithoutData
	if d.CategoryId != tokyo || d.Date != "2026-03-01" || d.Timezone != "Asia/Tokyo" || d.Status != "NO_DATA" || !d.OccurTime.AsTime().Equal(t0) ||
		w == nil || w.StoreName != "Tokyo" || w.OwnerUserId != "u" || w.SiteUrl != "https://tokyo.example" || w.WebsiteStatus != "READY" ||
		w.WebsiteScore == nil || *w.WebsiteScore != 64 || w.OpenFindings != 1 || w.OccasionName != "Mother's Day" ||
		w.Idea == nil || w.Idea.Id != "i1" {
		t.Fatalf("DailyReportReady %v", d)
	}
	if c := list()[tokyo]; c.LastDay.String() != "2026-03-01" {
		t.Fatalf("last day %s, want the newest published, 2026-03-01", c.LastDay)
	}
	// The store's data arrives: no more reports without it.
	addStoreIdea(t, s, tokyo, "best-seller:Tea")
	if _, listed := list()[tokyo]; listed {
		t.Fatal("a store with data is still a no-data candidate")
	}
}

// Replicas racing for the same week start it once.
func TestReplicasStartAWeekOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newStore(t)
	id := s.ensure(t, "u", "Fern")
	finish(t, s, id, startReview(t, s, id, "https://fern.example"), analysis(50), nil)
	before := s.outbox(t, events.SubjectReviewRequested)
	var wg sync.WaitGroup
	var mu sync.Mutex
	started := 0
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok, err := s.repo.StartWeeklyReview(ctx, id, "2026-03-02", newWeekReport("2026-03-02"))
			if err != nil {
				t.Error(err)
			}
			mu.Lock()
			defer mu.Unlock()
			if ok {
				started++
			}
		}()
	}
	wg.Wait()
	if started != 1 {
		t.Fatalf("%d replicas started the week, want 1", started)
	}
	if n := s.outbox(t, events.SubjectReviewRequested) - before; n != 1 {
		t.Fatalf("%d ReviewRequested, want 1", n)
	}
	if n := s.count(t, `SELECT count(*) FROM reports WHERE category_id = $1 AND week = '2026-03-02'`, id); n != 1 {
		t.Fatalf("%d reports for the week, want 1", n)
	}
}
