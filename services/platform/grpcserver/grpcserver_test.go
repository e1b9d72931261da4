package grpcserver

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/types/known/emptypb"

	"uplift.dev/platform/auth"
)

// countingVerifier accepts any token and counts the checks (each one a call
// to Firebase in production, now that revocation is checked).
type countingVerifier struct{ n atomic.Int32 }

func (v *countingVerifier) Verify(context.Context, string) (auth.Claims, error) {
	v.n.Add(1)
	return auth.Claims{UID: "u1"}, nil
}

// pingDesc is a one-method service for tests.
var pingDesc = grpc.ServiceDesc{
	ServiceName: "test.Ping",
	HandlerType: (*any)(nil),
	Methods: []grpc.MethodDesc{{MethodName: "Ping", Handler: func(_ any, ctx context.Context, dec func(any) error, icpt grpc.UnaryServerInterceptor) (any, error) {
		in := new(emptypb.Empty)
		if err := dec(in); err != nil {
			return nil, err
		}
		h := func(context.Context, any) (any, error) { return &emptypb.Empty{}, nil }
		return icpt(ctx, in, &grpc.UnaryServerInfo{FullMethod: "/test.Ping/Ping"}, h)
	}}},
}

// TestTokensAreCheckedOncePerTTL: the server puts a Cache in front of the
// verifier, so a session's requests cost one revocation check per
// auth.RevocationCheckTTL, not one each.
func TestTokensAreCheckedOncePerTTL(t *testing.T) {
	v := &countingVerifier{}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Options{Name: "test", Addr: "127.0.0.1:0", Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
			Verifier: v, Register: func(s *grpc.Server) { s.RegisterService(&pingDesc, struct{}{}) },
			Ready: func(addr string) { ready <- addr }})
	}()
	t.Cleanup(func() { cancel(); <-done })
	conn, err := grpc.NewClient(<-ready, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, tok := range []string{"a", "a", "a", "b", "b"} {
		cctx := metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer "+tok)
		if err := conn.Invoke(cctx, "/test.Ping/Ping", &emptypb.Empty{}, &emptypb.Empty{}); err != nil {
			t.Fatal(err)
		}
	}
	if n := v.n.Load(); n != 2 {
		t.Fatalf("%d token checks for two tokens, want 2", n)
	}
}

// A service's own metrics are served on /metrics beside the platform's.
func TestServiceMetricsAreServed(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	metricsAddr := lis.Addr().String()
	lis.Close()
	own := prometheus.NewRegistry()
	c := prometheus.NewCounter(prometheus.CounterOpts{Name: "uplift_test_things_total", Help: "Things."})
	own.MustRegister(c)
	c.Add(3)
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Options{Name: "test", Addr: "127.0.0.1:0", MetricsAddr: metricsAddr, Metrics: own,
			Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Verifier: &countingVerifier{},
			Register: func(s *grpc.Server) { s.RegisterService(&pingDesc, struct{}{}) },
			Ready:    func(addr string) { ready <- addr }})
	}()
	t.Cleanup(func() { cancel(); <-done })
	<-ready
	var body []byte
	for i := 0; i < 50; i++ {
		resp, err := http.Get("http://" + metricsAddr + "/metrics")
		if err == nil {
			body, _ = io.ReadAll(resp.Body)
			resp.Body.Close()
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	for _, want := range []string{"uplift_test_things_total 3", "go_goroutines"} {
		if !strings.Contains(string(body), want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
}
