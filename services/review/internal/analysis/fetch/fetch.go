// Package fetch is the one way the review reads a user-supplied URL: it
// resolves names itself and dials only public addresses it has checked,
// on every redirect, within time, size and redirect bounds, honouring
// robots.txt with an honest user agent.
package fetch

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// maxRedirects bounds how many redirects one request may follow.
const maxRedirects = 5

// ErrBlockedAddress marks a target refused because it is not a public
// internet address (private, loopback, link-local, metadata…). It is always
// wrapped together with ErrUnreadable.
var ErrBlockedAddress = errors.New("address is not a public internet address")

// ErrRobots marks a URL that the site's robots.txt does not let the bot read.
var ErrRobots = errors.New("robots.txt does not allow reading this page")

// RobotsServerError is a robots.txt that answered with a server error: the
// site may not be read (RFC 9309), and it is ErrRobots, but its likeliest
// cause is a site that is down, which is what its owner should be told.
type RobotsServerError struct{ Status int }

func (e RobotsServerError) Error() string {
	return fmt.Sprintf("%v: robots.txt answered HTTP %d", ErrRobots, e.Status)
}

// Is makes a RobotsServerError an ErrRobots.
func (e RobotsServerError) Is(target error) bool { return target == ErrRobots }

// resolveFunc looks a host name up. It is a field so tests can make a name
// resolve to a private address without touching real DNS.
type resolveFunc func(ctx context.Context, host string) ([]netip.Addr, error)

// Fetcher is the one way this package reads a user-supplied URL. Every
// connection it opens goes to an address it resolved and checked itself, so a
// store URL (or a redirect, or a DNS answer that changes between look-ups)
// can never make the service talk to its own network or a cloud metadata
// endpoint.
type Fetcher struct {
	userAgent     string
	timeout       time.Duration
	maxBytes      int64
	allowLoopback bool
	origins       map[string]bool // host:port of origins allowed on loopback
	resolve       resolveFunc
	transport     *http.Transport
	client        *http.Client
}

// Options bound the fetcher and open it, for tests and local stacks only, to
// loopback.
type Options struct {
	UserAgent     string
	Timeout       time.Duration // per request
	MaxBytes      int64         // per response body
	AllowLoopback bool          // tests only: permit 127.0.0.1/::1 targets
	AllowOrigins  []string      // origins read even on loopback (a local demo store)
	// Resolve looks host names up; nil is the system resolver. Tests map
	// names to loopback with it; every answer still passes the policy.
	Resolve func(ctx context.Context, host string) ([]netip.Addr, error)
	// RootCAs are the certificates trusted for HTTPS; nil is the system's.
	RootCAs *x509.CertPool
}

// New returns a fetcher with o's bounds.
func New(o Options) *Fetcher {
	f := &Fetcher{
		userAgent:     o.UserAgent,
		timeout:       o.Timeout,
		maxBytes:      o.MaxBytes,
		allowLoopback: o.AllowLoopback,
		origins:       map[string]bool{},
	}
	for _, o := range o.AllowOrigins {
		if u, err := url.Parse(strings.TrimSpace(o)); err == nil && u.Host != "" {
			port := u.Port()
			if port == "" {
				port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
			}
			f.origins[strings.ToLower(net.JoinHostPort(u.Hostname(), port))] = true
		}
	}
	f.resolve = func(ctx context.Context, host string) ([]netip.Addr, error) {
		return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	}
	if o.Resolve != nil {
		f.resolve = o.Resolve
	}
	f.transport = &http.Transport{
		Proxy: nil, // never route user-supplied URLs through an environment proxy
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			host, port, err := net.SplitHostPort(addr)
			if err != nil {
				return nil, err
			}
			// An allow-listed origin (a local stack's demo store) may be on
			// loopback; nothing else changes for it.
			loopback := f.allowLoopback || f.origins[strings.ToLower(addr)]
			ips, err := f.lookup(ctx, host, loopback)
			if err != nil {
				return nil, err
			}
			dialer := &net.Dialer{
				Timeout: f.timeout,
				// Control runs on the socket about to connect: a last check
				// that the address really is the one the policy allowed.
				Control: func(_, address string, _ syscall.RawConn) error {
					ap, err := netip.ParseAddrPort(address)
					if err != nil {
						return fmt.Errorf("%w: %s", ErrBlockedAddress, address)
					}
					return allowed(ap.Addr(), loopback)
				},
			}
			var lastErr error
			for _, ip := range ips {
				conn, err := dialer.DialContext(ctx, network, net.JoinHostPort(ip.String(), port))
				if err == nil {
					return conn, nil
				}
				lastErr = err
			}
			return nil, lastErr
		},
		TLSHandshakeTimeout:   f.timeout,
		ResponseHeaderTimeout: f.timeout,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       30 * time.Second,
		ForceAttemptHTTP2:     true,
		TLSClientConfig:       &tls.Config{RootCAs: o.RootCAs},
	}
	f.client = f.newClient(nil)
	return f
}

