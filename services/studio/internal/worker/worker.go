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

	"uplift.dev/platform/program"
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
	// DatabaseMaxConns caps the worker's pool (program.Worker).
	DatabaseMaxConns int    `env:"DATABASE_MAX_CONNS"`
	BlobURL          string `env:"STUDIO_BLOB_URL" required:"true"`
	// ORTLib and Model are the files `make studio-assets` fetches.
	ORTLib string `env:"STUDIO_ORT_LIB" required:"true"`
	Model  string `env:"STUDIO_MODEL" required:"true"`
	// Threads is ONNX Runtime's intra-op threads: the machine's cores.
	Threads int `env:"STUDIO_THREADS" default:"2"`
	// ModelMemory trades the model's peak memory against its speed:
	// "fast" (the worker's peak on three 1024² cut-outs 346–354 MB) or
	// "small" (about as small since 2026-12-07, and slower); see
	// u2net.Memory.
	ModelMemory string `env:"STUDIO_MODEL_MEMORY" default:"fast"`
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
	program.Command("studioworker", &s, &s.LogLevel, func(ctx context.Context, log *slog.Logger) error {
		w := program.Worker{Name: "studioworker", Service: "studio", DatabaseURL: s.DatabaseURL,
			DatabaseMaxConns: s.DatabaseMaxConns, Migrations: migrations.FS, MetricsAddr: s.MetricsAddr}
		return w.Run(ctx, log, Wire(&s))
	})
}

// Wire returns the worker's composition root for settings s (read by Main
// before Wire runs).
func Wire(s *Settings) program.WorkerWire {
	return func(ctx context.Context, rt *program.WorkerRuntime) ([]func(context.Context) error, error) {
		if s.Lease < 3*time.Second || s.Poll <= 0 || s.Threads < 1 {
			return nil, errors.New("STUDIO_LEASE must be ≥ 3s, STUDIO_POLL and STUDIO_THREADS positive")
		}
		blobs, err := blobstore.Open(ctx, s.BlobURL)
		if err != nil {
			return nil, fmt.Errorf("STUDIO_BLOB_URL: %w", err)
		}
		rt.Defer(func() { _ = blobs.Close() })
		mem := u2net.Memory(s.ModelMemory)
		if mem != u2net.MemoryFast && mem != u2net.MemorySmall {
			return nil, fmt.Errorf("STUDIO_MODEL_MEMORY is %q: want %q or %q", s.ModelMemory, u2net.MemoryFast, u2net.MemorySmall)
		}
		model, err := u2net.Load(s.ORTLib, s.Model, u2net.Options{Threads: s.Threads, Memory: mem})
		if err != nil {
			return nil, fmt.Errorf("STUDIO_ORT_LIB/STUDIO_MODEL: %w", err)
		}
		rt.Defer(model.Close)
		took := prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "studio_job_duration_seconds", Help: "Studio jobs by kind and outcome.",
			Buckets: []float64{0.25, 0.5, 1, 2, 4, 8, 16, 32},
		}, []string{"kind", "outcome"})
		rt.Metrics.MustRegister(took)
		w := &app.Worker{Queue: pgrepo.Repo{Pool: rt.Pool}, Blobs: blobs, Model: model, Log: rt.Log,
			Lease: s.Lease, Poll: s.Poll, NewID: uuid.NewString,
			OnDone: func(kind domain.Kind, d time.Duration, err error) {
				outcome := "done"
				if err != nil {
					outcome = "error"
				}
				took.WithLabelValues(string(kind), outcome).Observe(d.Seconds())
			}}
		rt.Log.Info("model loaded", "threads", s.Threads, "memory", mem, "scaledResizes", model.ScaledResizes())
		return []func(context.Context) error{w.Run}, nil
	}
}
