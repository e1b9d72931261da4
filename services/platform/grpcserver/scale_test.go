package grpcserver

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/resolver"
	"google.golang.org/protobuf/types/known/emptypb"

	"uplift.dev/platform/grpcclient"
)

// dnsLike resolves a name the way gRPC's dns resolver does a headless
// Service's: it answers when the channel is made and when the channel asks
// again (ResolveNow, which gRPC does when a connection closes), never on its
// own. Pods added later are in its records but nobody is told. (The real
// one also re-resolves at most every 30 s, which the 5-minute
// MaxConnectionAge stays well above.)
type dnsLike struct {
	mu       sync.Mutex
	records  []string
	cc       resolver.ClientConn
	resolves atomic.Int64
}

func (d *dnsLike) Build(_ resolver.Target, cc resolver.ClientConn, _ resolver.BuildOptions) (resolver.Resolver, error) {
	d.mu.Lock()
	d.cc = cc
	d.mu.Unlock()
	d.answer()
	return d, nil
}

func (d *dnsLike) Scheme() string { return "dnslike" }

func (d *dnsLike) ResolveNow(resolver.ResolveNowOptions) {
	d.resolves.Add(1)
	go d.answer() // as the dns resolver does, off the channel's goroutine
}

func (d *dnsLike) Close() {}

func (d *dnsLike) answer() {
	d.mu.Lock()
	defer d.mu.Unlock()
	var s resolver.State
	for _, a := range d.records {
		s.Addresses = append(s.Addresses, resolver.Address{Addr: a})
	}
	_ = d.cc.UpdateState(s)
}

// setRecords changes what the name resolves to without telling anyone, as
// a scaled-up Deployment does.
func (d *dnsLike) setRecords(copies []*copyOf) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.records = nil
	for _, c := range copies {
		d.records = append(d.records, c.addr)
	}
}

// A service scaled from 2 copies to 4 under steady calls from one caller:
// with the servers' MaxConnectionAge, the caller's connections are renewed,
// the renewal re-resolves the name, and the 2 new copies take their share
// (each copy within 25 % of even); with connections that never age, the
// new copies take no call at all, which is what the issue measured.
func TestCopiesAddedLaterGetTheirShare(t *testing.T) {
	for _, tc := range []struct {
		age         time.Duration
		newCopiesGo bool
	}{
		{age: 500 * time.Millisecond, newCopiesGo: true},
		{age: time.Hour, newCopiesGo: false},
	} {
		t.Run(fmt.Sprintf("MaxConnectionAge %s", tc.age), func(t *testing.T) {
			start := func() *copyOf {
				c := startCopyWith(t, func(o *Options) { o.MaxConnectionAge = tc.age })
				t.Cleanup(c.stop)
				return c
			}
			live := []*copyOf{start(), start()}
			d := &dnsLike{}
			d.setRecords(live)
			conn, err := grpcclient.New("dnslike:///test", grpc.WithResolvers(d))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			ctx, cancel := context.WithCancel(context.Background())
			var wg sync.WaitGroup
			var failed atomic.Int64
			for range 4 {
				wg.Go(func() {
					for ctx.Err() == nil {
						if err := conn.Invoke(context.Background(), "/test.Ping/Ping", &emptypb.Empty{}, &emptypb.Empty{}); err != nil {
							failed.Add(1)
						}
					}
				})
			}
			time.Sleep(300 * time.Millisecond)
			live = append(live, start(), start())
			d.setRecords(live)
			// Longer than the age (+10 %) and a reconnect.
			time.Sleep(2 * time.Second)
			before := served(live)
			time.Sleep(time.Second)
			after := served(live)
			cancel()
			wg.Wait()
			window := make([]int64, len(live))
			var total int64
			for i := range live {
				window[i] = after[i] - before[i]
				total += window[i]
			}
			t.Logf("calls per copy over 1 s, 2 copies then 2 added: %v (%d re-resolutions, %d failed)", window, d.resolves.Load(), failed.Load())
			if n := failed.Load(); n > 0 {
				t.Fatalf("%d calls failed", n)
			}
			even := float64(total) / float64(len(live))
			for i, n := range window {
				switch {
				case tc.newCopiesGo && (float64(n) < 0.75*even || float64(n) > 1.25*even):
					t.Fatalf("copy %d took %d of %d calls, want within 25 %% of %.0f: %v", i, n, total, even, window)
				case !tc.newCopiesGo && i >= 2 && n != 0:
					t.Fatalf("with connections that never age, new copy %d took %d calls: the test no longer shows what MaxConnectionAge is for", i, n)
				}
			}
		})
	}
}

