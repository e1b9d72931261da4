package clientaddr

import (
	"context"
	"testing"

	"google.golang.org/grpc/metadata"
)

// TestOutgoingReplacesWhatTheClientSent: a value that came in with the
// request (a forged header passed through) never survives next to the
// gateway's own.
func TestOutgoingReplacesWhatTheClientSent(t *testing.T) {
	ctx := metadata.NewOutgoingContext(context.Background(), metadata.Pairs(MetadataKey, "10.0.0.1", "authorization", "Bearer t"))
	md, _ := metadata.FromOutgoingContext(Outgoing(ctx, "198.51.100.4"))
	if got := md.Get(MetadataKey); len(got) != 1 || got[0] != "198.51.100.4" || md.Get("authorization")[0] != "Bearer t" {
		t.Fatalf("metadata %v", md)
	}
	in := metadata.NewIncomingContext(context.Background(), md)
	if got := FromIncoming(in); got != "198.51.100.4" {
		t.Fatalf("FromIncoming = %q", got)
	}
	if got := FromIncoming(context.Background()); got != "" {
		t.Fatalf("no metadata: %q", got)
	}
}
