package program

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"slices"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/sync/errgroup"

	"uplift.dev/platform/buildinfo"
	"uplift.dev/platform/clock"
	"uplift.dev/platform/events"
	"uplift.dev/platform/postgres"
)

// Worker is the runtime every worker binary shares: a second process of a
// service that does its heavy work (a model, a browser) apart from the
// API, on the service's schema. Run opens the database, waits until the
// service has migrated it (the worker may be another release and never
// migrates), connects to the bus when NATS is set and relays the outbox
// there, serves /healthz and /metrics, and runs what the worker's
// composition root builds until ctx ends or one of its jobs fails.
type Worker struct {
	// Name is the binary's name, for its logs and its NATS connection.
	Name string
	// Service owns the schema and, on the bus, the identity the worker
	// signs in and publishes with.
	Service     string
	DatabaseURL string
	// DatabaseMaxConns caps the worker's pool (DATABASE_MAX_CONNS); 0 is
	// postgres.DefaultMaxConns.
	DatabaseMaxConns int
	// Migrations are the service's own (the event tables' are always
	// waited for too): the worker starts once the schema has them all.
	Migrations fs.FS
	// MetricsAddr serves /healthz and /metrics; empty serves neither.
	MetricsAddr string
	// NATS, when set, connects the worker to the bus as Service; without
	// keys only if Anonymous (a test's plain NATS).
	NATS      *NATS
	Anonymous bool
}

// WorkerRuntime is what a worker's composition root builds its jobs from.
type WorkerRuntime struct {
	Name string
	Log  *slog.Logger
	Pool *pgxpool.Pool
	// Bus is what event consumers take; its JS is nil without NATS.
	Bus events.Bus
	// Metrics is served on /metrics: the worker registers its own here.
	Metrics *prometheus.Registry
	// Clock is the worker's one clock, as Runtime.Clock is the service's.
	Clock clock.Clock
	// closers run once every job has stopped, last added first.
	closers []func()
}

// Defer has f run once every job has stopped (a model or a bucket the
// jobs use), before the connections close.
func (rt *WorkerRuntime) Defer(f func()) { rt.closers = append(rt.closers, f) }

// WorkerWire builds a worker's jobs from its runtime: the worker's
// composition root, as Wire is a service's.
type WorkerWire func(ctx context.Context, rt *WorkerRuntime) ([]func(context.Context) error, error)

// Run runs the worker until ctx ends (nil) or a job fails (its error).
func (w Worker) Run(ctx context.Context, log *slog.Logger, wire WorkerWire) error {
	pool, err := postgres.Open(ctx, w.DatabaseURL, w.Service, postgres.AppName(w.Name), postgres.MaxConns(w.DatabaseMaxConns))
	if err != nil {
		return err
	}
	defer pool.Close()
	owner := "the " + w.Service + " service"
	if err := postgres.WaitMigrated(ctx, pool, owner, log, events.Migrations(), w.Migrations); err != nil {
		if ctx.Err() != nil {
			return nil // stopped while it waited for the schema: a clean stop
		}
		return err
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(prometheus.NewGoCollector(), prometheus.NewProcessCollector(prometheus.ProcessCollectorOpts{}), buildinfo.Collector())
	rt := &WorkerRuntime{Name: w.Name, Log: log, Pool: pool, Metrics: reg, Clock: clock.Real,
		Bus: events.Bus{Pool: pool, Log: log, Metrics: events.NewConsumerMetrics(reg, w.Service)}}
	var jobs []func(context.Context) error
	if w.NATS != nil {
		bus, err := w.NATS.Connect(ctx, w.Name, w.Service, w.Anonymous)
		if err != nil {
			return err
		}
		defer func() { _ = bus.NC.Drain() }()
		rt.Bus.JS, rt.Bus.Trust = bus.JS, bus.Trust
		relay := &events.Relay{Pool: pool, JS: bus.JS, Log: log, Signer: bus.Signer, Metrics: events.NewRelayMetrics(reg)}
		jobs = append(jobs, relay.Run)
	}
	defer func() {
		for _, f := range slices.Backward(rt.closers) {
			f()
		}
	}()
	own, err := wire(ctx, rt)
	if err != nil {
		return err
	}
	jobs = append(jobs, own...)
	if len(jobs) == 0 {
		return errors.New(w.Name + ": nothing to run")
	}
	g, gctx := errgroup.WithContext(ctx)
	if w.MetricsAddr != "" {
		// A probe listener that fails is logged (ServeHealth); the jobs go on.
		health := make(chan struct{})
		go func() {
			defer close(health)
			_ = ServeHealth(gctx, w.MetricsAddr, reg, pool.Ping, log)
		}()
		defer func() { <-health }()
	}
	for _, job := range jobs {
		g.Go(func() error { return job(gctx) })
	}
	log.Info("ready")
	if err := g.Wait(); err != nil && ctx.Err() == nil {
		return fmt.Errorf("%s: %w", w.Name, err)
	}
	return nil
}
