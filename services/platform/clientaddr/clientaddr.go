// Package clientaddr carries the address of the person's client (the
// browser's IP, as the gateway determines it) from the gateway to the
// services, in gRPC metadata, for rules that count per client as well as
// per account (the users service's recovery-code pause).
//
// The gateway always replaces the value with its own finding, so a client
// cannot name an address of its choice (grpc-gateway would otherwise pass
// a "Grpc-Metadata-X-Uplift-Client-Addr" header through). The services are
// reachable only from the gateway and each other (the network policy), so
// they believe what arrives; a call with none (another service's) has the
// empty address.
package clientaddr

import (
	"context"

	"google.golang.org/grpc/metadata"
)

// MetadataKey is the gRPC metadata key that holds the client's address.
const MetadataKey = "x-uplift-client-addr"

// Outgoing returns ctx whose outgoing metadata names addr as the client,
// replacing any value already there.
func Outgoing(ctx context.Context, addr string) context.Context {
	md, _ := metadata.FromOutgoingContext(ctx)
	md = md.Copy()
	md.Set(MetadataKey, addr)
	return metadata.NewOutgoingContext(ctx, md)
}

// FromIncoming is the client's address the gateway sent, or "".
func FromIncoming(ctx context.Context) string {
	if v := metadata.ValueFromIncomingContext(ctx, MetadataKey); len(v) > 0 {
		return v[len(v)-1]
	}
	return ""
}
