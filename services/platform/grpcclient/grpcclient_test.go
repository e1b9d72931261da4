package grpcclient

import (
	"context"
	"net"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)

func serve(t *testing.T, addr string) *grpc.Server {
	t.Helper()
	var lis net.Listener
	var err error
	for range 50 { // the old listener's port can take a moment to free
		if lis, err = net.Listen("tcp", addr); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	healthpb.RegisterHealthServer(srv, health.NewServer())
	go func() { _ = srv.Serve(lis) }()
	return srv
}

// TestARestartedServiceIsReachedAgainQuickly: with gRPC's default backoff
// (1 s growing by 1.6× to 120 s) a caller kept failing for seconds after
// the service it calls was back, longer the longer it was down. A service
// down for 3 s under steady calls is reached within a second of its return.
func TestARestartedServiceIsReachedAgainQuickly(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := lis.Addr().String()
	lis.Close()
	srv := serve(t, addr)

	conn, err := New(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	client := healthpb.NewHealthClient(conn)
	call := func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		defer cancel()
		_, err := client.Check(ctx, &healthpb.HealthCheckRequest{})
		return err
	}
	if err := call(); err != nil {
		t.Fatal(err)
	}

	srv.Stop()
	down := time.Now()
	for time.Since(down) < 3*time.Second { // callers keep calling meanwhile
		_ = call()
		time.Sleep(50 * time.Millisecond)
	}
	srv = serve(t, addr)
	defer srv.Stop()
	back := time.Now()
	for call() != nil {
		if time.Since(back) > 1500*time.Millisecond {
			t.Fatalf("still failing %s after the service came back", time.Since(back).Round(time.Millisecond))
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("reached again %s after the service came back", time.Since(back).Round(time.Millisecond))
}
