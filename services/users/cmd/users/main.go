// Command users runs the users service: accounts, profiles and admin.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"google.golang.org/grpc"

	usersv1 "uplift.dev/proto/gen/uplift/users/v1"

	"uplift.dev/platform/config"
	"uplift.dev/platform/grpcserver"
	"uplift.dev/platform/logging"
	"uplift.dev/platform/service"
	"uplift.dev/users/internal/adapters/firebase"
	"uplift.dev/users/internal/adapters/postgres"
	"uplift.dev/users/internal/app"
	"uplift.dev/users/internal/ports/grpcport"
	"uplift.dev/users/migrations"
)

type settings struct {
	service.Base
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "users:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context) error {
	var cfg settings
	if err := config.Load(&cfg, os.LookupEnv); err != nil {
		return err
	}
	log := logging.New(os.Stderr, "users", cfg.LogLevel)
	log.Info("starting", "config", config.Describe(&cfg))
	rt, err := service.Start(ctx, "users", "users", cfg.Base, log, migrations.FS)
	if err != nil {
		return err
	}
	defer rt.Close()
	a := app.New(firebase.Identity{Client: rt.Auth}, postgres.Repo{Pool: rt.Pool}, log)
	return rt.Serve(ctx, grpcserver.Options{
		Public: grpcport.PublicMethods,
		Register: func(s *grpc.Server) {
			usersv1.RegisterUsersServiceServer(s, &grpcport.Server{App: a, Log: log})
		},
	})
}
