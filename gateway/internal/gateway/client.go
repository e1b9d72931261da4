package gateway

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// clientKey carries the client's address from the HTTP edge to the gRPC
// client interceptors (the website-score limit).
type clientKey struct{}

// withClient puts the client's address (clientAddr) in the request's
// context, where the limits find it however the request was routed.
func withClient(trusted []netip.Prefix, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := context.WithValue(r.Context(), clientKey{}, clientAddr(r, trusted))
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// clientFrom returns the address withClient stored; "" outside a request.
func clientFrom(ctx context.Context) string {
	s, _ := ctx.Value(clientKey{}).(string)
	return s
}

// clientAddr is who sent the request. The connection's peer, unless the peer
// is a trusted proxy (an ingress or load balancer in trusted): then the
// X-Forwarded-For hops are read from the right, each appended by the proxy
// before it, and the first one that is not itself trusted is the client.
// Hops further left were written by that client and prove nothing. With no
// trusted proxies (the default) the header is ignored: anyone can write it.
// An unreadable hop stops the walk at the last trusted proxy, so such
// requests share that proxy's limit rather than choose their own.
func clientAddr(r *http.Request, trusted []netip.Prefix) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	peer, err := netip.ParseAddr(host)
	if err != nil {
		return r.RemoteAddr
	}
	client := peer.Unmap()
	if !isTrusted(client, trusted) {
		return client.String()
	}
	var hops []string
	for _, h := range r.Header.Values("X-Forwarded-For") {
		hops = append(hops, strings.Split(h, ",")...)
	}
	for i := len(hops) - 1; i >= 0; i-- {
		a, ok := parseHop(hops[i])
		if !ok {
			break
		}
		client = a
		if !isTrusted(a, trusted) {
			break
		}
	}
	return client.String()
}

// parseHop reads one X-Forwarded-For entry: an address, possibly with a
// port ("203.0.113.7:4711", "[2001:db8::1]:4711").
func parseHop(s string) (netip.Addr, bool) {
	s = strings.TrimSpace(s)
	if a, err := netip.ParseAddr(s); err == nil {
		return a.Unmap(), true
	}
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr().Unmap(), true
	}
	return netip.Addr{}, false
}

func isTrusted(a netip.Addr, trusted []netip.Prefix) bool {
	for _, p := range trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// ParseTrustedProxies reads TRUSTED_PROXY_CIDRS entries: CIDRs
// ("10.0.0.0/8") or single addresses (taken as /32 or /128).
func ParseTrustedProxies(list []string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, s := range list {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		if p, err := netip.ParsePrefix(s); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(s)
		if err != nil {
			return nil, fmt.Errorf("%q is not a CIDR such as 10.0.0.0/8 or an IP address", s)
		}
		out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	return out, nil
}
