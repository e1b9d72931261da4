// Package reviewtest serves the real review service's gRPC API for
// another service's tests: its app over the real engine, allowed to read
// the loopback sites tests serve themselves, without the database and bus
// the quick reads do not use.
package reviewtest

import (
	"io"
	"log/slog"
	"net"
	"testing"

	"google.golang.org/grpc"

	reviewv1 "uplift.dev/proto/gen/uplift/review/v1"

	"uplift.dev/review/internal/adapters/engine"
	"uplift.dev/review/internal/app"
	"uplift.dev/review/internal/ports/grpcport"
)

// Start serves the review API on a loopback port until t ends and returns
// its address, to dial as the caller dials it in production
// (grpcclient.New).
func Start(t testing.TB) string {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	a := app.New(engine.New(engine.Settings{AllowLoopback: true}))
	reviewv1.RegisterReviewServiceServer(srv, &grpcport.Server{App: a, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	return lis.Addr().String()
}
