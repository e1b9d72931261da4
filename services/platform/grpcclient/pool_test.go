package grpcclient

import (
	"context"
	"net"
	"sync"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/peer"
)

// The pool's calls arrive over n connections (n client ports), in turn.
func TestPoolSpreadsCallsOverItsConnections(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	seen := map[string]int{}
	srv := grpc.NewServer(grpc.UnaryInterceptor(func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
		p, _ := peer.FromContext(ctx)
		mu.Lock()
		seen[p.Addr.String()]++
		mu.Unlock()
		return next(ctx, req)
	}))
	healthpb.RegisterHealthServer(srv, health.NewServer())
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)

	pool, err := NewPool(lis.Addr().String(), 3)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	client := healthpb.NewHealthClient(pool)
	for range 9 {
		if _, err := client.Check(context.Background(), &healthpb.HealthCheckRequest{}); err != nil {
			t.Fatal(err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 3 {
		t.Fatalf("calls came over %d connections, want 3: %v", len(seen), seen)
	}
	for addr, n := range seen {
		if n != 3 {
			t.Fatalf("%s carried %d calls, want 3 each: %v", addr, n, seen)
		}
	}
}