// newClient returns a client over the fetcher's guarded transport whose
// redirects are checked like first requests: target, and robots.txt when rc
// is not nil. Clients are cheap; the transport and its connections are shared.
func (f *Fetcher) newClient(rc *robotsCache) *http.Client {
	return &http.Client{
		Transport: f.transport,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > maxRedirects {
				return fmt.Errorf("more than %d redirects", maxRedirects)
			}
			if err := checkTarget(req.URL); err != nil {
				return err
			}
			if rc != nil {
				return rc.check(req.Context(), req.URL)
			}
			return nil
		},
	}
}

// Session is one read of one site: every request it makes, redirects
// included, obeys the robots.txt of the host it goes to, fetched once per
// host for the Session.
type Session struct {
	f      *Fetcher
	robots *robotsCache
	client *http.Client
}

func (f *Fetcher) Session() *Session {
	rc := newRobotsCache(f)
	return &Session{f: f, robots: rc, client: f.newClient(rc)}
}

// Get reads rawURL as fetcher.Get does, after checking robots.txt.
func (s *Session) Get(ctx context.Context, method, rawURL string, limit int64) (*Response, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	if err := checkTarget(u); err != nil {
		return nil, err
	}
	if err := s.robots.check(ctx, u); err != nil {
		return nil, err
	}
	return s.f.do(ctx, s.client, method, u, limit)
}

// lookup resolves host and returns its addresses only if every one of them is
// allowed. Refusing the whole answer (not just the bad addresses) means a
// name that mixes public and private addresses is treated as hostile.
func (f *Fetcher) lookup(ctx context.Context, host string, loopback bool) ([]netip.Addr, error) {
	if ip, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		if err := allowed(ip, loopback); err != nil {
			return nil, err
		}
		return []netip.Addr{ip}, nil
	}
	ips, err := f.resolve(ctx, host)
	if err != nil {
		return nil, fmt.Errorf("looking up %s: %w", host, err)
	}
	if len(ips) == 0 {
		return nil, fmt.Errorf("looking up %s: no addresses", host)
	}
	for _, ip := range ips {
		if err := allowed(ip, loopback); err != nil {
			return nil, fmt.Errorf("%s resolves to %w", host, err)
		}
	}
	return ips, nil
}

// allowed applies the address policy: only public unicast addresses, plus
// loopback when the options allow it (tests, an allow-listed origin).
func allowed(ip netip.Addr, loopback bool) error {
	ip = ip.Unmap()
	if loopback && ip.IsLoopback() {
		return nil
	}
	if !isPublic(ip) {
		return fmt.Errorf("%w: %s", ErrBlockedAddress, ip)
	}
	return nil
}

// blockedPrefixes4 are IPv4 ranges that IANA's special-purpose registry marks
// not globally reachable and that netip's predicates do not already cover.
// 192.0.0.0/24 is refused whole, although two anycast addresses in it are
// globally reachable: no website lives there.
var blockedPrefixes4 = mustPrefixes(
	"0.0.0.0/8",          // "this network"
	"100.64.0.0/10",      // carrier-grade NAT (also Alibaba's metadata 100.100.100.200)
	"169.254.169.254/32", // cloud metadata (also inside link-local)
	"192.0.0.0/24",       // IETF protocol assignments (DS-Lite, NAT64 discovery…)
	"192.0.2.0/24",       // documentation
	"192.88.99.0/24",     // deprecated 6to4 relay anycast
	"198.18.0.0/15",      // benchmarking
	"198.51.100.0/24",    // documentation
	"203.0.113.0/24",     // documentation
	"240.0.0.0/4",        // reserved, including broadcast
)

// globalUnicast6 is IPv6's global unicast space. Everything outside it is
// refused: ::/8 (IPv4-compatible ::a.b.c.d, deprecated since RFC 4291, which
// an automatic tunnel would carry to the IPv4 address inside; IPv4-translated
// ::ffff:0:a.b.c.d), 100::/64 discard-only, 100:0:0:1::/64 dummy,
// 64:ff9b:1::/48 local-use NAT64, 5f00::/16 SRv6, unique-local, site-local,
// link-local and multicast. IPv4-mapped addresses are unmapped and judged as
// IPv4 before this, and the well-known NAT64 prefix by the IPv4 inside it.
var globalUnicast6 = netip.MustParsePrefix("2000::/3")

