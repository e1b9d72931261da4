// Package grpcclient is the one way a service or the gateway dials another
// service, so every caller spreads its calls over every copy of the callee,
// leaves a copy that is draining, makes a read again on another copy when
// one goes away under it, bounds a call that has no deadline, comes back the
// same way after the callee restarts, calls another service on its
// caller's behalf, and passes the trace on (a client span per call).
package grpcclient

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/backoff"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	_ "google.golang.org/grpc/health" // client-side health checks (serviceConfig)
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/resolver"
	"google.golang.org/grpc/resolver/manual"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"

	"uplift.dev/platform/mtls"
	"uplift.dev/platform/tracing"
)

// ReconnectBackoff replaces gRPC's default (1 s growing to 120 s): a service
// that a supervisor restarts within a second or two must be reached again
// within a few seconds, not after a two-minute wait. Reconnect attempts are
// cheap dials on a private network, so at most one a second is harmless.
var ReconnectBackoff = backoff.Config{
	BaseDelay:  100 * time.Millisecond,
	Multiplier: 1.6,
	Jitter:     0.2,
	MaxDelay:   time.Second,
}

// serviceConfig balances calls round-robin over every address the target
// resolves to (a headless Service's pods, `dns:///users:9001`), where gRPC's
// default pick_first would send everything to one copy and leave copies
// added later idle. The health check makes a copy that reports NOT_SERVING
// (draining before it stops, grpcserver.Options.DrainDelay) leave the
// rotation at once, before its connection closes. Calls the callee's proto
// marks safe to repeat get retryPolicy.
func serviceConfig() string {
	cfg := map[string]any{
		"loadBalancingConfig": []any{map[string]any{"round_robin": map[string]any{}}},
		"healthCheckConfig":   map[string]any{"serviceName": ""},
	}
	if names := repeatable(protoregistry.GlobalFiles); len(names) > 0 {
		cfg["methodConfig"] = []any{map[string]any{"name": names, "retryPolicy": retryPolicy}}
	}
	b, err := json.Marshal(cfg)
	if err != nil {
		panic(err) // maps of strings and numbers always marshal
	}
	return string(b)
}

// retryPolicy makes a call that came back UNAVAILABLE (its copy stopping,
// or its connection closing under it) again on the next copy round_robin
// picks: 3 attempts in all, the waits random up to 50 ms then 100 ms (the
// next copy is likely fine; when none is, the caller hears so soon), all
// within the call's one deadline. Only UNAVAILABLE: the other codes are
// answers, and a DEADLINE_EXCEEDED call may have done its work. gRPC
// already makes again, for any method, a call that never reached a server.
// No retry throttling: it counts per connection, not per copy, so one bad
// copy of two would soon stop every retry away from it.
var retryPolicy = map[string]any{
	"maxAttempts":          3,
	"initialBackoff":       "0.05s",
	"maxBackoff":           "0.5s",
	"backoffMultiplier":    2,
	"retryableStatusCodes": []string{"UNAVAILABLE"},
}

// repeatable names, for the service config, every method of every proto
// linked into the binary whose proto says that making it twice does no harm:
// the standard `option idempotency_level = NO_SIDE_EFFECTS` (reads) or
// `IDEMPOTENT` (a repeat changes nothing more). The callee's proto is always
// linked into its caller, which calls it through the generated client.
// Client streams are left out: gRPC would have to buffer them to repeat them.
func repeatable(files *protoregistry.Files) []map[string]string {
	var names []map[string]string
	files.RangeFiles(func(f protoreflect.FileDescriptor) bool {
		for i := range f.Services().Len() {
			svc := f.Services().Get(i)
			for j := range svc.Methods().Len() {
				m := svc.Methods().Get(j)
				opts, _ := m.Options().(*descriptorpb.MethodOptions)
				switch opts.GetIdempotencyLevel() {
				case descriptorpb.MethodOptions_NO_SIDE_EFFECTS, descriptorpb.MethodOptions_IDEMPOTENT:
					if !m.IsStreamingClient() {
						names = append(names, map[string]string{"service": string(svc.FullName()), "method": string(m.Name())})
					}
				}
			}
		}
		return true
	})
	slices.SortFunc(names, func(a, b map[string]string) int {
		return strings.Compare(a["service"]+"/"+a["method"], b["service"]+"/"+b["method"])
	})
	return names
}

// DefaultCallTimeout bounds a unary call whose context has no deadline of
// its own (the gateway's, whose HTTP requests carry none; an event
// consumer's, a schedule's), so a copy that hangs holds its caller for a
// bounded time. It is longer than any unary call a service bounds itself
// (a website score, 45 s), so it never cuts one that would have finished.
// Streams (uploads, event streams) are bounded by their callers.
var DefaultCallTimeout = 60 * time.Second

// New dials addr lazily (gRPC connects on the first call), in plaintext
// unless opts hold TLS (a service's own certificate: service.Runtime.Dial).
// Every call forwards the identity of the caller it is made for
// (forwardCaller). addr is a gRPC target (`dns:///users:9001`, `host:port`)
// or a fixed list of copies, `host:port,host:port,…`, balanced like a
// headless Service's pods: where no DNS names the copies (machines set up
// by hand, the local stack's copies on 127.0.0.1 and 127.0.0.2).
func New(addr string, opts ...grpc.DialOption) (*grpc.ClientConn, error) {
	target, copies := listed(addr)
	if copies != nil {
		opts = append([]grpc.DialOption{grpc.WithResolvers(copies)}, opts...)
	}
	return newConn(target, opts...)
}

