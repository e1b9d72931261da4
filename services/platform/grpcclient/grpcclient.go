// Package grpcclient is the one way a service or the gateway dials another
// service, so every caller comes back the same way after the callee
// restarts.
package grpcclient

import (
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
