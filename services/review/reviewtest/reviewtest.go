// Package reviewtest runs the real review service for another service's
// tests: its gRPC API over the real engine, allowed to read the loopback
// sites tests serve themselves, and its review worker on a test's
// database and bus, with a stand-in engine when the test wants one.
package reviewtest

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http/httptest"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	reviewv1 "uplift.dev/proto/gen/uplift/review/v1"

	"uplift.dev/platform/events"
	"uplift.dev/platform/natstest"
	"uplift.dev/platform/postgres"
	"uplift.dev/platform/program"
	"uplift.dev/platform/servicetest"
	"uplift.dev/review/internal/adapters/engine"
	"uplift.dev/review/internal/analysis/lab/labtest"
	"uplift.dev/review/internal/app"
	"uplift.dev/review/internal/domain"
	"uplift.dev/review/internal/ports/grpcport"
	"uplift.dev/review/internal/worker"
	"uplift.dev/review/migrations"

	review "uplift.dev/review/domain"
)

// Start serves the review API on a loopback port until t ends and returns
// its address, to dial as the caller dials it in production
// (grpcclient.New). The quick reads it serves use no database or bus.
func Start(t testing.TB) string {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	healthpb.RegisterHealthServer(srv, health.NewServer()) // grpcclient's balancer asks
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	a := app.New(engine.New(engine.Settings{AllowLoopback: true}), log)
	reviewv1.RegisterReviewServiceServer(srv, &grpcport.Server{App: a, Log: log})
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	return lis.Addr().String()
}

// Engine is what a stand-in for the analysis engine does in a review.
type Engine interface {
	// Analyze reviews the site, telling progress as it goes; an unreadable
	// site is Unreadable's error.
	Analyze(ctx context.Context, siteURL string, previous *review.Review, loc *time.Location, progress func(pct int, step string)) (review.Analysis, error)
	// Score reviews a competitor's site.
	Score(ctx context.Context, siteURL string) (review.Review, error)
}

// Unreadable is the error a stand-in returns for a site that cannot be
// read, with reason in the owner's words, as the engine says it.
func Unreadable(reason string) error {
	return &domain.UnreadableError{Problem: review.SiteUnreadable, Reason: reason, Err: errors.New(reason)}
}

// Worker is a review worker's place in a test.
type Worker struct {
	// DatabaseURL and NATSURL are the test's (servicetest.Base): the
	// worker's review schema is migrated there first.
	DatabaseURL, NATSURL, NATSSenderKeys string
	// Engine stands in for the engine; nil is the real one, reading
	// loopback sites, measuring speed in the browser at ChromePath.
	Engine     Engine
	ChromePath string
}

// StartWorker runs the review worker as w says until t ends, signed in to
// the test's NATS with the review service's key.
func StartWorker(t testing.TB, w Worker) {
	t.Helper()
	// The worker signs in as the review service's login, as in production.
	w.DatabaseURL = servicetest.Login(t, w.DatabaseURL, "review")
	ctx, cancel := context.WithCancel(context.Background())
	pool, err := postgres.Open(ctx, w.DatabaseURL, "review")
	if err != nil {
		t.Fatal(err)
	}
	err = postgres.Migrate(ctx, pool, events.Migrations(), migrations.FS)
	pool.Close()
	if err != nil {
		t.Fatal(err)
	}
	s := worker.Settings{DatabaseURL: w.DatabaseURL, ChromePath: w.ChromePath,
		NATS: program.NATS{NATSURL: w.NATSURL, NATSNKeySeed: string(natstest.Keyring(w.NATSURL).Seed("review")), NATSSenderKeys: w.NATSSenderKeys}}
	s.Engine.AllowLoopback = true
	if s.ChromePath == "" {
		s.ChromePath = "/nonexistent/chromium"
	}
	var eng app.Engine
	if w.Engine != nil {
		eng = standIn{w.Engine}
	}
	done := make(chan error, 1)
	go func() {
		done <- worker.Runner(&s).Run(ctx, slog.New(slog.NewTextHandler(io.Discard, nil)), worker.WireWith(&s, eng))
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("review worker: %v", err)
		}
	})
}

// standIn is a test's Engine as the app's: the quick reads are not a
// review's, so they say so.
type standIn struct{ Engine }

var errNotInAReview = errors.New("reviewtest: not part of a review")

func (standIn) Check(context.Context, string) error { return errNotInAReview }

func (standIn) Products(context.Context, string) ([]domain.Product, error) {
	return nil, errNotInAReview
}

func (standIn) FetchImage(context.Context, string, int64) ([]byte, error) {
	return nil, errNotInAReview
}

func (standIn) NextOccasion(time.Time, string) (string, time.Time, bool) {
	return "", time.Time{}, false
}

// Chromium is Debian's Chromium for a test that measures speed; the test
// is skipped where there is none (analysis/lab/labtest).
func Chromium(t testing.TB) string { return labtest.Chromium(t) }

// SlowStore serves html as a store's home page whose largest image arrives
// late (analysis/lab/labtest), for a test that measures speed.
func SlowStore(t testing.TB, html string) *httptest.Server { return labtest.SlowStore(t, html) }

// Linked is the real engine linked into the test, reading loopback sites
// without a browser: for a benchmark that measures the reviews without
// the bus between.
func Linked() interface {
	Engine
	Check(ctx context.Context, siteURL string) error
} {
	return engine.New(engine.Settings{AllowLoopback: true})
}
