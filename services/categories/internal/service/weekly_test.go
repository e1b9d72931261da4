package service_test

import (
	"context"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nats-io/nats.go"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	categoriesv1 "uplift.dev/proto/gen/uplift/categories/v1"
	eventsv1 "uplift.dev/proto/gen/uplift/events/v1"

	"uplift.dev/categories/internal/adapters/postgres"
	"uplift.dev/categories/internal/app"
	"uplift.dev/categories/internal/domain"
	"uplift.dev/platform/clock"
	"uplift.dev/platform/events"
)

// txWatcher wraps the fake engine and, while a review reads the site,
// counts the database sessions (categories' and the review service's)
// that sit in an open transaction on the review's tables.
type txWatcher struct {
	*fakeAnalyzer
	mu     sync.Mutex
	db     *pgxpool.Pool
	opened []int
}

func (w *txWatcher) Analyze(ctx context.Context, site string, prev *domain.Review, loc *time.Location, progress func(int, string)) (domain.Analysis, error) {
	w.mu.Lock()
	db := w.db
	w.mu.Unlock()
	if db != nil {
		// A session idle inside a transaction that has touched the review's
		// tables, and still in that same transaction a moment later: what a
		// consumer waiting on the crawl inside its transaction looks like.
		// One sample alone would also catch another consumer's short
		// transaction between two of its statements on a busy machine.
		idle := func() map[string]bool {
			out := map[string]bool{}
			rows, err := db.Query(ctx, `SELECT DISTINCT a.pid::text || '@' || a.xact_start::text FROM pg_stat_activity a
				JOIN pg_locks l ON l.pid = a.pid JOIN pg_class c ON c.oid = l.relation
				WHERE a.datname = current_database() AND a.pid <> pg_backend_pid()
				  AND a.state LIKE 'idle in transaction%'
				  AND c.relname IN ('reports', 'categories', 'runs', 'processed_messages')`)
			if err != nil {
				return nil
			}
			defer rows.Close()
			for rows.Next() {
				var k string
				if rows.Scan(&k) == nil {
					out[k] = true
				}
			}
			return out
		}
		before := idle()
		time.Sleep(300 * time.Millisecond)
		n := 0
		for k := range idle() {
			if before[k] {
				n++
			}
		}
		if before != nil {
			w.mu.Lock()
			w.opened = append(w.opened, n)
			w.mu.Unlock()
		}
	}
	return w.fakeAnalyzer.Analyze(ctx, site, prev, loc, progress)
}

// TestReviewReadsTheSiteWithNoTransactionOpen: the website is read after
// the run's claim has committed (in the review schema) and before its
// answer is recorded, so no transaction of either service is open
// meanwhile. Before, the consumer read the site inside the transaction
// that recorded the message, holding it (and its locks) for the whole
// crawl.
func TestReviewReadsTheSiteWithNoTransactionOpen(t *testing.T) {
	t.Parallel()
	w := &txWatcher{fakeAnalyzer: &fakeAnalyzer{sites: map[string]domain.Analysis{goodSite: sampleAnalysis()}}}
	h := startWith(t, w)
	w.mu.Lock()
	w.db = h.admin
	w.mu.Unlock()
	cat, tok := h.owner(t)
	h.reviewed(t, cat, tok)
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.opened) == 0 {
		t.Fatal("the review never read the site")
	}
	for _, n := range w.opened {
		if n != 0 {
			t.Fatalf("%d transaction(s) open while the website was read", n)
		}
	}
	var claimed bool
	if err := h.admin.QueryRow(context.Background(), `SELECT claimed_until IS NOT NULL FROM review.runs WHERE category_id = $1`, cat).Scan(&claimed); err != nil || !claimed {
		t.Fatalf("the run did not claim its report first: %v %v", claimed, err)
	}
}

