// Package worker is the review worker's composition root. It takes the
// ReviewRequested events categories publishes from the review service's
// durable JetStream consumer, runs each review with the home page's speed
// measured in Chromium (one review and one browser at a time: the machine
// has two cores, and two browsers at once would each report a slower store
// than it is), and answers through the review schema's outbox under the
// review service's NATS identity. It serves /healthz and /metrics on its
// own address. Run one per machine with a browser; JetStream shares the
// work between them.
package worker

import (
	"context"
	"log/slog"
	"os/exec"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"uplift.dev/platform/program"
	"uplift.dev/review/internal/adapters/engine"
	"uplift.dev/review/internal/adapters/postgres"
	"uplift.dev/review/internal/analysis/lab"
	"uplift.dev/review/internal/app"
	"uplift.dev/review/internal/ports/eventport"
	"uplift.dev/review/migrations"

	review "uplift.dev/review/domain"
)

// Settings are the worker binary's settings.
type Settings struct {
	DatabaseURL string `env:"DATABASE_URL" required:"true" secret:"true"`
	// The worker signs in to the bus and signs the events it relays with
	// the review service's key (NATS_NKEY_SEED) and believes only the
	// senders in NATS_SENDER_KEYS. Both are required unless NATS_ANONYMOUS
	// is set (a test's plain NATS).
	program.NATS
	NATSAnonymous bool `env:"NATS_ANONYMOUS" default:"false"`
	// Engine is the text generator and the fetcher's policy, read as the
	// review service reads them.
	Engine engine.Settings
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
	program.Command("reviewworker", &s, &s.LogLevel, func(ctx context.Context, log *slog.Logger) error {
		return Runner(&s).Run(ctx, log, Wire(&s))
	})
}

// Runner is the worker runtime for s: on the review schema (which the
// review service migrates), on the bus as the review service.
func Runner(s *Settings) program.Worker {
	return program.Worker{Name: "reviewworker", Service: "review", DatabaseURL: s.DatabaseURL,
		Migrations: migrations.FS, MetricsAddr: s.MetricsAddr, NATS: &s.NATS, Anonymous: s.NATSAnonymous}
}

// Wire returns the worker's composition root for settings s (read by Main
// before Wire runs), with the engine built from s.Engine and Chromium.
func Wire(s *Settings) program.WorkerWire { return WireWith(s, nil) }

// WireWith is Wire with eng in place of the engine; nil is Wire.
func WireWith(s *Settings, eng app.Engine) program.WorkerWire {
	return func(_ context.Context, rt *program.WorkerRuntime) ([]func(context.Context) error, error) {
		if eng == nil {
			if _, err := exec.LookPath(s.ChromePath); err != nil {
				// Not fatal: the reviews go on and tell the owner speed was not measured.
				rt.Log.Warn("no Chromium: reviews will say their speed was not measured", "chrome", s.ChromePath, "err", err)
			}
			es := s.Engine
			es.Lab, es.Now = &lab.Options{ExecPath: s.ChromePath, Runs: s.LabRuns}, rt.Clock
			eng = engine.New(es)
		}
		took := prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "review_worker_review_duration_seconds", Help: "Website reviews by whether their speed was measured.",
			Buckets: []float64{1, 2, 4, 8, 15, 30, 60, 120},
		}, []string{"speed"})
		rt.Metrics.MustRegister(took)
		runs := postgres.New(rt.Pool, rt.Clock)
		a := app.New(Observed{Engine: eng, Took: took}, rt.Log).WithClock(rt.Clock).
			WithRuns(runs, app.Options{ReviewTimeout: s.ReviewTimeout})
		consumers := eventport.Consumers{Bus: rt.Bus, App: a}
		rt.Log.Info("reviews with Chromium", "chrome", s.ChromePath)
		return consumers.Workers(), nil
	}
}

// Observed is an engine whose reviews are counted by whether their speed
// was measured, so a worker that lost its browser shows on /metrics.
type Observed struct {
	app.Engine
	Took *prometheus.HistogramVec
}

// Analyze implements app.Engine.
func (o Observed) Analyze(ctx context.Context, siteURL string, previous *review.Review, loc *time.Location, progress func(int, string)) (review.Analysis, error) {
	began := time.Now()
	res, err := o.Engine.Analyze(ctx, siteURL, previous, loc, progress)
	if err == nil {
		label := "not_measured"
		if sp := res.Review.Speed; sp != nil && sp.Measured {
			label = "measured"
		}
		o.Took.WithLabelValues(label).Observe(time.Since(began).Seconds())
	}
	return res, err
}