func served(copies []*copyOf) []int64 {
	out := make([]int64, len(copies))
	for i, c := range copies {
		out[i] = c.served.Load()
	}
	return out
}

// slowDesc is a one-method service whose calls each wait for a token on
// release (or the call's end), telling began when each is in.
func slowDesc(began chan<- struct{}, release <-chan struct{}) *grpc.ServiceDesc {
	return &grpc.ServiceDesc{
		ServiceName: "test.Slow",
		HandlerType: (*any)(nil),
		Methods: []grpc.MethodDesc{{MethodName: "Wait", Handler: func(_ any, ctx context.Context, dec func(any) error, icpt grpc.UnaryServerInterceptor) (any, error) {
			in := new(emptypb.Empty)
			if err := dec(in); err != nil {
				return nil, err
			}
			h := func(ctx context.Context, _ any) (any, error) {
				began <- struct{}{}
				select {
				case <-release:
					return &emptypb.Empty{}, nil
				case <-ctx.Done():
					return nil, ctx.Err()
				}
			}
			return icpt(ctx, in, &grpc.UnaryServerInfo{FullMethod: "/test.Slow/Wait"}, h)
		}}},
	}
}

// Told to stop (SIGTERM), a server reports NOT_SERVING at once, answers
// every call that arrives during its DrainDelay (on connections old and
// new, for the balancers that have not noticed yet), then lets the calls in
// flight finish, and stops one still running after ShutdownGrace.
func TestAStoppingServerDrainsThenFinishesItsCalls(t *testing.T) {
	const drain, grace = 500 * time.Millisecond, time.Second
	began := make(chan struct{}, 2)
	release := make(chan struct{}, 2)
	ctx, stop := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Options{Name: "test", Addr: "127.0.0.1:0", Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
			Verifier: &countingVerifier{}, Public: []string{"/test.Ping/Ping", "/test.Slow/Wait"},
			DrainDelay: drain, ShutdownGrace: grace,
			Register: func(s *grpc.Server) {
				s.RegisterService(&pingDesc, struct{}{})
				s.RegisterService(slowDesc(began, release), struct{}{})
			},
			Ready: func(addr string) { ready <- addr }})
	}()
	addr := <-ready
	dial := func() *grpc.ClientConn {
		t.Helper()
		c, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	conn := dial()
	ping := func(c *grpc.ClientConn) error {
		return c.Invoke(context.Background(), "/test.Ping/Ping", &emptypb.Empty{}, &emptypb.Empty{})
	}
	if err := ping(conn); err != nil {
		t.Fatal(err)
	}

	// Two calls in flight: one will finish within the grace, the other
	// would not.
	results := make(chan error, 2)
	for range 2 {
		go func() {
			results <- conn.Invoke(context.Background(), "/test.Slow/Wait", &emptypb.Empty{}, &emptypb.Empty{})
		}()
		<-began
	}

	stopped := time.Now()
	stop() // SIGTERM
	health := healthpb.NewHealthClient(conn)
	deadline := time.Now().Add(200 * time.Millisecond)
	for {
		resp, err := health.Check(context.Background(), &healthpb.HealthCheckRequest{})
		if err == nil && resp.GetStatus() == healthpb.HealthCheckResponse_NOT_SERVING {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("health 200 ms after the stop: %v %v, want NOT_SERVING", resp.GetStatus(), err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	calls := 0
	for time.Since(stopped) < drain-100*time.Millisecond {
		if err := ping(conn); err != nil {
			t.Fatalf("a call %s into the drain: %v", time.Since(stopped), err)
		}
		calls++
	}
	if err := ping(dial()); err != nil {
		t.Fatalf("a call on a connection made during the drain: %v", err)
	}
	select {
	case err := <-done:
		t.Fatalf("Run returned %v during its drain", err)
	case <-time.After(drain - time.Since(stopped) + 200*time.Millisecond):
	}
	release <- struct{}{}
	if err := <-results; err != nil {
		t.Fatalf("a call in flight when the server stopped: %v, want it finished", err)
	}
	// The other never ends on its own: the server gives up on it after its
	// grace and stops.
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(drain + grace + 2*time.Second):
		t.Fatal("Run did not stop after its drain and grace")
	}
	took := time.Since(stopped)
	if took < drain+grace-100*time.Millisecond {
		t.Fatalf("Run stopped %s after the stop, before drain + grace (%s)", took, drain+grace)
	}
	if err := <-results; err == nil {
		t.Fatal("the call still running after the grace succeeded; want it cut")
	}
	t.Logf("%d calls answered during the %s drain; stopped %s after SIGTERM", calls, drain, took.Round(10*time.Millisecond))
}
