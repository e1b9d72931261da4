// Package worker is the review worker's composition root. It takes the
// categories service's ReviewRequested events from the same durable
// JetStream consumer the API would use, runs each review with the home
// page's speed measured in Chromium (one review and one browser at a time:
// the machine has two cores, and two browsers at once would each report a
// slower store than it is), records the result in the categories schema
// and publishes its events through the same outbox. It serves /healthz
// and /metrics on its own address. Run one per machine with a browser;
// JetStream shares the work between them.
package worker

import (
	"context"
	"fmt"
	"log/slog"
	"os/exec"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/sync/errgroup"

	"uplift.dev/categories/internal/adapters/engine"
	pgrepo "uplift.dev/categories/internal/adapters/postgres"
	"uplift.dev/categories/internal/app"
	"uplift.dev/categories/internal/domain"
	"uplift.dev/categories/internal/ports/eventport"
	"uplift.dev/categories/migrations"
	"uplift.dev/platform/clock"
	"uplift.dev/platform/events"
	"uplift.dev/platform/grpcclient"
	"uplift.dev/platform/postgres"
	"uplift.dev/platform/service"
	"uplift.dev/review/analysis/lab"
)

// Settings are the worker binary's settings.
type Settings struct {
	DatabaseURL string `env:"DATABASE_URL" required:"true" secret:"true"`
	// The worker is a second process of the categories service on the
	// bus: it signs in and signs the events it relays with categories' key
	// (NATS_NKEY_SEED) and believes only the senders in NATS_SENDER_KEYS.
	// Both are required unless NATS_ANONYMOUS is set (a test's plain NATS).
	service.NATS
	NATSAnonymous bool `env:"NATS_ANONYMOUS" default:"false"`
	// Engine is the text generator and the fetcher's policy, read as the
	// categories service reads them.
	Engine engine.Settings
	// ReviewAddr is the review service, which scores a store's
	// competitors beside its review.
	ReviewAddr string `env:"REVIEW_ADDR" default:"127.0.0.1:9007"`
	// ChromePath is Debian's Chromium; when it is missing the reviews
	// still run and say speed was not measured and why.
	ChromePath string `env:"CHROME_PATH" default:"/usr/bin/chromium"`
	// LabRuns is how many loads the speed's median is of (Lighthouse's
	// practice is 3); the end-to-end tests' stack asks for 1, so the many
	// reviews they start one after another do not queue for minutes.
	LabRuns int `env:"REVIEW_LAB_RUNS" default:"3"`
	// ReviewTimeout bounds one review, browser included.
	ReviewTimeout time.Duration `env:"REVIEW_TIMEOUT" default:"3m"`
	MetricsAddr   string        `env:"REVIEW_WORKER_METRICS_ADDR"`
	LogLevel      string        `env:"LOG_LEVEL" default:"info"`
}

// Main runs the worker until SIGINT or SIGTERM and exits non-zero with a
// message naming the problem if it cannot start.
func Main() {
	var s Settings
	service.Command("reviewworker", &s, &s.LogLevel, func(ctx context.Context, log *slog.Logger) error {
		return Run(ctx, s, log)
	})
}

// Run runs the worker with s until ctx ends; tests run it in-process.
func Run(ctx context.Context, s Settings, log *slog.Logger) error {
	if s.ReviewTimeout <= 0 {
		s.ReviewTimeout = 3 * time.Minute
	}
	if _, err := exec.LookPath(s.ChromePath); err != nil {
		// Not fatal: the reviews go on and tell the owner speed was not measured.
		log.Warn("no Chromium: reviews will say their speed was not measured", "chrome", s.ChromePath, "err", err)
	}
	pool, err := postgres.Open(ctx, s.DatabaseURL, "categories")
	if err != nil {
		return err
	}
	defer pool.Close()
	// The categories service owns the schema and migrates it; this worker may be
	// another release, so it only waits for the migrations it was built with.
	if err := postgres.WaitMigrated(ctx, pool, "the categories service", log, events.Migrations(), migrations.FS); err != nil {
		return err
	}
	bus, err := s.NATS.Connect(ctx, "reviewworker", "categories", s.NATSAnonymous)
	if err != nil {
		return err
	}
	defer func() { _ = bus.NC.Drain() }()

	reg := prometheus.NewRegistry()
	reviews := prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "review_worker_review_duration_seconds", Help: "Website reviews by whether their speed was measured.",
		Buckets: []float64{1, 2, 4, 8, 15, 30, 60, 120},
	}, []string{"speed"})
	reg.MustRegister(reviews, prometheus.NewGoCollector(), prometheus.NewProcessCollector(prometheus.ProcessCollectorOpts{}))

	// One clock for the engine and the app, as in the API (service.Runtime).
	now := clock.Real
	es := s.Engine
	es.Lab, es.Now = &lab.Options{ExecPath: s.ChromePath, Runs: s.LabRuns}, now
	rconn, err := grpcclient.New(s.ReviewAddr)
	if err != nil {
		return fmt.Errorf("review service %s: %w", s.ReviewAddr, err)
	}
	defer func() { _ = rconn.Close() }()
	eng := engine.New(rconn, engine.NewLocal(es))
	repo := pgrepo.New(pool).WithClock(now)
	// Reviews need no caller's profile: the worker has no users client.
	a := app.New(repo, Observed{Analyzer: eng, Took: reviews}, nil, log, app.Options{ReviewTimeout: s.ReviewTimeout}).WithClock(now)
	consumers := eventport.Consumers{Bus: events.Bus{JS: bus.JS, Pool: pool, Log: log, Trust: bus.Trust}, App: a}

	g, ctx := errgroup.WithContext(ctx)
	if s.MetricsAddr != "" {
		g.Go(func() error { return service.ServeHealth(ctx, s.MetricsAddr, reg, pool.Ping, log) })
	}
	relay := &events.Relay{Pool: pool, JS: bus.JS, Log: log, Signer: bus.Signer, Metrics: events.NewRelayMetrics(reg)}
	g.Go(func() error { return relay.Run(ctx) })
	g.Go(func() error { return consumers.Reviews()(ctx) })
	log.Info("ready", "chrome", s.ChromePath)
	return g.Wait()
}

// Observed is an analyzer whose reviews are counted by whether their
// speed was measured, so a worker that lost its browser shows on /metrics.
type Observed struct {
	app.Analyzer
	Took *prometheus.HistogramVec
}

// Analyze implements app.Analyzer.
func (o Observed) Analyze(ctx context.Context, siteURL string, previous *domain.Review, loc *time.Location, progress func(int, string)) (domain.Analysis, error) {
	began := time.Now()
	res, err := o.Analyzer.Analyze(ctx, siteURL, previous, loc, progress)
	if err == nil {
		label := "not_measured"
		if sp := res.Review.Speed; sp != nil && sp.Measured {
			label = "measured"
		}
		o.Took.WithLabelValues(label).Observe(time.Since(began).Seconds())
	}
	return res, err
}
