// Package grpcport is the digest service's gRPC API. Transactional mail needs
// none: it is driven by events (see eventport); the digest calls are built
// with the weekly and daily emails.
package grpcport

import (
	digestv1 "uplift.dev/proto/gen/uplift/digest/v1"
)

// PublicMethods may be called without signing in.
var PublicMethods = []string{}

// Server implements digestv1.DigestServiceServer. Every call answers
// Unimplemented (HTTP 501) until its behaviour is built; none fakes success.
type Server struct {
	digestv1.UnimplementedDigestServiceServer
}
