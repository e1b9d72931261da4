package service

import (
	"context"
	"io/fs"
	"log/slog"
	"os"

	"uplift.dev/platform/grpcserver"
	"uplift.dev/platform/program"
)

// Wire builds a service's server options and background workers from the
// runtime; it is each service's composition root.
type Wire func(ctx context.Context, rt *Runtime) (grpcserver.Options, []func(context.Context) error, error)

// Main runs a service binary until SIGINT or SIGTERM: it loads settings into
// cfg (a struct embedding Base, whose address is base), starts the runtime
// with the service's migrations (nil for none) and serves what wire builds.
// It exits non-zero with a message naming the problem if any step fails.
//
// `NAME migrate` only migrates the service's schema and exits: the step a
// deployment runs before the new copies start (a Kubernetes init
// container), reading nothing but DATABASE_URL (and LOG_LEVEL).
func Main(name string, cfg any, base *Base, migrations fs.FS, wire Wire) {
	if len(os.Args) > 1 && os.Args[1] == "migrate" {
		var m struct {
			DatabaseURL string `env:"DATABASE_URL" required:"true" secret:"true"`
			LogLevel    string `env:"LOG_LEVEL" default:"info"`
		}
		program.Command(name+"-migrate", &m, &m.LogLevel, func(ctx context.Context, log *slog.Logger) error {
			if err := program.MigrateSchema(ctx, m.DatabaseURL, name, migrations); err != nil {
				return err
			}
			log.Info("schema migrated", "schema", name)
			return nil
		})
		return
	}
	program.Command(name, cfg, &base.LogLevel, func(ctx context.Context, log *slog.Logger) error {
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
	})
}
