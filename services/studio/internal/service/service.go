// Package service is the studio API's composition root: it wires the
// Postgres, blob and categories adapters into the app, and the app into the
// gRPC port and the event consumers. The model never loads here: it runs in
// the worker (package worker, binary studioworker).
package service

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"google.golang.org/grpc"

	"uplift.dev/proto/categoryaccess"
	studiov1 "uplift.dev/proto/gen/uplift/studio/v1"

	"uplift.dev/platform/events"
	"uplift.dev/platform/grpcserver"
	"uplift.dev/platform/service"
	"uplift.dev/studio/bus"
	"uplift.dev/studio/internal/adapters/blobstore"
	"uplift.dev/studio/internal/adapters/categories"
	"uplift.dev/studio/internal/adapters/postgres"
	"uplift.dev/studio/internal/app"
	"uplift.dev/studio/internal/ports/eventport"
	"uplift.dev/studio/internal/ports/grpcport"
)

// Settings are the studio binary's settings.
type Settings struct {
	service.Base
	CategoriesAddr string `env:"CATEGORIES_ADDR" default:"127.0.0.1:9002"`
	// BlobURL is where images are kept: file:///dir (the default, under
	// .local), s3://bucket?region=… or gs://bucket.
	BlobURL string `env:"STUDIO_BLOB_URL" required:"true"`
}

// MaxUploadMessage is the largest request the service accepts: a 25 MB
// photo as base64 in JSON is about 34 MB.
const MaxUploadMessage = 40 << 20

// Wire returns the composition root for settings s.
func Wire(s *Settings) service.Wire {
	return func(ctx context.Context, rt *service.Runtime) (grpcserver.Options, []func(context.Context) error, error) {
		blobs, err := blobstore.Open(ctx, s.BlobURL)
		if err != nil {
			return grpcserver.Options{}, nil, fmt.Errorf("STUDIO_BLOB_URL: %w", err)
		}
		// A catalogue photo comes back whole in one message (up to 25 MB).
		conn, err := rt.Dial(s.CategoriesAddr, grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(MaxUploadMessage)))
		if err != nil {
			return grpcserver.Options{}, nil, fmt.Errorf("CATEGORIES_ADDR: %w", err)
		}
		repo := postgres.Repo{Pool: rt.Pool}
		access := categoryaccess.New(conn, categoryaccess.Options{Clock: rt.Clock})
		a := app.New(repo, blobs, categories.New(access), rt.Log).WithCatalogue(categories.NewCatalogue(conn)).WithClock(rt.Clock)
		consumers := eventport.Consumers{Bus: rt.Bus, App: a,
			InTx: func(tx pgx.Tx) app.EventStore { return postgres.TxRepo{Tx: tx} }}
		rt.Defer(func() error { return errors.Join(conn.Close(), blobs.Close()) })
		workers := append(consumers.Workers(),
			events.Listen(rt.NC, rt.Bus.Trust, rt.Log, bus.CategoryAccess, access.OnCategoryUpdated),
			events.Listen(rt.NC, rt.Bus.Trust, rt.Log, bus.RoleAccess, access.OnUserRoleChanged))
		return grpcserver.Options{
			MaxRecvMsgBytes: MaxUploadMessage,
			Register: func(g *grpc.Server) {
				studiov1.RegisterStudioServiceServer(g, &grpcport.Server{App: a, Log: rt.Log})
			},
		}, workers, nil
	}
}
