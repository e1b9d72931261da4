// Package service is the users service's composition root: it wires the
// adapters into the app and the app into the gRPC port.
package service

import (
	"context"

	"google.golang.org/grpc"

	usersv1 "uplift.dev/proto/gen/uplift/users/v1"

	"uplift.dev/platform/grpcserver"
	"uplift.dev/platform/service"
	"uplift.dev/users/internal/adapters/firebase"
	"uplift.dev/users/internal/adapters/postgres"
	"uplift.dev/users/internal/app"
	"uplift.dev/users/internal/ports/eventport"
	"uplift.dev/users/internal/ports/grpcport"
)

// Wire builds the users service on a started runtime.
func Wire(_ context.Context, rt *service.Runtime) (grpcserver.Options, []func(context.Context) error, error) {
	repo := postgres.Repo{Pool: rt.Pool}
	a := app.New(firebase.Identity{Client: rt.Auth}, repo, rt.Log)
	billing := eventport.BillingConsumer{JS: rt.JS, Pool: rt.Pool, Store: repo, Log: rt.Log}
	return grpcserver.Options{
		Public: grpcport.PublicMethods,
		Register: func(s *grpc.Server) {
			usersv1.RegisterUsersServiceServer(s, &grpcport.Server{App: a, Log: rt.Log})
		},
	}, []func(context.Context) error{billing.Run}, nil
}
