// Package service is the composition every Uplift service shares: settings
// common to all, then Postgres with migrations, NATS with the outbox relay,
// Firebase token verification and the gRPC server, started and stopped in
// the right order.
package service

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"time"

	fbauth "firebase.google.com/go/v4/auth"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/sync/errgroup"
	"google.golang.org/grpc"

	"uplift.dev/platform/auth"
	"uplift.dev/platform/clock"
	"uplift.dev/platform/events"
	"uplift.dev/platform/grpcclient"
	"uplift.dev/platform/grpcserver"
	"uplift.dev/platform/mtls"
	"uplift.dev/platform/postgres"
	"uplift.dev/platform/program"
)

// Base holds the settings every service reads. Embed it in a service's
// own config struct.
type Base struct {
	GRPCAddr    string `env:"GRPC_ADDR" required:"true"`
	MetricsAddr string `env:"METRICS_ADDR"`
	DatabaseURL string `env:"DATABASE_URL" required:"true" secret:"true"`
	// DatabaseMaxConns caps the service's pool; unset, it is
	// max(4, GOMAXPROCS), which follows the container's CPU limit
	// (postgres.DefaultMaxConns, docs/operations.md's connection budget).
	DatabaseMaxConns int `env:"DATABASE_MAX_CONNS"`
	program.NATS
	// GRPC's TLS: the service's certificate serves its port and
	// identifies it on its own calls (Dial).
	GRPC                     mtls.Settings
	FirebaseProjectID        string `env:"FIREBASE_PROJECT_ID" required:"true"`
	FirebaseAuthEmulatorHost string `env:"FIREBASE_AUTH_EMULATOR_HOST"`
	// FirebaseTestCertsURL makes the service check ID tokens against a
	// local key set (auth.KeySetVerifier), as it would against Google's:
	// the benchmark stack only, refused outside a demo- project on the
	// emulator and off loopback.
	FirebaseTestCertsURL string `env:"FIREBASE_TEST_CERTS_URL"`
	LogLevel             string `env:"LOG_LEVEL" default:"info"`
	// DrainDelay is how long a stopping service keeps serving while it
	// reports NOT_SERVING (grpcserver.Options.DrainDelay); the Kubernetes
	// manifests set it, a local stop does not wait.
	DrainDelay time.Duration `env:"SHUTDOWN_DRAIN_DELAY" default:"0s"`
	// MigratedByStep says a step of its own (`NAME migrate`, a Kubernetes
	// init container) migrates the schema: the service then waits until
	// its schema has every migration it was built with, and applies none.
	// Unset (make run, tests), the service migrates as it starts.
	MigratedByStep bool `env:"MIGRATED_BY_STEP"`
}

// Runtime is what a service's composition root gets to build its app from.
type Runtime struct {
	Name string
	Log  *slog.Logger
	Pool *pgxpool.Pool
	NC   *nats.Conn
	JS   jetstream.JetStream
	// Bus is what event consumers take: JetStream, the pool, the log and
	// the senders to believe.
	Bus  events.Bus
	Auth *fbauth.Client
	// Clock is the service's one clock: Wire hands it to the app and to
	// every adapter that decides by the time (expiries, dates shown to
	// people, schedules), and Serve to the claims cache. The wall clock
	// unless a test sets another before Wire runs.
	Clock  clock.Clock
	signer *events.Signer
	base   Base
	// metrics holds the event bus's counters (dead letters), served with
	// the server's.
	metrics *prometheus.Registry
	// verifier checks each call's ID token (before the claims cache).
	verifier auth.Verifier
	// tls is the service's certificate; nil is plaintext (local mode).
	tls     *mtls.Source
	closers []func() error
}

// Dial connects to another service (grpcclient.New) with this service's
// own certificate when gRPC is mutual TLS.
func (rt *Runtime) Dial(addr string, opts ...grpc.DialOption) (*grpc.ClientConn, error) {
	if rt.tls != nil {
		opts = append([]grpc.DialOption{grpcclient.TLS(rt.tls)}, opts...)
	}
	return grpcclient.New(addr, opts...)
}

// Defer has f run by Close, after Serve has returned: once the server has
// answered every call in flight, so a connection to another service that a
// call still uses is closed only after it.
func (rt *Runtime) Defer(f func() error) { rt.closers = append(rt.closers, f) }

// MinServiceConns is the smallest pool a service may run on. Its outbox
// relay and its own queue (stores' syncs, digest's sends) each hold a
// connection for as long as it runs, waiting on LISTEN, and each round of
// their work needs one more: with two connections stores would hang for
// good, every call and every sync waiting for a connection that never
// comes back. Four leaves two for calls.
const MinServiceConns = 4

// enoughConns refuses a pool below MinServiceConns at start, with the
// settings that size it, rather than a service that accepts calls and
// answers none.
func enoughConns(size int32) error {
	if size < MinServiceConns {
		return fmt.Errorf("the database pool has %d connections, under the %d a service needs (its listeners hold two for as long as it runs): raise DATABASE_MAX_CONNS or DATABASE_URL's pool_max_conns", size, MinServiceConns)
	}
	return nil
}

