// Package worker is the studio worker's composition root: the only binary
// that loads ONNX Runtime and the model (cgo). It leases jobs from the
// studio schema's queue, runs them and stores the results; it serves
// /healthz and /metrics on its own address. Run as many as there are
// machines for; each runs one job at a time on every core.
package worker

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"

	"uplift.dev/platform/postgres"
	"uplift.dev/platform/service"
	"uplift.dev/studio/internal/adapters/blobstore"
	pgrepo "uplift.dev/studio/internal/adapters/postgres"
	"uplift.dev/studio/internal/adapters/u2net"
	"uplift.dev/studio/internal/app"
	"uplift.dev/studio/internal/domain"
	"uplift.dev/studio/migrations"
)

// Settings are the worker binary's settings.
type Settings struct {
	DatabaseURL string `env:"DATABASE_URL" required:"true" secret:"true"`
	BlobURL     string `env:"STUDIO_BLOB_URL" required:"true"`
	// ORTLib and Model are the files `make studio-assets` fetches.
	ORTLib string `env:"STUDIO_ORT_LIB" required:"true"`
	Model  string `env:"STUDIO_MODEL" required:"true"`
	// Threads is ONNX Runtime's intra-op threads: the machine's cores.
	Threads int `env:"STUDIO_THREADS" default:"2"`
	// Lease is how long a job stays with a worker that stops renewing it
	// (one that died) before another takes it.
	Lease time.Duration `env:"STUDIO_LEASE" default:"60s"`
	// Poll is how often an idle worker looks for work.
	Poll        time.Duration `env:"STUDIO_POLL" default:"500ms"`
	MetricsAddr string        `env:"STUDIO_WORKER_METRICS_ADDR"`
	LogLevel    string        `env:"LOG_LEVEL" default:"info"`
}

// Main runs the worker until SIGINT or SIGTERM and exits non-zero with a
// message naming the problem if it cannot start.
func Main() {
	var s Settings
	service.Command("studioworker", &s, &s.LogLevel, func(ctx context.Context, log *slog.Logger) error { return run(ctx, s, log) })
}

func run(ctx context.Context, s Settings, log *slog.Logger) error {
	if s.Lease < 3*time.Second || s.Poll <= 0 || s.Threads < 1 {
		return errors.New("STUDIO_LEASE must be ≥ 3s, STUDIO_POLL and STUDIO_THREADS positive")
	}
	pool, err := postgres.Open(ctx, s.DatabaseURL, "studio")
	if err != nil {
		return err
	}
	defer pool.Close()
	// The studio service owns the schema and migrates it; this worker may be
	// another release, so it only waits for the migrations it was built with.
	if err := postgres.WaitMigrated(ctx, pool, "the studio service", log, migrations.FS); err != nil {
		return err
	}
	blobs, err := blobstore.Open(ctx, s.BlobURL)
	if err != nil {
		return fmt.Errorf("STUDIO_BLOB_URL: %w", err)
	}
	defer blobs.Close()
	model, err := u2net.Load(s.ORTLib, s.Model, s.Threads)
	if err != nil {
		return fmt.Errorf("STUDIO_ORT_LIB/STUDIO_MODEL: %w", err)
	}
	defer model.Close()

	reg := prometheus.NewRegistry()
	took := prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "studio_job_duration_seconds", Help: "Studio jobs by kind and outcome.",
		Buckets: []float64{0.25, 0.5, 1, 2, 4, 8, 16, 32},
	}, []string{"kind", "outcome"})
	reg.MustRegister(took, prometheus.NewGoCollector(), prometheus.NewProcessCollector(prometheus.ProcessCollectorOpts{}))
	if s.MetricsAddr != "" {
		// A listener that fails is logged; the jobs go on without it.
		go func() { _ = service.ServeHealth(ctx, s.MetricsAddr, reg, pool.Ping, log) }()
	}
	w := &app.Worker{Queue: pgrepo.Repo{Pool: pool}, Blobs: blobs, Model: model, Log: log,
		Lease: s.Lease, Poll: s.Poll, NewID: uuid.NewString,
		OnDone: func(kind domain.Kind, d time.Duration, err error) {
			outcome := "done"
			if err != nil {
				outcome = "error"
			}
			took.WithLabelValues(string(kind), outcome).Observe(d.Seconds())
		}}
	log.Info("ready", "threads", s.Threads)
	return w.Run(ctx)
}
