// Package grpcclient is the one way a service or the gateway dials another
// service, so every caller comes back the same way after the callee
// restarts.
package grpcclient

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/backoff"
	"google.golang.org/grpc/credentials/insecure"
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

// New dials addr lazily (gRPC connects on the first call). Traffic inside
// the cluster is plaintext gRPC; mTLS belongs to the mesh, not the service.
func New(addr string, opts ...grpc.DialOption) (*grpc.ClientConn, error) {
	base := []grpc.DialOption{
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithConnectParams(grpc.ConnectParams{Backoff: ReconnectBackoff, MinConnectTimeout: 5 * time.Second}),
	}
	return grpc.NewClient(addr, append(base, opts...)...)
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
