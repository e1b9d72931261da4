// Package program is the start-up every program shares (a service, a
// worker beside one, the gateway, a setup command): settings, the log,
// tracing, the bus and, for workers, the database and their probes. It
// holds nothing of a gRPC server's, so a worker links neither the server's
// token checks nor the Firebase Admin SDK they need (package service).
package program

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"uplift.dev/platform/buildinfo"
	"uplift.dev/platform/config"
	"uplift.dev/platform/events"
	"uplift.dev/platform/logging"
	"uplift.dev/platform/postgres"
	"uplift.dev/platform/tracing"
)

// MigrateSchema applies the event tables' and the service's migrations to
// schema, what `NAME migrate` and a start without MIGRATED_BY_STEP do.
func MigrateSchema(ctx context.Context, databaseURL, schema string, migrations fs.FS) error {
	// One connection does it all: Open's look for the schema returns it to
	// the pool before Migrate takes it, and a release's copies migrating at
	// once each hold no more of the database's connections than that.
	pool, err := postgres.Open(ctx, databaseURL, schema, postgres.AppName(schema+"-migrate"), postgres.MaxConns(1))
	if err != nil {
		return err
	}
	defer pool.Close()
	return postgres.Migrate(ctx, pool, events.Migrations(), migrations)
}

// Command runs a binary (a service, a worker beside one, the gateway)
// until SIGINT or SIGTERM: it loads settings into cfg, makes the log at the
// level logLevel points to (a field of cfg), starts tracing from the
// OTEL_* variables (tracing.Settings: off without a collector) and runs
// run; once run returns, the spans still buffered are sent. It exits
// non-zero with a message naming the problem if loading or run fails.
func Command(name string, cfg any, logLevel *string, run func(ctx context.Context, log *slog.Logger) error) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := func() error {
		var traces tracing.Settings
		if err := errors.Join(config.Load(cfg, os.LookupEnv), config.Load(&traces, os.LookupEnv)); err != nil {
			return err
		}
		log := logging.New(os.Stderr, name, *logLevel)
		log.Info("starting", "version", buildinfo.Version(), "revision", buildinfo.Revision(), "config", config.Describe(cfg))
		stopTracing, err := tracing.Start(ctx, name, traces, log)
		if err != nil {
			return err
		}
		defer func() {
			// ctx has ended by now: the flush gets a few seconds of its own.
			flushCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			defer cancel()
			if err := stopTracing(flushCtx); err != nil {
				log.Warn("tracing: spans not flushed", "err", err)
			}
		}()
		return run(ctx, log)
	}()
	stop()
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		os.Exit(1)
	}
}

// ServeHealth serves a worker's /metrics (reg) and /healthz (ping: the
// database reachable) on addr until ctx ends. A worker has no gRPC port,
// so this is what its probes and Prometheus reach.
func ServeHealth(ctx context.Context, addr string, reg *prometheus.Registry, ping func(context.Context) error, log *slog.Logger) error {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		if err := ping(r.Context()); err != nil {
			http.Error(w, "database unreachable", http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write([]byte("ok\n"))
	})
	srv := &http.Server{Addr: addr, Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	if err := srv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Error("metrics listener", "err", err)
		return err
	}
	return nil
}
