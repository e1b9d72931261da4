// Package service is the review service's composition root: it wires the
// analysis engine into the app and the app into the gRPC port.
package service

import (
	"context"

	"google.golang.org/grpc"

	reviewv1 "uplift.dev/proto/gen/uplift/review/v1"

	"uplift.dev/platform/grpcserver"
	"uplift.dev/platform/service"
	"uplift.dev/review/internal/adapters/engine"
	"uplift.dev/review/internal/app"
	"uplift.dev/review/internal/ports/grpcport"
)

// Settings are the review binary's settings.
type Settings struct {
	service.Base
	// Engine is how the engine writes text and what it may fetch (the
	// review worker reads the same).
	Engine engine.Settings
}

// Wire returns the composition root for settings s (read by service.Main
// before Wire runs).
func Wire(s *Settings) service.Wire {
	return func(_ context.Context, rt *service.Runtime) (grpcserver.Options, []func(context.Context) error, error) {
		es := s.Engine
		es.Now = rt.Clock
		a := app.New(engine.New(es)).WithClock(rt.Clock)
		return grpcserver.Options{
			Public: grpcport.PublicMethods,
			Register: func(g *grpc.Server) {
				reviewv1.RegisterReviewServiceServer(g, &grpcport.Server{App: a, Log: rt.Log})
			},
		}, nil, nil
	}
}
