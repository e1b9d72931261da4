package grpcserver

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/resolver"
	"google.golang.org/grpc/resolver/manual"
	"google.golang.org/protobuf/types/known/emptypb"

	"uplift.dev/platform/grpcclient"
)

// copyOf runs one copy of a service until stop is called, which returns
// once Run has returned; served counts the calls it answered.
type copyOf struct {
	addr   string
	served atomic.Int64
	stop   func()
}

func startCopy(t *testing.T, drain time.Duration) *copyOf {
	t.Helper()
	return startCopyWith(t, func(o *Options) { o.DrainDelay = drain })
}

// startCopyWith is startCopy with options of the test's own.
func startCopyWith(t *testing.T, set func(*Options)) *copyOf {
	t.Helper()
	c := &copyOf{}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	o := Options{Name: "test", Addr: "127.0.0.1:0", Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Verifier: &countingVerifier{}, Public: []string{"/test.Ping/Ping"},
		Register: func(s *grpc.Server) { s.RegisterService(countingPing(&c.served), struct{}{}) },
		Ready:    func(addr string) { ready <- addr }}
	set(&o)
	go func() { done <- Run(ctx, o) }()
	c.addr = <-ready
	c.stop = func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("copy %s: %v", c.addr, err)
		}
	}
	return c
}

// Each copy of a service rolled in turn (told to stop as SIGTERM does, a
// new copy started, the name resolving to the new set) under steady calls:
// no call fails, and the new copies take calls.
func TestRollingEveryCopyFailsNoCall(t *testing.T) {
	const drain = 300 * time.Millisecond
	live := []*copyOf{startCopy(t, drain), startCopy(t, drain)}
	r := manual.NewBuilderWithScheme("roll")
	addrs := func() resolver.State {
		var s resolver.State
		for _, c := range live {
			s.Addresses = append(s.Addresses, resolver.Address{Addr: c.addr})
		}
		return s
	}
	r.InitialState(addrs())
	conn, err := grpcclient.New("roll:///test", grpc.WithResolvers(r))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()

	var calls, failed atomic.Int64
	var firstErr atomic.Value
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				calls.Add(1)
				if err := conn.Invoke(context.Background(), "/test.Ping/Ping", &emptypb.Empty{}, &emptypb.Empty{}); err != nil {
					failed.Add(1)
					firstErr.CompareAndSwap(nil, err.Error())
				}
			}
		}()
	}
	for i, old := range live {
		time.Sleep(200 * time.Millisecond)
		// Kubernetes starts the new pod and names it before the old one is
		// told to stop; DNS drops the old one once it reports not ready.
		fresh := startCopy(t, drain)
		live[i] = fresh
		r.UpdateState(resolver.State{Addresses: append(addrs().Addresses, resolver.Address{Addr: old.addr})})
		old.stop()
		r.UpdateState(addrs())
	}
	time.Sleep(300 * time.Millisecond)
	cancel()
	wg.Wait()
	for _, c := range live {
		c.stop()
	}
	if n := failed.Load(); n > 0 {
		t.Fatalf("%d of %d calls failed while the copies rolled; first: %v", n, calls.Load(), firstErr.Load())
	}
	for _, c := range live {
		if c.served.Load() == 0 {
			t.Fatalf("new copy %s took no calls", c.addr)
		}
	}
}

// countingPing is pingDesc answering through a counter of its own.
func countingPing(n *atomic.Int64) *grpc.ServiceDesc {
	d := pingDesc
	inner := pingDesc.Methods[0].Handler
	d.Methods = []grpc.MethodDesc{{MethodName: "Ping", Handler: func(srv any, ctx context.Context, dec func(any) error, icpt grpc.UnaryServerInterceptor) (any, error) {
		n.Add(1)
		return inner(srv, ctx, dec, icpt)
	}}}
	return &d
}
