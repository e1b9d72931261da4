// Package service is the review service's composition root: it wires the
// analysis engine and the review schema into the app, and the app into the
// gRPC port and, without a worker, the review consumer.
package service

import (
	"context"
	"time"

	"google.golang.org/grpc"

	reviewv1 "uplift.dev/proto/gen/uplift/review/v1"

	"uplift.dev/platform/grpcserver"
	"uplift.dev/platform/service"
	"uplift.dev/review/internal/adapters/engine"
	"uplift.dev/review/internal/adapters/postgres"
	"uplift.dev/review/internal/app"
	"uplift.dev/review/internal/ports/eventport"
	"uplift.dev/review/internal/ports/grpcport"
)

// Settings are the review binary's settings.
type Settings struct {
	service.Base
	// Engine is how the engine writes text and what it may fetch (the
	// review worker reads the same).
	Engine engine.Settings
	// ReviewsInWorker leaves ReviewRequested to the review worker
	// (cmd/reviewworker), which also measures speed in Chromium; false
	// runs the reviews here, without a browser.
	ReviewsInWorker bool `env:"REVIEWS_IN_WORKER" default:"false"`
}

// Wire returns the composition root for settings s (read by service.Main
// before Wire runs).
func Wire(s *Settings) service.Wire {
	return func(_ context.Context, rt *service.Runtime) (grpcserver.Options, []func(context.Context) error, error) {
		es := s.Engine
		es.Now = rt.Clock
		a := app.New(engine.New(es), rt.Log).WithClock(rt.Clock).WithRuns(postgres.New(rt.Pool, rt.Clock), app.Options{})
		consumers := eventport.Consumers{Bus: rt.Bus, App: a}
		// The service prunes the runs whether or not its worker reviews.
		workers := []func(context.Context) error{func(ctx context.Context) error { return a.RunRunsPruner(ctx, time.Hour) }}
		if !s.ReviewsInWorker {
			workers = append(workers, consumers.Workers()...)
		}
		return grpcserver.Options{
			Public: grpcport.PublicMethods,
			Register: func(g *grpc.Server) {
				reviewv1.RegisterReviewServiceServer(g, &grpcport.Server{App: a, Log: rt.Log})
			},
		}, workers, nil
	}
}
