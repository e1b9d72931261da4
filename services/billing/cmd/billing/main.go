// Command billing runs the billing service.
package main

import (
	"context"

	"google.golang.org/grpc"

	billingv1 "uplift.dev/proto/gen/uplift/billing/v1"

	"uplift.dev/billing/internal/ports/grpcport"
	"uplift.dev/platform/grpcserver"
	"uplift.dev/platform/service"
)

type settings struct {
	service.Base
}

func main() {
	var cfg settings
	service.Main("billing", &cfg, &cfg.Base, nil, wire)
}

func wire(_ context.Context, _ *service.Runtime) (grpcserver.Options, []func(context.Context) error, error) {
	return grpcserver.Options{
		Public: grpcport.PublicMethods,
		Register: func(s *grpc.Server) {
			billingv1.RegisterBillingServiceServer(s, &grpcport.Server{})
		},
	}, nil, nil
}
