// Command categories runs the categories service.
package main

import (
	"context"

	"google.golang.org/grpc"

	categoriesv1 "uplift.dev/proto/gen/uplift/categories/v1"

	"uplift.dev/categories/internal/ports/grpcport"
	"uplift.dev/platform/grpcserver"
	"uplift.dev/platform/service"
)

type settings struct {
	service.Base
}

func main() {
	var cfg settings
	service.Main("categories", &cfg, &cfg.Base, nil, wire)
}

func wire(_ context.Context, _ *service.Runtime) (grpcserver.Options, []func(context.Context) error, error) {
	return grpcserver.Options{
		Public: grpcport.PublicMethods,
		Register: func(s *grpc.Server) {
			categoriesv1.RegisterCategoriesServiceServer(s, &grpcport.Server{})
		},
	}, nil, nil
}