// Start opens every connection and applies the outbox schema and then the
// service's migrations. Close releases what Start opened.
func Start(ctx context.Context, name, schema string, base Base, log *slog.Logger, migrations fs.FS) (*Runtime, error) {
	rt := &Runtime{Name: name, Log: log, base: base, Clock: clock.Real}
	var err error
	// Local mode is the Auth emulator's, as for NATS below.
	if rt.tls, err = base.GRPC.Open(base.FirebaseAuthEmulatorHost != "", log); err != nil {
		return nil, err
	}
	if rt.Auth, err = auth.NewFirebaseClient(ctx, base.FirebaseProjectID, base.FirebaseAuthEmulatorHost); err != nil {
		return nil, err
	}
	rt.verifier = auth.FirebaseVerifier{Client: rt.Auth}
	if base.FirebaseTestCertsURL != "" {
		if rt.verifier, err = auth.NewTestCertsVerifier(base.FirebaseProjectID, base.FirebaseAuthEmulatorHost,
			base.FirebaseTestCertsURL, rt.Auth); err != nil {
			return nil, err
		}
		log.Warn("ID tokens are checked against a local test key set (benchmark stack)", "certs", base.FirebaseTestCertsURL)
	}
	if rt.Pool, err = postgres.Open(ctx, base.DatabaseURL, schema, postgres.AppName(name), postgres.MaxConns(base.DatabaseMaxConns)); err != nil {
		return nil, err
	}
	if err := enoughConns(rt.Pool.Config().MaxConns); err != nil {
		rt.Pool.Close()
		return nil, err
	}
	if base.MigratedByStep {
		err = postgres.WaitMigrated(ctx, rt.Pool, name+" migrate", log, events.Migrations(), migrations)
	} else {
		err = postgres.Migrate(ctx, rt.Pool, events.Migrations(), migrations)
	}
	if err != nil {
		rt.Close()
		return nil, err
	}
	// Outside local mode (no Auth emulator) the service's keys are required.
	bus, err := base.NATS.Connect(ctx, name, name, base.FirebaseAuthEmulatorHost != "")
	if err != nil {
		rt.Close()
		return nil, err
	}
	rt.NC, rt.JS, rt.signer = bus.NC, bus.JS, bus.Signer
	// The consumers' and the relay's dead letters are counted on the
	// service's /metrics (Serve).
	rt.metrics = prometheus.NewRegistry()
	rt.Bus = events.Bus{JS: rt.JS, Pool: rt.Pool, Log: log, Trust: bus.Trust, Metrics: events.NewConsumerMetrics(rt.metrics, name)}
	return rt, nil
}

// Close releases connections.
func (rt *Runtime) Close() {
	for i := len(rt.closers) - 1; i >= 0; i-- {
		if err := rt.closers[i](); err != nil {
			rt.Log.Warn("close", "err", err)
		}
	}
	rt.closers = nil
	if rt.NC != nil {
		_ = rt.NC.Drain()
	}
	if rt.Pool != nil {
		rt.Pool.Close()
	}
}

// Serve runs the gRPC server, the outbox relay and any extra workers (event
// consumers) until ctx ends or one of them fails.
func (rt *Runtime) Serve(ctx context.Context, o grpcserver.Options, workers ...func(context.Context) error) error {
	o.Name, o.Log = rt.Name, rt.Log
	if o.Addr == "" {
		o.Addr = rt.base.GRPCAddr
	}
	if o.MetricsAddr == "" {
		o.MetricsAddr = rt.base.MetricsAddr
	}
	if o.DrainDelay == 0 {
		o.DrainDelay = rt.base.DrainDelay
	}
	relay := &events.Relay{Pool: rt.Pool, JS: rt.JS, Log: rt.Log, Signer: rt.signer, Metrics: events.NewRelayMetrics(rt.metrics)}
	if o.Metrics != nil {
		o.Metrics = prometheus.Gatherers{o.Metrics, rt.metrics}
	} else {
		o.Metrics = rt.metrics
	}
	o.Verifier, o.Clock, o.TLS = rt.verifier, rt.Clock, rt.tls
	if v, ok := o.Verifier.(auth.KeySetVerifier); ok {
		v.Now = rt.Clock
		o.Verifier = v
	}
	g, ctx := errgroup.WithContext(ctx)
	g.Go(func() error { return grpcserver.Run(ctx, o) })
	g.Go(func() error { return relay.Run(ctx) })
	g.Go(func() error { return events.RunPruner(ctx, rt.Pool, rt.Log, rt.Clock.Now) })
	for _, w := range workers {
		g.Go(func() error { return w(ctx) })
	}
	if err := g.Wait(); err != nil {
		return fmt.Errorf("%s: %w", rt.Name, err)
	}
	return nil
}
