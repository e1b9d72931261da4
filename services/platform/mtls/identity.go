package mtls

import (
	"context"
	"net/url"
	"strings"

	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/peer"
)

// TrustDomain is the SPIFFE trust domain of every Uplift identity.
const TrustDomain = "uplift"

// Kind is what a certificate's identity names.
type Kind string

// The kinds of caller a certificate can name. A service (the gateway
// included) calls on a person's behalf and forwards their token; a backend
// (another team's program) calls as itself, under its own grants.
const (
	KindService Kind = "service"
	KindBackend Kind = "backend"
)

// Identity is who a certificate says its holder is: the URI SAN
// spiffe://uplift/<kind>/<name>. A URI rather than a DNS name, because a
// DNS name says where a server answers, and a service's certificate needs
// those for its own port; the identity says who calls, from wherever.
type Identity struct {
	Kind Kind
	Name string
}

// URI is the identity as a certificate's URI SAN.
func (id Identity) URI() *url.URL {
	return &url.URL{Scheme: "spiffe", Host: TrustDomain, Path: "/" + string(id.Kind) + "/" + id.Name}
}

// String is the URI SAN's text.
func (id Identity) String() string { return id.URI().String() }

// parse reads one URI SAN; ok is false for anything that is not an Uplift
// identity.
func parse(u *url.URL) (Identity, bool) {
	if u.Scheme != "spiffe" || u.Host != TrustDomain {
		return Identity{}, false
	}
	kind, name, ok := strings.Cut(strings.TrimPrefix(u.Path, "/"), "/")
	if !ok || name == "" || strings.Contains(name, "/") {
		return Identity{}, false
	}
	switch Kind(kind) {
	case KindService, KindBackend:
		return Identity{Kind: Kind(kind), Name: name}, true
	}
	return Identity{}, false
}

// Peer is the identity of the caller of the gRPC call ctx serves, read from
// its verified client certificate. tls is false on a plaintext port; ok
// is false when no verified certificate names exactly one Uplift identity.
func Peer(ctx context.Context) (id Identity, tls, ok bool) {
	p, found := peer.FromContext(ctx)
	if !found {
		return Identity{}, false, false
	}
	info, isTLS := p.AuthInfo.(credentials.TLSInfo)
	if !isTLS {
		return Identity{}, false, false
	}
	if len(info.State.VerifiedChains) == 0 || len(info.State.VerifiedChains[0]) == 0 {
		return Identity{}, true, false
	}
	var ids []Identity
	for _, u := range info.State.VerifiedChains[0][0].URIs {
		if id, ok := parse(u); ok {
			ids = append(ids, id)
		}
	}
	// Two identities in one certificate would let its holder pick the
	// one with the wider rights.
	if len(ids) != 1 {
		return Identity{}, true, false
	}
	return ids[0], true, true
}
