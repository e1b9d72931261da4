package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
	"google.golang.org/protobuf/proto"

	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/categories/internal/adapters/postgres"
	"uplift.dev/categories/internal/domain"
	"uplift.dev/categories/migrations"
	"uplift.dev/platform/clock"
	"uplift.dev/platform/events"
	"uplift.dev/platform/pgtest"
	platformpg "uplift.dev/platform/postgres"
)

// t0 is the adapter's clock in these tests: far from the wall clock, so a
// time the database stamped by itself cannot pass for the clock's.
var t0 = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)

// store is a migrated database of the test's own and the adapter on it,
// dated by clk.
type store struct {
	repo postgres.Repo
	pool *pgxpool.Pool
	clk  *clock.Manual
}

func newStore(t *testing.T) store {
	t.Helper()
	pool := pgtest.Pool(t, "categories")
	if err := platformpg.Migrate(context.Background(), pool, events.Migrations(), migrations.FS); err != nil {
		t.Fatal(err)
	}
	clk := clock.NewManual(t0)
	return store{repo: postgres.New(pool).WithClock(clk.Now), pool: pool, clk: clk}
}

func (s store) count(t *testing.T, query string, args ...any) int {
	t.Helper()
	var n int
	if err := s.pool.QueryRow(context.Background(), query, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// outbox counts the events queued on subject.
func (s store) outbox(t *testing.T, subject string) int {
	t.Helper()
	return s.count(t, `SELECT count(*) FROM outbox WHERE subject = $1`, subject)
}

// decode reads every event queued on subject, oldest first, into
// messages made by newMsg.
func decode[M proto.Message](t *testing.T, s store, subject string, newMsg func() M) []M {
	t.Helper()
	rows, err := s.pool.Query(context.Background(), `SELECT payload FROM outbox WHERE subject = $1 ORDER BY created_at, id`, subject)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []M
	for rows.Next() {
		var payload []byte
		if err := rows.Scan(&payload); err != nil {
			t.Fatal(err)
		}
		m := newMsg()
		if err := proto.Unmarshal(payload, m); err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func reportUpdated(t *testing.T, s store, categoryID string) []*eventsv1.ReportUpdated {
	t.Helper()
	subject, err := events.ReportUpdatedSubject(categoryID)
	if err != nil {
		t.Fatal(err)
	}
	return decode(t, s, subject, func() *eventsv1.ReportUpdated { return &eventsv1.ReportUpdated{} })
}

// ensure creates a category named name for owner and returns its id.
func (s store) ensure(t *testing.T, owner, name string) string {
	t.Helper()
	id := uuid.NewString()
	if _, err := s.repo.Ensure(context.Background(), domain.Category{ID: id, OwnerID: owner, Name: name, TimeZone: "Europe/Paris"}); err != nil {
		t.Fatal(err)
	}
	return id
}

// update applies fn to the category with no effects beyond fn's own.
func (s store) update(t *testing.T, id string, fn func(*domain.Category) domain.Effects) domain.Category {
	t.Helper()
	c, err := s.repo.Update(context.Background(), id, func(c *domain.Category) (domain.Effects, error) { return fn(c), nil })
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func (s store) get(t *testing.T, id string) domain.Category {
	t.Helper()
	c, err := s.repo.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestEnsureCreatesACategoryOnceAndAnnouncesIt(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newStore(t)
	id := uuid.NewString()
	c, err := s.repo.Ensure(ctx, domain.Category{ID: id, OwnerID: "u1", Name: "Fern & Co", ShopifyCategoryID: "gid-1", TimeZone: "Europe/Paris"})
	if err != nil {
		t.Fatal(err)
	}
	got := s.get(t, id)
	if got.ID != id || got.OwnerID != "u1" || got.Name != "Fern & Co" || got.ShopifyCategoryID != "gid-1" || got.TimeZone != "Europe/Paris" ||
		got.SiteURL != "" || got.DisableWeeklyEmail || got.DisableBusinessReport || len(got.Competitors) != 0 ||
		!got.LastDigestRequestedAt.IsZero() || got.CreatedAt.IsZero() {
		t.Fatalf("stored %+v", got)
	}
	if c.Name != got.Name || !c.CreatedAt.Equal(got.CreatedAt) {
		t.Fatalf("Ensure returned %+v, stored %+v", c, got)
	}
	ev := decode(t, s, events.SubjectCategoryUpdated, func() *eventsv1.CategoryUpdated { return &eventsv1.CategoryUpdated{} })
	if len(ev) != 1 || ev[0].CategoryId != id || ev[0].OwnerUserId != "u1" || ev[0].Name != "Fern & Co" ||
		ev[0].TimeZone != "Europe/Paris" || !ev[0].OccurTime.AsTime().Equal(t0) {
		t.Fatalf("CategoryUpdated %v, want one for the new category dated by the clock", ev)
	}

	// A second sign-up event for the same owner changes nothing: the stored
	// name, Shopify id and zone stay, and nobody is told again.
	again, err := s.repo.Ensure(ctx, domain.Category{ID: id, OwnerID: "u1", Name: "Other", ShopifyCategoryID: "gid-2", TimeZone: "Asia/Tokyo"})
	if err != nil {
		t.Fatal(err)
	}
	if again.Name != "Fern & Co" || again.ShopifyCategoryID != "gid-1" || again.TimeZone != "Europe/Paris" {
		t.Fatalf("second Ensure: %+v", again)
	}
	if n := s.outbox(t, events.SubjectCategoryUpdated); n != 1 {
		t.Fatalf("%d CategoryUpdated after a repeated Ensure, want 1", n)
	}
	// Another owner cannot take the category over.
	other, err := s.repo.Ensure(ctx, domain.Category{ID: id, OwnerID: "u2", Name: "Mine"})
	if err != nil {
		t.Fatal(err)
	}
	if other.OwnerID != "u1" || s.get(t, id).OwnerID != "u1" {
		t.Fatalf("another owner's Ensure: %+v", other)
	}
	if n := s.count(t, `SELECT count(*) FROM categories`); n != 1 {
		t.Fatalf("%d categories, want 1", n)
	}
}

func TestEnsureFillsWhatTheFirstCreateLeftEmpty(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newStore(t)
	id := uuid.NewString()
	if _, err := s.repo.Ensure(ctx, domain.Category{ID: id, OwnerID: "u1"}); err != nil {
		t.Fatal(err)
	}
	c, err := s.repo.Ensure(ctx, domain.Category{ID: id, OwnerID: "u1", Name: "Fern", ShopifyCategoryID: "gid-1", TimeZone: "America/New_York"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Name != "Fern" || c.ShopifyCategoryID != "gid-1" || c.TimeZone != "America/New_York" {
		t.Fatalf("filled: %+v", c)
	}
	ev := decode(t, s, events.SubjectCategoryUpdated, func() *eventsv1.CategoryUpdated { return &eventsv1.CategoryUpdated{} })
	if len(ev) != 2 || ev[1].Name != "Fern" || ev[1].TimeZone != "America/New_York" {
		t.Fatalf("CategoryUpdated %v, want the creation and the filled name", ev)
	}
	// Another owner fills nothing.
	id2 := uuid.NewString()
	if _, err := s.repo.Ensure(ctx, domain.Category{ID: id2, OwnerID: "u1"}); err != nil {
		t.Fatal(err)
	}
	if c, err := s.repo.Ensure(ctx, domain.Category{ID: id2, OwnerID: "u2", Name: "Taken"}); err != nil || c.Name != "" {
		t.Fatalf("another owner filled the name: %+v %v", c, err)
	}
}

func TestUnknownIDsAreTheDomainsNotFound(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newStore(t)
	id := s.ensure(t, "u1", "Fern")
	missing := uuid.NewString()
	if _, err := s.repo.Get(ctx, missing); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("Get: %v", err)
	}
	called := false
	if _, err := s.repo.Update(ctx, missing, func(*domain.Category) (domain.Effects, error) { called = true; return domain.Effects{}, nil }); !errors.Is(err, domain.ErrNotFound) || called {
		t.Errorf("Update: %v (fn called: %v)", err, called)
	}
	if _, err := s.repo.Report(ctx, missing); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("Report: %v", err)
	}
	if rep, err := s.repo.LatestReport(ctx, id); rep != nil || err != nil {
		t.Errorf("LatestReport with none: %+v %v", rep, err)
	}
	if rep, err := s.repo.LatestReadyReport(ctx, id); rep != nil || err != nil {
		t.Errorf("LatestReadyReport with none: %+v %v", rep, err)
	}
	if _, err := s.repo.Idea(ctx, id, missing); !errors.Is(err, domain.ErrIdeaNotFound) {
		t.Errorf("Idea: %v", err)
	}
	if sig, err := s.repo.StoreSignals(ctx, id); sig != nil || err != nil {
		t.Errorf("StoreSignals with none: %+v %v", sig, err)
	}
	err := s.repo.UpdateStoreSignals(ctx, missing, func(domain.Category, *domain.StoreSignals, []domain.Idea) (domain.StoreChange, error) {
		called = true
		return domain.StoreChange{}, nil
	})
	if !errors.Is(err, domain.ErrNotFound) || called {
		t.Errorf("UpdateStoreSignals: %v (fn called: %v)", err, called)
	}
	if ok, err := s.repo.StartWeeklyReview(ctx, missing, "2026-03-02", func(domain.Category) *domain.Report { return nil }); ok || err != nil {
		t.Errorf("StartWeeklyReview: %v %v", ok, err)
	}
}

func TestUpdateSavesTheProfile(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	id := s.ensure(t, "u1", "Fern")
	digest := t0.Add(-time.Hour)
	out := s.update(t, id, func(c *domain.Category) domain.Effects {
		c.Name, c.SiteURL, c.AdditionalInfo = "Fern & Moss", "https://fern.example", "Plants."
		c.DisableWeeklyEmail, c.DisableBusinessReport = true, true
		c.TimeZone, c.Competitors, c.LastDigestRequestedAt = "Asia/Tokyo", []string{"https://a.example", "https://b.example"}, digest
		return domain.Effects{}
	})
	got := s.get(t, id)
	if got.Name != "Fern & Moss" || got.SiteURL != "https://fern.example" || got.AdditionalInfo != "Plants." ||
		!got.DisableWeeklyEmail || !got.DisableBusinessReport || got.TimeZone != "Asia/Tokyo" ||
		!slices.Equal(got.Competitors, []string{"https://a.example", "https://b.example"}) || !got.LastDigestRequestedAt.Equal(digest) {
		t.Fatalf("stored %+v", got)
	}
	if out.Name != got.Name || out.SiteURL != got.SiteURL {
		t.Fatalf("Update returned %+v", out)
	}
	// Cleared: no website, no competitors, the email switches back on.
	s.update(t, id, func(c *domain.Category) domain.Effects {
		c.SiteURL, c.Competitors, c.DisableWeeklyEmail, c.LastDigestRequestedAt = "", nil, false, time.Time{}
		return domain.Effects{}
	})
	got = s.get(t, id)
	if got.SiteURL != "" || len(got.Competitors) != 0 || got.DisableWeeklyEmail || !got.LastDigestRequestedAt.IsZero() {
		t.Fatalf("after clearing: %+v", got)
	}
	var site *string
	if err := s.pool.QueryRow(context.Background(), `SELECT site_url FROM categories WHERE id = $1`, id).Scan(&site); err != nil || site != nil {
		t.Fatalf("no website is stored as %v (%v), want NULL: the weekly schedule skips NULL sites", site, err)
	}
	// A change without effects publishes nothing beyond the creation.
	if n := s.count(t, `SELECT count(*) FROM outbox`); n != 1 {
		t.Fatalf("%d outbox rows, want only the creation's", n)
	}
}

// A change made on the owner's behalf starts a review, logs who did it and
// tells everyone, in one transaction.
func TestUpdateWritesItsEffectsWithTheChange(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newStore(t)
	id := s.ensure(t, "owner", "Fern")
	s.clk.Set(t0.Add(time.Minute))
	repID := uuid.NewString()
	s.update(t, id, func(c *domain.Category) domain.Effects {
		c.SiteURL, c.Competitors, c.TimeZone = "https://fern.example", []string{"https://rival.example"}, "Europe/London"
		return domain.Effects{
			NewReport: &domain.Report{ID: repID, SiteURL: c.SiteURL},
			OnBehalf:  &domain.AuditEntry{ActorID: "uplifter", OwnerID: "owner", Action: "update_business_profile"},
			Announce:  true,
		}
	})
	rep, err := s.repo.Report(ctx, repID)
	if err != nil {
		t.Fatal(err)
	}
	if rep.CategoryID != id || rep.SiteURL != "https://fern.example" || rep.Status != domain.StatusGenerating ||
		rep.Step != "Waiting to start" || rep.Progress != 0 || rep.Week != "" || rep.Review != nil {
		t.Fatalf("new report %+v", rep)
	}
	if latest, err := s.repo.LatestReport(ctx, id); err != nil || latest == nil || latest.ID != repID {
		t.Fatalf("latest report %+v %v", latest, err)
	}
	if n := s.count(t, `SELECT count(*) FROM on_behalf_audit WHERE actor_id = 'uplifter' AND owner_id = 'owner'
		AND category_id = $1 AND action = 'update_business_profile'`, id); n != 1 {
		t.Fatalf("%d audit rows, want 1", n)
	}
	rr := decode(t, s, events.SubjectReviewRequested, func() *eventsv1.ReviewRequested { return &eventsv1.ReviewRequested{} })
	if len(rr) != 1 || rr[0].CategoryId != id || rr[0].ReportId != repID || rr[0].SiteUrl != "https://fern.example" ||
		rr[0].TimeZone != "Europe/London" || !slices.Equal(rr[0].CompetitorUrls, []string{"https://rival.example"}) ||
		rr[0].PreviousReviewJson != nil || !rr[0].OccurTime.AsTime().Equal(t0.Add(time.Minute)) {
		t.Fatalf("ReviewRequested %v", rr)
	}
	ru := reportUpdated(t, s, id)
	if len(ru) != 1 || ru[0].ReportId != repID || ru[0].Status != "REPORT_STATUS_GENERATING" || ru[0].ProgressPercent != 0 {
		t.Fatalf("ReportUpdated %v", ru)
	}
	ab := decode(t, s, events.SubjectActedOnBehalf, func() *eventsv1.ActedOnBehalf { return &eventsv1.ActedOnBehalf{} })
	if len(ab) != 1 || ab[0].ActorId != "uplifter" || ab[0].OwnerId != "owner" || ab[0].CategoryId != id ||
		ab[0].Action != "update_business_profile" || ab[0].Service != "categories" {
		t.Fatalf("ActedOnBehalf %v", ab)
	}
	cu := decode(t, s, events.SubjectCategoryUpdated, func() *eventsv1.CategoryUpdated { return &eventsv1.CategoryUpdated{} })
	if len(cu) != 2 || cu[1].SiteUrl != "https://fern.example" || cu[1].TimeZone != "Europe/London" {
		t.Fatalf("CategoryUpdated %v, want the creation and the saved profile", cu)
	}
}

// A change refused by the domain, or failing in the database halfway
// through its effects, leaves the category, the audit log and the outbox
// as they were.
func TestARefusedOrFailedUpdateWritesNothing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newStore(t)
	id := s.ensure(t, "owner", "Fern")
	taken := uuid.NewString()
	s.update(t, id, func(c *domain.Category) domain.Effects {
		c.SiteURL = "https://fern.example"
		return domain.Effects{NewReport: &domain.Report{ID: taken, SiteURL: c.SiteURL}}
	})
	before := s.count(t, `SELECT count(*) FROM outbox`)

	refused := errors.New("refused")
	for name, fn := range map[string]func(*domain.Category) (domain.Effects, error){
		"refused by the domain": func(c *domain.Category) (domain.Effects, error) {
			c.Name = "Changed"
			return domain.Effects{Announce: true, OnBehalf: &domain.AuditEntry{ActorID: "x", OwnerID: "owner", Action: "a"}}, refused
		},
		// The report id is taken, so the report's INSERT fails after the
		// category's UPDATE and before any event.
		"failing in an effect": func(c *domain.Category) (domain.Effects, error) {
			c.Name, c.SiteURL = "Changed", "https://other.example"
			return domain.Effects{
				OnBehalf:  &domain.AuditEntry{ActorID: "x", OwnerID: "owner", Action: "a"},
				NewReport: &domain.Report{ID: taken, SiteURL: c.SiteURL},
				Announce:  true,
			}, nil
		},
	} {
		if _, err := s.repo.Update(ctx, id, fn); err == nil {
			t.Fatalf("%s: no error", name)
		}
		if got := s.get(t, id); got.Name != "Fern" || got.SiteURL != "https://fern.example" {
			t.Fatalf("%s: the category became %+v", name, got)
		}
		if n := s.count(t, `SELECT count(*) FROM outbox`); n != before {
			t.Fatalf("%s: %d outbox rows, want %d", name, n, before)
		}
		if n := s.count(t, `SELECT count(*) FROM on_behalf_audit`); n != 0 {
			t.Fatalf("%s: %d audit rows", name, n)
		}
	}
}

func TestADigestRequestIsDatedByTheRequest(t *testing.T) {
	t.Parallel()
	s := newStore(t)
	id := s.ensure(t, "owner", "Fern")
	s.update(t, id, func(c *domain.Category) domain.Effects { c.SiteURL = "https://fern.example"; return domain.Effects{} })
	asked := t0.Add(-30 * time.Second)
	s.update(t, id, func(c *domain.Category) domain.Effects {
		c.LastDigestRequestedAt = asked
		return domain.Effects{Digest: &domain.DigestRequest{
			RequestedBy: "owner",
			Insights:    []domain.Insight{{Text: "Slow pages", Evidence: "4 s"}},
			Ideas:       []domain.Idea{{ID: "i1", Title: "Spring sale", Channel: "email", WhyNow: "March"}},
		}}
	})
	if got := s.get(t, id); !got.LastDigestRequestedAt.Equal(asked) {
		t.Fatalf("last digest request %v, want %v", got.LastDigestRequestedAt, asked)
	}
	dr := decode(t, s, events.SubjectDigestRequested, func() *eventsv1.DigestRequested { return &eventsv1.DigestRequested{} })
	if len(dr) != 1 || dr[0].CategoryId != id || dr[0].RequestedBy != "owner" || dr[0].OwnerUserId != "owner" ||
		dr[0].StoreName != "Fern" || dr[0].SiteUrl != "https://fern.example" || !dr[0].OccurTime.AsTime().Equal(asked) ||
		len(dr[0].Insights) != 1 || dr[0].Insights[0].Text != "Slow pages" || len(dr[0].Ideas) != 1 || dr[0].Ideas[0].Id != "i1" {
		t.Fatalf("DigestRequested %v", dr)
	}
}

func TestDeletingAnOwnerTakesEverythingOfTheirsAndNothingElse(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newStore(t)
	gone1, gone2, kept := s.ensure(t, "gone", "A"), s.ensure(t, "gone", "B"), s.ensure(t, "kept", "C")
	for _, id := range []string{gone1, gone2, kept} {
		rep := uuid.NewString()
		s.update(t, id, func(c *domain.Category) domain.Effects {
			c.SiteURL = "https://" + id + ".example"
			owner := c.OwnerID
			return domain.Effects{NewReport: &domain.Report{ID: rep, SiteURL: c.SiteURL},
				OnBehalf: &domain.AuditEntry{ActorID: "uplifter", OwnerID: owner, Action: "save"}}
		})
		finish(t, s, id, rep, analysis(80, "idea"), nil)
		addStoreIdea(t, s, id, "best-seller:Mug")
		if _, err := s.repo.StartWeeklyReview(ctx, id, "2026-03-02", func(c domain.Category) *domain.Report {
			return &domain.Report{ID: uuid.NewString(), SiteURL: c.SiteURL, Week: "2026-03-02"}
		}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.repo.PublishNoDataReport(ctx, domain.NoDataReport{Category: s.get(t, id), Day: "2026-03-01"}); err != nil {
			t.Fatal(err)
		}
	}
	// An entry naming the owner under a category that is not theirs (the
	// adapter writes the entry as given) goes too.
	s.update(t, kept, func(*domain.Category) domain.Effects {
		return domain.Effects{OnBehalf: &domain.AuditEntry{ActorID: "uplifter", OwnerID: "gone", Action: "save"}}
	})
	n, err := s.repo.DeleteOwnedBy(ctx, "gone")
	if err != nil || n != 2 {
		t.Fatalf("deleted %d %v, want 2", n, err)
	}
	for _, table := range []string{"categories", "reports", "insights", "ideas", "on_behalf_audit", "store_signals", "weekly_reviews", "no_data_reports"} {
		var left, other int
		q := `SELECT count(*) FILTER (WHERE category_id <> $1), count(*) FILTER (WHERE category_id = $1) FROM ` + table
		if table == "categories" {
			q = `SELECT count(*) FILTER (WHERE id <> $1), count(*) FILTER (WHERE id = $1) FROM categories`
		}
		if table == "insights" {
			q = `SELECT count(*) FILTER (WHERE r.category_id <> $1), count(*) FILTER (WHERE r.category_id = $1)
				FROM insights i LEFT JOIN reports r ON r.id = i.report_id`
		}
		if err := s.pool.QueryRow(ctx, q, kept).Scan(&left, &other); err != nil {
			t.Fatal(err)
		}
		if left != 0 || other == 0 {
			t.Errorf("%s: %d rows of the deleted owner left, %d of the other owner", table, left, other)
		}
	}
	if n := s.count(t, `SELECT count(*) FROM on_behalf_audit WHERE owner_id = 'gone'`); n != 0 {
		t.Errorf("%d audit entries still name the deleted owner", n)
	}
	if n, err := s.repo.DeleteOwnedBy(ctx, "gone"); err != nil || n != 0 {
		t.Fatalf("deleting again: %d %v", n, err)
	}
}

func TestUnsubscribingAnOwnerTurnsBothEmailsOffOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newStore(t)
	a, b, half, other := s.ensure(t, "u1", "A"), s.ensure(t, "u1", "B"), s.ensure(t, "u1", "C"), s.ensure(t, "u2", "D")
	s.update(t, b, func(c *domain.Category) domain.Effects {
		c.DisableWeeklyEmail, c.DisableBusinessReport = true, true
		return domain.Effects{}
	})
	s.update(t, half, func(c *domain.Category) domain.Effects { c.DisableWeeklyEmail = true; return domain.Effects{} })
	before := s.outbox(t, events.SubjectCategoryUpdated)
	n, err := s.repo.UnsubscribeOwnedBy(ctx, "u1")
	if err != nil || n != 2 {
		t.Fatalf("unsubscribed %d %v, want 2 (one was already off)", n, err)
	}
	for _, id := range []string{a, b, half} {
		if c := s.get(t, id); !c.DisableWeeklyEmail || !c.DisableBusinessReport {
			t.Fatalf("%s: %+v", id, c)
		}
	}
	if c := s.get(t, other); c.DisableWeeklyEmail || c.DisableBusinessReport {
		t.Fatalf("another owner's category was unsubscribed: %+v", c)
	}
	cu := decode(t, s, events.SubjectCategoryUpdated, func() *eventsv1.CategoryUpdated { return &eventsv1.CategoryUpdated{} })[before:]
	if len(cu) != 2 {
		t.Fatalf("%d CategoryUpdated, want one per category changed", len(cu))
	}
	got := []string{cu[0].CategoryId, cu[1].CategoryId}
	slices.Sort(got)
	want := []string{a, half}
	slices.Sort(want)
	if !slices.Equal(got, want) || !cu[0].DisableWeeklyEmail || !cu[0].DisableBusinessReport {
		t.Fatalf("CategoryUpdated %v, want %v with both switches off", cu, want)
	}
	if n, err := s.repo.UnsubscribeOwnedBy(ctx, "u1"); err != nil || n != 0 {
		t.Fatalf("second unsubscribe: %d %v", n, err)
	}
	if n := s.outbox(t, events.SubjectCategoryUpdated); n != before+2 {
		t.Fatalf("a redelivered unsubscribe published again (%d)", n-before)
	}
}

// Concurrent changes to one category are applied one after the other
// under its row lock, so none is lost.
func TestConcurrentUpdatesLoseNothing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newStore(t)
	id := s.ensure(t, "owner", "Fern")
	const n = 6
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := s.repo.Update(ctx, id, func(c *domain.Category) (domain.Effects, error) {
				c.Competitors = append(c.Competitors, fmt.Sprintf("https://rival%d.example", i))
				return domain.Effects{}, nil
			})
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if got := s.get(t, id).Competitors; len(got) != n {
		t.Fatalf("competitors %v, want all %d", got, n)
	}
}

// Inside a consumer's transaction the adapter's changes and their events
// commit or roll back with it.
func TestWithTxCommitsAndRollsBackWithTheConsumer(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newStore(t)
	for _, commit := range []bool{false, true} {
		tx, err := s.pool.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		id := uuid.NewString()
		if _, err := s.repo.WithTx(tx).Ensure(ctx, domain.Category{ID: id, OwnerID: "u", Name: "Fern"}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.repo.WithTx(tx).Get(ctx, id); err != nil {
			t.Fatalf("the consumer's transaction does not see its category: %v", err)
		}
		if commit {
			err = tx.Commit(ctx)
		} else {
			err = tx.Rollback(ctx)
		}
		if err != nil {
			t.Fatal(err)
		}
		_, err = s.repo.Get(ctx, id)
		queued := s.count(t, `SELECT count(*) FROM outbox`)
		if commit && (err != nil || queued != 1) {
			t.Fatalf("committed: %v, %d events", err, queued)
		}
		if !commit && (!errors.Is(err, domain.ErrNotFound) || queued != 0) {
			t.Fatalf("rolled back: %v, %d events", err, queued)
		}
	}
}