// TestWeeklyReviewOncePerWeekAcrossReplicasAndDST: two replicas' schedules
// run on a clock moved half an hour at a time through the spring
// daylight-saving change in New York; each Monday 08:00 starts one new
// review, and the one that completes publishes one WeeklyReviewReady with
// last week's score and the stored idea's id.
func TestWeeklyReviewOncePerWeekAcrossReplicasAndDST(t *testing.T) {
	t.Parallel()
	h := start(t)
	zone := "America/New_York"
	cat, _ := h.ownerReviewedIn(t, zone)

	ready := h.weeklyEvents(t, cat)

	ctx := context.Background()
	wall := clock.NewManual(time.Time{})
	replicas := []*app.App{h.replicaAt(wall.Clock()), h.replicaAt(wall.Clock())}
	ny, _ := time.LoadLocation(zone)
	started := map[string]time.Time{}
	// Monday 2 March 00:00 (before that week's slot, after the last
	// week's window) to Tuesday 10 March 2026; DST starts Sunday 8 March.
	for t0 := time.Date(2026, 3, 2, 0, 0, 0, 0, ny); t0.Before(time.Date(2026, 3, 10, 0, 0, 0, 0, ny)); t0 = t0.Add(30 * time.Minute) {
		wall.Set(t0)
		var wg sync.WaitGroup
		counts := make([]int, len(replicas))
		for i, r := range replicas {
			wg.Add(1)
			go func() {
				defer wg.Done()
				n, err := r.StartDueWeeklyReviews(ctx)
				if err != nil {
					t.Error(err)
				}
				counts[i] = n
			}()
		}
		wg.Wait()
		if counts[0]+counts[1] > 0 {
			started[t0.In(ny).Format(time.DateTime)] = t0
		}
		if counts[0]+counts[1] > 1 {
			t.Fatalf("%s: %v started by both replicas", t0, counts)
		}
	}
	if len(started) != 2 || started["2026-03-02 08:00:00"].IsZero() || started["2026-03-09 08:00:00"].IsZero() {
		t.Fatalf("weekly reviews started at %v, want Monday 2 and Monday 9 March at 08:00 New York time", started)
	}
	var weeks []string
	rows, _ := h.db.Query(ctx, `SELECT week::text FROM weekly_reviews WHERE category_id = $1 ORDER BY week`, cat)
	for rows.Next() {
		var w string
		_ = rows.Scan(&w)
		weeks = append(weeks, w)
	}
	if len(weeks) != 2 || weeks[0] != "2026-03-02" || weeks[1] != "2026-03-09" {
		t.Fatalf("weeks = %v", weeks)
	}
	// The last week's review is not replaced by a newer one, so it
	// completes and announces itself once.
	eventually(t, func() bool {
		for _, ev := range ready() {
			if ev.GetWeek() == "2026-03-09" {
				return true
			}
		}
		return false
	})
	time.Sleep(300 * time.Millisecond)
	n := 0
	for _, ev := range ready() {
		if ev.GetWeek() != "2026-03-09" {
			continue
		}
		n++
		if ev.GetScore() != 72 || ev.GetBand() != "high" || ev.PreviousScore == nil || ev.GetOwnerUserId() == "" || ev.GetSiteUrl() != goodSite {
			t.Errorf("weekly event = %v", ev)
		}
		var found int
		if ev.GetIdea() != nil {
			_ = h.db.QueryRow(ctx, `SELECT count(*) FROM ideas WHERE id = $1 AND category_id = $2`, ev.GetIdea().GetId(), cat).Scan(&found)
		}
		if found != 1 {
			t.Errorf("the idea %v is not a stored idea of the category", ev.GetIdea())
		}
	}
	if n != 1 {
		t.Fatalf("WeeklyReviewReady for the week published %d times", n)
	}
}