// blockedPrefixes6 are ranges inside global unicast that IANA's
// special-purpose registry marks not globally reachable. 2001::/23 is refused
// whole (Teredo, 2001::/32, is judged by the addresses inside it first), also
// the few globally reachable anycast, AMT, AS112 and ORCHIDv2 blocks in it: no
// website lives there.
var blockedPrefixes6 = mustPrefixes(
	"2001::/23",         // IETF protocol assignments, benchmarking, ORCHID
	"2001:db8::/32",     // documentation
	"3fff::/20",         // documentation
	"fd00:ec2::254/128", // AWS metadata over IPv6 (also inside fc00::/7)
)

// The IPv6 formats whose address carries an IPv4 address the packets really
// go to (or through). An address in them is public only if the IPv4 addresses
// inside are.
var (
	nat64  = netip.MustParsePrefix("64:ff9b::/96") // RFC 6052: the last 32 bits
	sixTo4 = netip.MustParsePrefix("2002::/16")    // RFC 3056: bits 16-47
	teredo = netip.MustParsePrefix("2001::/32")    // RFC 4380: server bits 32-63, client ^ the last 32 bits
)

func mustPrefixes(ss ...string) []netip.Prefix {
	out := make([]netip.Prefix, len(ss))
	for i, s := range ss {
		out[i] = netip.MustParsePrefix(s)
	}
	return out
}

// embeddedIPv4 returns the IPv4 addresses inside an IPv6 address of a
// transition format, and whether ip is one.
func embeddedIPv4(ip netip.Addr) ([]netip.Addr, bool) {
	b := ip.As16()
	switch {
	case nat64.Contains(ip):
		return []netip.Addr{netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})}, true
	case sixTo4.Contains(ip):
		return []netip.Addr{netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]})}, true
	case teredo.Contains(ip):
		server := netip.AddrFrom4([4]byte{b[4], b[5], b[6], b[7]})
		client := netip.AddrFrom4([4]byte{^b[12], ^b[13], ^b[14], ^b[15]})
		return []netip.Addr{server, client}, true
	}
	return nil, false
}

// isPublic reports whether ip is a public unicast address: one that IANA's
// special-purpose registries do not mark as not globally reachable, and that
// carries no IPv4 address that is not public itself.
func isPublic(ip netip.Addr) bool {
	ip = ip.Unmap()
	if !ip.IsValid() || ip.Zone() != "" || ip.IsUnspecified() || ip.IsLoopback() || ip.IsPrivate() ||
		ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() || ip.IsInterfaceLocalMulticast() ||
		ip.IsMulticast() {
		return false
	}
	if ip.Is4() {
		return !inAny(ip, blockedPrefixes4)
	}
	if inner, ok := embeddedIPv4(ip); ok {
		for _, v4 := range inner {
			if !isPublic(v4) {
				return false
			}
		}
		return true
	}
	return globalUnicast6.Contains(ip) && !inAny(ip, blockedPrefixes6)
}

