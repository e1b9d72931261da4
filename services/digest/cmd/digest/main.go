// Command digest runs the digest service.
package main

import (
	"context"

	"google.golang.org/grpc"

	digestv1 "uplift.dev/proto/gen/uplift/digest/v1"

	"uplift.dev/digest/internal/ports/grpcport"
	"uplift.dev/platform/grpcserver"
	"uplift.dev/platform/service"
)

type settings struct {
	service.Base
}

func main() {
	var cfg settings
	service.Main("digest", &cfg, &cfg.Base, nil, wire)
}

func wire(_ context.Context, _ *service.Runtime) (grpcserver.Options, []func(context.Context) error, error) {
	return grpcserver.Options{
		Public: grpcport.PublicMethods,
		Register: func(s *grpc.Server) {
			digestv1.RegisterDigestServiceServer(s, &grpcport.Server{})
		},
	}, nil, nil
}