// listed returns a target and a resolver for a comma-separated list of
// copies, or addr unchanged and nil for anything else.
func listed(addr string) (string, resolver.Builder) {
	if !strings.Contains(addr, ",") {
		return addr, nil
	}
	var state resolver.State
	for _, a := range strings.Split(addr, ",") {
		if a = strings.TrimSpace(a); a != "" {
			// Each copy's certificate is checked for its own host; the
			// list as a whole names no host.
			host, _, err := net.SplitHostPort(a)
			if err != nil {
				host = a
			}
			state.Addresses = append(state.Addresses, resolver.Address{Addr: a, ServerName: host})
		}
	}
	r := manual.NewBuilderWithScheme("copies")
	r.InitialState(state)
	return r.Scheme() + ":///" + addr, r
}

// TLS dials with mutual TLS: src's certificate is the caller's identity, and
// the callee's certificate must chain to src's CA bundle and name the host
// dialled. Both follow the files as they rotate.
func TLS(src *mtls.Source) grpc.DialOption {
	return grpc.WithTransportCredentials(credentials.NewTLS(src.ClientConfig()))
}

func newConn(addr string, opts ...grpc.DialOption) (*grpc.ClientConn, error) {
	base := []grpc.DialOption{
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultServiceConfig(serviceConfig()),
		// The config is the caller's: a resolver's (DNS TXT records) would
		// replace it whole, and looking it up costs a query per resolution.
		grpc.WithDisableServiceConfig(),
		grpc.WithConnectParams(grpc.ConnectParams{Backoff: ReconnectBackoff, MinConnectTimeout: 5 * time.Second}),
		grpc.WithChainUnaryInterceptor(forwardUnary),
		grpc.WithChainStreamInterceptor(forwardStream),
		// A client span per call (tracing off: the caller's trace
		// context alone), sent to the callee in the call's metadata.
		tracing.GRPCDialOption(), tracing.GRPCStreamDialOption(),
	}
	return grpc.NewClient(addr, append(base, opts...)...)
}

// forwardCaller returns ctx with the caller's "authorization" metadata (of
// the gRPC call ctx serves) on the outgoing call. Services hold no power of
// their own over each other: the callee applies its rules to the person who
// asked. A call that already carries an authorization of its own (the
// gateway puts the browser's token there) keeps it, and a call with no
// caller (an event consumer, a schedule) carries none and is anonymous.
func forwardCaller(ctx context.Context) context.Context {
	in, _ := metadata.FromIncomingContext(ctx)
	auth := in.Get("authorization")
	if len(auth) == 0 {
		return ctx
	}
	if out, _ := metadata.FromOutgoingContext(ctx); len(out.Get("authorization")) > 0 {
		return ctx
	}
	kv := make([]string, 0, 2*len(auth))
	for _, v := range auth {
		kv = append(kv, "authorization", v)
	}
	return metadata.AppendToOutgoingContext(ctx, kv...)
}

func forwardUnary(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoke grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultCallTimeout)
		defer cancel()
	}
	return invoke(forwardCaller(ctx), method, req, reply, cc, opts...)
}

func forwardStream(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, stream grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
	return stream(forwardCaller(ctx), desc, cc, method, opts...)
}

// Pool is several connections to one backend used in turn. One HTTP/2
// connection carries every call on one TCP stream, written and read by one
// goroutine each side, so under load the gateway's calls queue behind each
// other on it; a few connections spread them over the backend's cores.
type Pool struct {
	conns []*grpc.ClientConn
	next  atomic.Uint32
}

// NewPool dials n connections (n < 1 means 1) to addr with New.
func NewPool(addr string, n int, opts ...grpc.DialOption) (*Pool, error) {
	p := &Pool{}
	for range max(n, 1) {
		c, err := New(addr, opts...)
		if err != nil {
			_ = p.Close()
			return nil, err
		}
		p.conns = append(p.conns, c)
	}
	return p, nil
}

func (p *Pool) pick() *grpc.ClientConn {
	return p.conns[int(p.next.Add(1))%len(p.conns)]
}

// Invoke implements grpc.ClientConnInterface on the next connection.
func (p *Pool) Invoke(ctx context.Context, method string, args, reply any, opts ...grpc.CallOption) error {
	return p.pick().Invoke(ctx, method, args, reply, opts...)
}

// NewStream implements grpc.ClientConnInterface on the next connection.
func (p *Pool) NewStream(ctx context.Context, desc *grpc.StreamDesc, method string, opts ...grpc.CallOption) (grpc.ClientStream, error) {
	return p.pick().NewStream(ctx, desc, method, opts...)
}

// Conn is one of the pool's connections, for calls that need a
// *grpc.ClientConn (health checks).
func (p *Pool) Conn() *grpc.ClientConn { return p.conns[0] }

// Close closes every connection.
func (p *Pool) Close() error {
	var errs []error
	for _, c := range p.conns {
		errs = append(errs, c.Close())
	}
	return errors.Join(errs...)
}
