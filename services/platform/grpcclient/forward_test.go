package grpcclient

import (
	"context"
	"net"
	"strings"
	"sync"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"
)

// callee is a service that records the "authorization" each call brought.
type callee struct {
	mu   sync.Mutex
	seen []string
}

func (c *callee) record(ctx context.Context) {
	md, _ := metadata.FromIncomingContext(ctx)
	c.mu.Lock()
	c.seen = append(c.seen, strings.Join(md.Get("authorization"), ","))
	c.mu.Unlock()
}

func (c *callee) last(t *testing.T) string {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.seen) == 0 {
		t.Fatal("the callee saw no call")
	}
	return c.seen[len(c.seen)-1]
}

// listen serves srv on a loopback port and returns its address.
func listen(t *testing.T, srv *grpc.Server) string {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	healthpb.RegisterHealthServer(srv, health.NewServer())
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	return lis.Addr().String()
}

func dial(t *testing.T, addr string) *grpc.ClientConn {
	t.Helper()
	// These callees answer every stream with a bare record, the health
	// watch that balancing makes included; their health is not the test.
	conn, err := New(addr, grpc.WithDisableHealthCheck())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// A service that calls another while serving a call does it as its caller:
// the caller's token arrives at the callee, unary and streaming, without
// the service's code touching metadata. With no caller (an event consumer,
// a schedule) the call carries no token.
func TestACallForwardsItsCallersIdentity(t *testing.T) {
	got := &callee{}
	calleeAddr := listen(t, grpc.NewServer(
		grpc.UnaryInterceptor(func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
			got.record(ctx)
			return next(ctx, req)
		}),
		grpc.StreamInterceptor(func(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, next grpc.StreamHandler) error {
			got.record(ss.Context())
			return nil // the record is all this test needs; no stream follows
		})))
	toCallee := healthpb.NewHealthClient(dial(t, calleeAddr))

	// The service in the middle calls the callee from inside its handler,
	// with the handler's context and nothing else.
	serviceAddr := listen(t, grpc.NewServer(grpc.UnaryInterceptor(
		func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
			if _, err := toCallee.Check(ctx, &healthpb.HealthCheckRequest{}); err != nil {
				return nil, err
			}
			stream, err := toCallee.Watch(ctx, &healthpb.HealthCheckRequest{})
			if err != nil {
				return nil, err
			}
			_, _ = stream.Recv()
			return next(ctx, req)
		})))
	// The first hop puts its token on the outgoing call itself, as the
	// gateway does with the browser's Authorization header.
	toService := healthpb.NewHealthClient(dial(t, serviceAddr))

	ctx := metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer caller-token")
	if _, err := toService.Check(ctx, &healthpb.HealthCheckRequest{}); err != nil {
		t.Fatal(err)
	}
	got.mu.Lock()
	seen := append([]string(nil), got.seen...)
	got.seen = nil
	got.mu.Unlock()
	if len(seen) != 2 || seen[0] != "Bearer caller-token" || seen[1] != "Bearer caller-token" {
		t.Fatalf("the callee saw %q (unary, stream), want the caller's token on both", seen)
	}

	// A caller without a token: the service calls anonymously.
	if _, err := toService.Check(context.Background(), &healthpb.HealthCheckRequest{}); err != nil {
		t.Fatal(err)
	}
	if a := got.last(t); a != "" {
		t.Fatalf("no caller token, yet the callee saw %q", a)
	}

	// A background call (no call being served) carries no token.
	if _, err := toCallee.Check(context.Background(), &healthpb.HealthCheckRequest{}); err != nil {
		t.Fatal(err)
	}
	if a := got.last(t); a != "" {
		t.Fatalf("a background call brought %q", a)
	}
}

// A call that sets its own authorization keeps it: the caller's is not
// added beside it, so the callee sees one identity.
func TestAnOwnAuthorizationIsKept(t *testing.T) {
	in := metadata.NewIncomingContext(context.Background(), metadata.Pairs("authorization", "Bearer caller"))
	ctx := forwardCaller(metadata.AppendToOutgoingContext(in, "authorization", "Bearer own"))
	out, _ := metadata.FromOutgoingContext(ctx)
	if a := out.Get("authorization"); len(a) != 1 || a[0] != "Bearer own" {
		t.Fatalf("outgoing authorization %q, want only the call's own", a)
	}
}
