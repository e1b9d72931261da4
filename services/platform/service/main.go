package service

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/signal"
	"syscall"

	"uplift.dev/platform/config"
	"uplift.dev/platform/grpcserver"
	"uplift.dev/platform/logging"
)

// Wire builds a service's server options and background workers from the
// runtime; it is each service's composition root.
type Wire func(ctx context.Context, rt *Runtime) (grpcserver.Options, []func(context.Context) error, error)

// Main runs a service binary until SIGINT or SIGTERM: it loads settings into
// cfg (a struct embedding Base, whose address is base), starts the runtime
// with the service's migrations (nil for none) and serves what wire builds.
// It exits non-zero with a message naming the problem if any step fails.
func Main(name string, cfg any, base *Base, migrations fs.FS, wire Wire) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, name, cfg, base, migrations, wire)
	stop()
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		os.Exit(1)
	}
}

func run(ctx context.Context, name string, cfg any, base *Base, migrations fs.FS, wire Wire) error {
	if err := config.Load(cfg, os.LookupEnv); err != nil {
		return err
	}
	log := logging.New(os.Stderr, name, base.LogLevel)
	log.Info("starting", "config", config.Describe(cfg))
	rt, err := Start(ctx, name, name, *base, log, migrations)
	if err != nil {
		return err
	}
	defer rt.Close()
	opts, workers, err := wire(ctx, rt)
	if err != nil {
		return err
	}
	return rt.Serve(ctx, opts, workers...)
}