// TestDailyReportWithoutDataOncePerDay: the morning after sign-up a store
// with no data gets one DailyReportReady (NO_DATA, with what is useful
// without orders), however many replicas run the round.
func TestDailyReportWithoutDataOncePerDay(t *testing.T) {
	t.Parallel()
	h := start(t)
	zone := "Asia/Kolkata"
	cat, _ := h.ownerReviewedIn(t, zone)
	reports := collect(t, h, events.SubjectDailyReportReady, func(ev *eventsv1.DailyReportReady) bool { return ev.GetCategoryId() == cat })
	kolkata, _ := time.LoadLocation(zone)
	y, m, d := time.Now().In(kolkata).AddDate(0, 0, 1).Date()
	tomorrow7 := time.Date(y, m, d, 7, 0, 0, 0, kolkata)
	total := 0
	for range 3 {
		n, err := h.replicaAt(clock.Fixed(tomorrow7)).PublishDueNoDataReports(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		total += n
	}
	if total != 1 {
		t.Fatalf("published %d reports, want 1", total)
	}
	eventually(t, func() bool { return len(reports()) == 1 })
	ev := reports()[0]
	w := ev.GetWithoutData()
	if ev.GetStatus() != "NO_DATA" || ev.GetDate() != time.Now().In(kolkata).Format(time.DateOnly) || w == nil ||
		w.GetWebsiteStatus() != "READY" || w.GetWebsiteScore() != 72 || w.GetOwnerUserId() == "" || w.GetIdea().GetId() == "" {
		t.Fatalf("report without data = %v", ev)
	}
}

// TestWeeklyReviewAdoptsAReviewUnderWay: on Monday morning a review the
// owner started (after their first) is still running; the week's review is
// that one (not a new one replacing it), and it announces the week when it
// is done.
func TestWeeklyReviewAdoptsAReviewUnderWay(t *testing.T) {
	t.Parallel()
	h := start(t)
	cat, tok := h.owner(t)
	h.reviewed(t, cat, tok)
	gate := make(chan struct{})
	h.analyzer.mu.Lock()
	h.analyzer.gate = gate
	h.analyzer.mu.Unlock()
	ready := h.weeklyEvents(t, cat)
	if _, err := h.client.InvalidateCampaignIdeas(as(tok), &categoriesv1.InvalidateCampaignIdeasRequest{CategoryId: cat}); err != nil {
		t.Fatal(err)
	}
	monday := time.Date(2026, 11, 16, 9, 0, 0, 0, time.UTC)
	a := h.replicaAt(clock.Fixed(monday))
	if n, err := a.StartDueWeeklyReviews(context.Background()); err != nil || n != 1 {
		t.Fatalf("started %d, %v", n, err)
	}
	var reports int
	_ = h.db.QueryRow(context.Background(), `SELECT count(*) FROM reports WHERE category_id = $1`, cat).Scan(&reports)
	if reports != 2 {
		t.Fatalf("%d reports: the review under way was replaced", reports)
	}
	close(gate)
	eventually(t, func() bool { got := ready(); return len(got) == 1 && got[0].GetWeek() == "2026-11-16" })
}

// TestWeeklyReviewOfAnUnreadableSiteStillEmails: an operator starts the
// week's review at once (admins only, once a week); the site cannot be
// read this week, so the week's WeeklyReviewReady says FAILED, why, and
// the last known score, once; Home shows the failure.
func TestWeeklyReviewOfAnUnreadableSiteStillEmails(t *testing.T) {
	t.Parallel()
	h := start(t)
	cat, tok := h.owner(t)
	h.reviewed(t, cat, tok)
	ready := h.weeklyEvents(t, cat)

	// The site goes down.
	h.analyzer.mu.Lock()
	delete(h.analyzer.sites, goodSite)
	h.analyzer.mu.Unlock()

	run := func(token string) (*categoriesv1.RunWeeklyReviewResponse, error) {
		return h.client.RunWeeklyReview(as(token), &categoriesv1.RunWeeklyReviewRequest{CategoryId: cat})
	}
	if _, err := run(tok); status.Code(err) != codes.PermissionDenied {
		t.Fatalf("the owner ran it: %v", err)
	}
	if _, uplifter := h.signUp(t, true); status.Code(func() error { _, err := run(uplifter); return err }()) != codes.PermissionDenied {
		t.Fatal("an uplifter (not an admin) ran it")
	}
	_, admin := h.signUpWith(t, map[string]any{"admin": true})
	res, err := run(admin)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := run(admin); status.Code(err) != codes.AlreadyExists {
		t.Fatalf("second run: %v", err)
	}
	eventually(t, func() bool { return len(ready()) > 0 })
	time.Sleep(300 * time.Millisecond)
	got := ready()
	if len(got) != 1 {
		t.Fatalf("%d WeeklyReviewReady for the week, want 1", len(got))
	}
	ev := got[0]
	if ev.GetStatus() != "FAILED" || ev.GetFailure() != "it did not answer in time" || ev.GetWeek() != res.GetWeek() ||
		ev.PreviousScore == nil || ev.GetPreviousScore() != 72 || ev.GetPreviousBand() != "high" || ev.GetScore() != 0 ||
		len(ev.GetTopFixes()) != 0 || ev.GetOwnerUserId() == "" {
		t.Fatalf("event %v", ev)
	}
	r, err := h.client.GetCurrentReport(as(tok), &categoriesv1.GetCurrentReportRequest{CategoryId: cat})
	if err != nil || r.GetReport().GetStatus() != categoriesv1.ReportStatus_REPORT_STATUS_FAILED {
		t.Fatalf("Home: %v %v", r, err)
	}
}

// TestWeeklyReviewInTheShopsZone: a business that signed up in Paris
// connects a shop that keeps New York time (StoreSignalsUpdated carries
// the shop's zone): the Monday review starts at 08:00 New York time, the
// week after New York's clocks moved and Paris's had not.
func TestWeeklyReviewInTheShopsZone(t *testing.T) {
	t.Parallel()
	h := start(t)
	cat, tok := h.owner(t)
	site, zone := goodSite, "Europe/Paris"
	if _, err := h.client.UpdateContentGenerationParams(as(tok), &categoriesv1.UpdateContentGenerationParamsRequest{
		CategoryId: cat, SiteUrl: &site, TimeZone: &zone}); err != nil {
		t.Fatal(err)
	}
	ev := storeSignals(cat)
	ev.Timezone = "America/New_York"
	h.publish(t, events.SubjectStoreSignalsUpdated, ev)
	eventually(t, func() bool {
		var tz string
		_ = h.db.QueryRow(context.Background(), `SELECT time_zone FROM store_signals WHERE category_id = $1`, cat).Scan(&tz)
		return tz == "America/New_York"
	})
	for _, c := range []struct {
		at   string
		want int
	}{
		{"2026-03-09T07:00:00Z", 0}, // 08:00 in Paris (CET)
		{"2026-03-09T11:59:00Z", 0},
		{"2026-03-09T12:00:00Z", 1}, // 08:00 in New York (EDT since Sunday)
		{"2026-03-09T12:15:00Z", 0},
	} {
		now, _ := time.Parse(time.RFC3339, c.at)
		a := h.replicaAt(clock.Fixed(now))
		n, err := a.StartDueWeeklyReviews(context.Background())
		if err != nil || n != c.want {
			t.Fatalf("at %s: started %d (%v), want %d", c.at, n, err, c.want)
		}
	}
}

// weeklyEvents collects cat's WeeklyReviewReady events from NATS until the
// test ends; the returned func reads what arrived so far.
func (h harness) weeklyEvents(t *testing.T, cat string) func() []*eventsv1.WeeklyReviewReady {
	t.Helper()
	return collect(t, h, events.SubjectWeeklyReviewReady, func(ev *eventsv1.WeeklyReviewReady) bool {
		return ev.GetCategoryId() == cat && !ev.GetFirstReview()
	})
}

// TestFirstReviewPublishesItsOwnEmail: the
// review a website save starts is the business's first, announced once as
// such (not as a week's), with nothing to compare with; a second review
// the owner asks for announces nothing.
func TestFirstReviewPublishesItsOwnEmail(t *testing.T) {
	t.Parallel()
	h := start(t)
	cat, tok := h.owner(t)
	first := collect(t, h, events.SubjectWeeklyReviewReady, func(ev *eventsv1.WeeklyReviewReady) bool {
		return ev.GetCategoryId() == cat
	})
	h.reviewed(t, cat, tok)
	eventually(t, func() bool { return len(first()) == 1 })
	ev := first()[0]
	if !ev.GetFirstReview() || ev.PreviousScore != nil || len(ev.GetFixedFindings()) != 0 || ev.GetScore() == 0 || ev.GetOwnerUserId() == "" {
		t.Fatalf("first review event %v", ev)
	}
	if _, err := h.client.InvalidateCampaignIdeas(as(tok), &categoriesv1.InvalidateCampaignIdeasRequest{CategoryId: cat}); err != nil {
		t.Fatal(err)
	}
	eventually(t, func() bool {
		var n int
		_ = h.db.QueryRow(context.Background(), `SELECT count(*) FROM reports WHERE category_id = $1 AND status = 'READY'`, cat).Scan(&n)
		return n == 2
	})
	time.Sleep(500 * time.Millisecond)
	if got := first(); len(got) != 1 {
		t.Fatalf("%d review emails announced, want only the first review's", len(got))
	}
}

// collect gathers the events on subject that keep accepts until the test
// ends; the returned func reads what arrived so far.
func collect[T any, P interface {
	*T
	proto.Message
}](t *testing.T, h harness, subject string, keep func(P) bool) func() []P {
	t.Helper()
	var mu sync.Mutex
	var got []P
	sub, err := h.nc.Subscribe(subject, func(m *nats.Msg) {
		ev := P(new(T))
		if proto.Unmarshal(m.Data, ev) == nil && keep(ev) {
			mu.Lock()
			got = append(got, ev)
			mu.Unlock()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sub.Unsubscribe() })
	return func() []P {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(got)
	}
}

// ownerReviewedIn signs up an owner whose business is in zone and waits
// for the first review of its website.
func (h harness) ownerReviewedIn(t *testing.T, zone string) (cat, tok string) {
	t.Helper()
	cat, tok = h.owner(t)
	site := goodSite
	if _, err := h.client.UpdateContentGenerationParams(as(tok), &categoriesv1.UpdateContentGenerationParamsRequest{
		CategoryId: cat, SiteUrl: &site, TimeZone: &zone}); err != nil {
		t.Fatal(err)
	}
	eventually(t, func() bool {
		r, err := h.client.GetCurrentReport(as(tok), &categoriesv1.GetCurrentReportRequest{CategoryId: cat})
		return err == nil && r.GetReport().GetStatus() == categoriesv1.ReportStatus_REPORT_STATUS_READY
	})
	return cat, tok
}

// replicaAt is another replica of the app on the service's database, its
// clock at now.
func (h harness) replicaAt(now clock.Clock) *app.App {
	return app.New(postgres.New(h.db), h.analyzer, nil, slog.New(slog.DiscardHandler), app.Options{}).WithClock(now)
}
