package grpcclient

import (
	"context"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/resolver"
	"google.golang.org/grpc/resolver/manual"
	"google.golang.org/grpc/status"
)

// copies starts n servers that count the calls each one answers, and a
// resolver that names them all, as DNS names a headless Service's pods.
func copies(t *testing.T, n int) (*manual.Resolver, []*health.Server, func() []int, []string) {
	t.Helper()
	var mu sync.Mutex
	counts := make([]int, n)
	r := manual.NewBuilderWithScheme("copies")
	var addrs []resolver.Address
	var healths []*health.Server
	for i := range n {
		lis, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		srv := grpc.NewServer(grpc.UnaryInterceptor(func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
			mu.Lock()
			counts[i]++
			mu.Unlock()
			return next(ctx, req)
		}))
		hs := health.NewServer()
		healthpb.RegisterHealthServer(srv, hs)
		healths = append(healths, hs)
		go func() { _ = srv.Serve(lis) }()
		t.Cleanup(srv.Stop)
		addrs = append(addrs, resolver.Address{Addr: lis.Addr().String()})
	}
	r.InitialState(resolver.State{Addresses: addrs})
	var list []string
	for _, a := range addrs {
		list = append(list, a.Addr)
	}
	return r, healths, func() []int {
		mu.Lock()
		defer mu.Unlock()
		return append([]int(nil), counts...)
	}, list
}

// Calls spread over every copy the name resolves to, evenly; gRPC's
// default (pick_first) sends them all to one.
func TestCallsSpreadOverEveryCopy(t *testing.T) {
	r, _, counts, _ := copies(t, 4)
	conn, err := New("copies:///users", grpc.WithResolvers(r))
	if err != nil {
		t.Fatal(err)
	}
	spreadsEvenly(t, conn, counts)
}

// A fixed list of copies, "host:port,host:port", is balanced the same way
// as the copies a name resolves to.
func TestAListOfCopiesIsBalancedLikeAName(t *testing.T) {
	_, _, counts, addrs := copies(t, 4)
	conn, err := New(strings.Join(addrs, ","))
	if err != nil {
		t.Fatal(err)
	}
	spreadsEvenly(t, conn, counts)
}

func spreadsEvenly(t *testing.T, conn *grpc.ClientConn, counts func() []int) {
	t.Helper()
	defer conn.Close()
	client := healthpb.NewHealthClient(conn)
	for range 400 {
		if _, err := client.Check(context.Background(), &healthpb.HealthCheckRequest{Service: "probe"}); err != nil && !isNotFound(err) {
			t.Fatal(err)
		}
	}
	for i, n := range counts() {
		if n < 75 || n > 125 {
			t.Fatalf("copy %d answered %d of 400 calls, want about 100 each: %v", i, n, counts())
		}
	}
}

// A copy that reports NOT_SERVING (draining before it stops) gets no new
// calls, while it still answers.
func TestADrainingCopyLeavesTheRotation(t *testing.T) {
	r, healths, counts, _ := copies(t, 2)
	conn, err := New("copies:///users", grpc.WithResolvers(r))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	client := healthpb.NewHealthClient(conn)
	call := func() {
		t.Helper()
		if _, err := client.Check(context.Background(), &healthpb.HealthCheckRequest{Service: "probe"}); err != nil && !isNotFound(err) {
			t.Fatal(err)
		}
	}
	for range 20 {
		call()
	}
	healths[0].Shutdown() // every service NOT_SERVING, as grpcserver does on SIGTERM
	waitFor(t, func() bool {
		before := counts()[0]
		for range 20 {
			call()
		}
		return counts()[0] == before
	})
	before := counts()
	for range 100 {
		call()
	}
	after := counts()
	if after[0] != before[0] || after[1] != before[1]+100 {
		t.Fatalf("while copy 0 drained, calls went %v → %v; want all 100 on copy 1", before, after)
	}
}

func isNotFound(err error) bool { return status.Code(err) == codes.NotFound }

func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 5 s")
		}
		time.Sleep(20 * time.Millisecond)
	}
}