func inAny(ip netip.Addr, prefixes []netip.Prefix) bool {
	for _, p := range prefixes {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// checkTarget rejects URLs the fetcher never reads, before any network use.
func checkTarget(u *url.URL) error {
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("scheme %q is not http or https", u.Scheme)
	}
	if u.Hostname() == "" {
		return errors.New("no host")
	}
	if u.User != nil {
		return errors.New("URLs with credentials are not read")
	}
	return nil
}

// Response is what the fetcher keeps of one HTTP Response.
type Response struct {
	URL        string // final URL after redirects
	Status     int
	Header     http.Header
	Body       []byte
	Truncated  bool // the body was longer than the size bound
	Compressed bool // the server sent the body compressed
	Elapsed    time.Duration
}

// get reads rawURL with the method given, following at most maxRedirects
// redirects, and keeps at most limit bytes of the body (limit <= 0 means the
// fetcher's bound). It does not consult robots.txt (robots.txt itself is
// read this way); a site's pages are read through a session. Errors are not
// wrapped in ErrUnreadable: callers decide whether a failure makes the whole
// site unreadable.
func (f *Fetcher) get(ctx context.Context, method, rawURL string, limit int64) (*Response, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	if err := checkTarget(u); err != nil {
		return nil, err
	}
	return f.do(ctx, f.client, method, u, limit)
}

// do performs one bounded request with client.
func (f *Fetcher) do(ctx context.Context, client *http.Client, method string, u *url.URL, limit int64) (*Response, error) {
	if limit <= 0 || limit > f.maxBytes {
		limit = f.maxBytes
	}
	ctx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, u.String(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", f.userAgent)
	req.Header.Set("Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,application/json;q=0.8,*/*;q=0.5")
	// Accept-Encoding is left to the transport, which asks for gzip and
	// decompresses transparently; the size bound applies to decompressed
	// bytes, so a gzip bomb cannot blow it.
	start := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	out := &Response{
		URL:        resp.Request.URL.String(),
		Status:     resp.StatusCode,
		Header:     resp.Header,
		Compressed: resp.Uncompressed || resp.Header.Get("Content-Encoding") != "",
	}
	if method != http.MethodHead {
		body, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
		if err != nil && len(body) == 0 {
			return nil, err
		}
		if int64(len(body)) > limit {
			body, out.Truncated = body[:limit], true
		}
		out.Body = body
	}
	out.Elapsed = time.Since(start)
	return out, nil
}

// Size returns the response's Size in bytes: the body read, or for HEAD the
// declared Content-Length (-1 when unknown).
func (r *Response) Size() int64 {
	if r.Body != nil {
		return int64(len(r.Body))
	}
	if n, err := strconv.ParseInt(r.Header.Get("Content-Length"), 10, 64); err == nil {
		return n
	}
	return -1
}

// IsHTML reports whether the response declares (or, undeclared, looks like) HTML.
func (r *Response) IsHTML() bool {
	ct := strings.ToLower(r.Header.Get("Content-Type"))
	if ct == "" {
		ct = strings.ToLower(http.DetectContentType(r.Body))
	}
	return strings.Contains(ct, "text/html") || strings.Contains(ct, "application/xhtml")
}

// robotsCache fetches and remembers each host's robots.txt for one read of
// a site, so every page fetched in that read obeys it.
type robotsCache struct {
	f     *Fetcher
	agent string
	mu    sync.Mutex
	hosts map[string]*robotsEntry
}

type robotsEntry struct {
	once   sync.Once
	rules  *robotsRules
	status int   // HTTP status of robots.txt, 0 when unreachable
	err    error // why robots.txt could not be fetched
}

func newRobotsCache(f *Fetcher) *robotsCache {
	return &robotsCache{f: f, agent: botToken(f.userAgent), hosts: map[string]*robotsEntry{}}
}

// entry returns the robots.txt of u's scheme and host, fetching it once.
func (rc *robotsCache) entry(ctx context.Context, u *url.URL) *robotsEntry {
	key := u.Scheme + "://" + u.Host
	rc.mu.Lock()
	e, ok := rc.hosts[key]
	if !ok {
		e = &robotsEntry{}
		rc.hosts[key] = e
	}
	rc.mu.Unlock()
	e.once.Do(func() {
		// robots.txt itself is fetched without the robots check.
		resp, err := rc.f.get(ctx, http.MethodGet, key+"/robots.txt", 512<<10)
		switch {
		case err != nil:
			// RFC 9309: an unreachable robots.txt means the site may not be
			// crawled; the reason (refused address, DNS, timeout) is kept.
			e.rules, e.err = disallowAll(), err
		case resp.Status >= 500:
			e.status = resp.Status
			e.rules = disallowAll()
		case resp.Status >= 400:
			e.status = resp.Status
			e.rules = &robotsRules{}
		default:
			e.status = resp.Status
			e.rules = parseRobots(string(resp.Body), rc.agent)
		}
	})
	return e
}

// check returns nil if the bot may read u, errRobots if robots.txt forbids
// it, or the reason robots.txt itself could not be read.
func (rc *robotsCache) check(ctx context.Context, u *url.URL) error {
	if u.Path == "/robots.txt" {
		return nil
	}
	e := rc.entry(ctx, u)
	if e.err != nil {
		return e.err
	}
	if e.status >= 500 {
		return RobotsServerError{Status: e.status}
	}
	if !e.rules.allows(u.EscapedPath(), u.RawQuery) {
		return ErrRobots
	}
	return nil
}

// botToken is the product token robots.txt groups are matched against:
// the user agent up to the first "/" or space ("UpliftBot").
func botToken(ua string) string {
	if i := strings.IndexAny(ua, "/ "); i > 0 {
		return ua[:i]
	}
	return ua
}

// Robots returns the HTTP status of the robots.txt of u's host (0 when it
// could not be read) and the sitemaps it names.
func (s *Session) Robots(ctx context.Context, u *url.URL) (status int, sitemaps []string) {
	e := s.robots.entry(ctx, u)
	return e.status, e.rules.sitemaps
}
