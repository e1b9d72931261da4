package app

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"uplift.dev/review/internal/domain"

	review "uplift.dev/review/domain"
)

// fakeRuns records what a run claims and answers.
type fakeRuns struct {
	mu       sync.Mutex
	held     map[string]bool // held by another run
	done     map[string]bool
	progress []string
	answers  []string // "completed" or "failed: reason"
	analysis review.Analysis
	pruned   []time.Time // what Prune was given
}

func (f *fakeRuns) Claim(_ context.Context, req domain.ReviewRequest, _ time.Time) (bool, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.done[req.ReportID] {
		return false, true, nil
	}
	return !f.held[req.ReportID], false, nil
}

func (f *fakeRuns) Progress(_ context.Context, _ domain.ReviewRequest, pct int, step string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.progress = append(f.progress, step)
	return nil
}

func (f *fakeRuns) Complete(_ context.Context, req domain.ReviewRequest, a review.Analysis) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.answers, f.analysis = append(f.answers, "completed"), a
	f.done[req.ReportID] = true
	return nil
}

func (f *fakeRuns) Fail(_ context.Context, req domain.ReviewRequest, reason string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.answers = append(f.answers, "failed: "+reason)
	f.done[req.ReportID] = true
	return nil
}

func (f *fakeRuns) Prune(_ context.Context, before time.Time) (int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.pruned = append(f.pruned, before)
	return 1, nil
}

// fakeEngine reviews the sites it knows; Analyze waits for gate when set.
type fakeEngine struct {
	sites map[string]review.Analysis
	gate  chan struct{}
	zones []string
}

func (f *fakeEngine) Analyze(ctx context.Context, site string, _ *review.Review, loc *time.Location, progress func(int, string)) (review.Analysis, error) {
	f.zones = append(f.zones, loc.String())
	progress(40, "Reading your pages")
	if f.gate != nil {
		select {
		case <-f.gate:
		case <-ctx.Done():
			return review.Analysis{}, ctx.Err()
		}
	}
	a, ok := f.sites[site]
	if !ok {
		return review.Analysis{}, &domain.UnreadableError{Reason: "its server refused the connection", Err: errors.New("refused")}
	}
	return a, nil
}

func (f *fakeEngine) Score(_ context.Context, site string) (review.Review, error) {
	a, ok := f.sites[site]
	if !ok {
		return review.Review{}, errors.New("unreadable")
	}
	return a.Review, nil
}

func (f *fakeEngine) Check(context.Context, string) error { return nil }

func (f *fakeEngine) Products(context.Context, string) ([]domain.Product, error) { return nil, nil }

func (f *fakeEngine) FetchImage(context.Context, string, int64) ([]byte, error) { return nil, nil }

func (f *fakeEngine) NextOccasion(time.Time, string) (string, time.Time, bool) {
	return "", time.Time{}, false
}

const shop, rival = "https://mugs.example/", "https://rival.example/"

func newApp(eng *fakeEngine) (*App, *fakeRuns) {
	runs := &fakeRuns{held: map[string]bool{}, done: map[string]bool{}}
	return New(eng, slog.New(slog.NewTextHandler(io.Discard, nil))).WithRuns(runs, Options{}), runs
}

func sites() map[string]review.Analysis {
	return map[string]review.Analysis{
		shop:  {Summary: "Mugs", Review: review.Review{Score: 60}},
		rival: {Review: review.Review{Score: 80}},
	}
}

// TestRunReviewAnswersWithTheReview: a review starts with "Starting the
// review", is dated in the business's zone, puts the competitors beside
// the store (one that cannot be read with the reason) and answers once;
// asked again, it finds the run answered.
func TestRunReviewAnswersWithTheReview(t *testing.T) {
	eng := &fakeEngine{sites: sites()}
	a, runs := newApp(eng)
	req := domain.ReviewRequest{CategoryID: "c", ReportID: "r", SiteURL: shop, TimeZone: "Asia/Tokyo",
		Competitors: []string{rival, "https://gone.example/"}}
	if err := a.RunReview(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if err := a.RunReview(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if len(runs.answers) != 1 || runs.answers[0] != "completed" {
		t.Fatalf("answers %v", runs.answers)
	}
	if len(runs.progress) < 3 || runs.progress[0] != "Starting the review" || runs.progress[len(runs.progress)-1] != "Reviewing your competitors' websites" {
		t.Errorf("progress %v", runs.progress)
	}
	if len(eng.zones) != 1 || eng.zones[0] != "Asia/Tokyo" {
		t.Errorf("dated in %v", eng.zones)
	}
	c := runs.analysis.Review.Competitors
	if runs.analysis.Review.SiteURL != shop || len(c) != 2 || !c[0].Reviewed || c[0].Score != 80 || c[1].Error != review.CompetitorNotReadMessage {
		t.Errorf("review %+v", runs.analysis.Review)
	}
}

// TestRunReviewFailsWithTheReason: a site that cannot be read is answered
// with the reason in the owner's words, not retried; an unknown zone dates
// the plans in UTC.
func TestRunReviewFailsWithTheReason(t *testing.T) {
	eng := &fakeEngine{sites: sites()}
	a, runs := newApp(eng)
	if err := a.RunReview(context.Background(), domain.ReviewRequest{ReportID: "r", SiteURL: "https://gone.example/", TimeZone: "Mars/Olympus"}); err != nil {
		t.Fatal(err)
	}
	if len(runs.answers) != 1 || runs.answers[0] != "failed: its server refused the connection" || eng.zones[0] != "UTC" {
		t.Errorf("answers %v, zones %v", runs.answers, eng.zones)
	}
}

// TestRunReviewHeldOrStopped: a run another worker holds is tried later
// (ErrReviewHeld), and a review cut short by a shutdown answers nothing,
// so the request is delivered again once the claim lapses.
func TestRunReviewHeldOrStopped(t *testing.T) {
	eng := &fakeEngine{sites: sites(), gate: make(chan struct{})}
	a, runs := newApp(eng)
	runs.held["r"] = true
	if err := a.RunReview(context.Background(), domain.ReviewRequest{ReportID: "r", SiteURL: shop}); !errors.Is(err, ErrReviewHeld) {
		t.Fatalf("held: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	if err := a.RunReview(ctx, domain.ReviewRequest{ReportID: "s", SiteURL: shop}); !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped: %v", err)
	}
	if len(runs.answers) != 0 {
		t.Errorf("answers %v", runs.answers)
	}
}
