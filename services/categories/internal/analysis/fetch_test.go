package analysis

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestIsPublic(t *testing.T) {
	for ip, want := range map[string]bool{
		"8.8.8.8": true, "93.184.216.34": true, "2606:4700::1111": true,
		"127.0.0.1": false, "::1": false, "10.0.0.1": false, "172.16.5.4": false, "192.168.1.1": false,
		"169.254.169.254": false, "fd00:ec2::254": false, "100.64.0.1": false, "100.100.100.200": false,
		"0.0.0.0": false, "::": false, "224.0.0.1": false, "ff02::1": false, "fe80::1": false,
		"::ffff:127.0.0.1": false, "::ffff:10.0.0.1": false, "64:ff9b::a00:1": false, "64:ff9b::808:808": true,
		"255.255.255.255": false, "198.18.0.1": false,
	} {
		if got := isPublic(netip.MustParseAddr(ip)); got != want {
			t.Errorf("isPublic(%s) = %v, want %v", ip, got, want)
		}
	}
}

// TestEmbeddedIPv4AndSpecialPurposeIPv6 covers IPv6 addresses that carry an
// IPv4 address a connection could really reach (IPv4-compatible, IPv4-mapped,
// 6to4, Teredo, NAT64) and the IANA special-purpose ranges that are not
// globally reachable.
func TestEmbeddedIPv4AndSpecialPurposeIPv6(t *testing.T) {
	for _, tc := range []struct {
		name, ip string
		want     bool
	}{
		// IPv4-compatible ::a.b.c.d (deprecated, RFC 4291 2.5.5.1): never a real host.
		{"compatible loopback", "::127.0.0.1", false},
		{"compatible private", "::10.0.0.1", false},
		{"compatible metadata", "::169.254.169.254", false},
		{"compatible 192.168", "::192.168.1.1", false},
		{"compatible public", "::8.8.8.8", false},
		// IPv4-mapped ::ffff:a.b.c.d: judged as the IPv4 address.
		{"mapped loopback", "::ffff:127.0.0.1", false},
		{"mapped metadata", "::ffff:169.254.169.254", false},
		{"mapped shared", "::ffff:100.64.0.1", false},
		{"mapped public", "::ffff:8.8.8.8", true},
		// IPv4-translated ::ffff:0:a.b.c.d (SIIT): outside global unicast.
		{"translated private", "::ffff:0:a00:1", false},
		// 6to4 2002:AABB:CCDD::/48 embeds AA.BB.CC.DD.
		{"6to4 loopback", "2002:7f00:1::1", false},
		{"6to4 private", "2002:a00:1::", false},
		{"6to4 metadata", "2002:a9fe:a9fe::1", false},
		{"6to4 192.168", "2002:c0a8:101::1", false},
		{"6to4 shared", "2002:6440:1::1", false},
		{"6to4 this network", "2002::1", false},
		{"6to4 public", "2002:808:808::1", true},
		// Teredo 2001:0:SSSS:SSSS:flags:port:CCCC:CCCC, the client IPv4 XOR 0xffffffff.
		{"teredo client loopback", "2001:0:4136:e378:8000:63bf:80ff:fffe", false},
		{"teredo client private", "2001:0:4136:e378:8000:63bf:f5ff:fffe", false},
		{"teredo client metadata", "2001:0:4136:e378:8000:63bf:5601:5601", false},
		{"teredo client 192.168", "2001:0:4136:e378:8000:63bf:3f57:fefe", false},
		{"teredo server private", "2001:0:a00:1:8000:63bf:f7f7:f7f7", false},
		{"teredo public", "2001:0:4136:e378:8000:63bf:f7f7:f7f7", true},
		// NAT64: the well-known prefix by the IPv4 inside; local-use never.
		{"nat64 loopback", "64:ff9b::7f00:1", false},
		{"nat64 metadata", "64:ff9b::a9fe:a9fe", false},
		{"nat64 private", "64:ff9b::a00:1", false},
		{"nat64 public", "64:ff9b::808:808", true},
		{"nat64 local-use public", "64:ff9b:1::808:808", false},
		{"nat64 local-use private", "64:ff9b:1::a00:1", false},
		// The rest of IANA's IPv6 special-purpose registry that is not globally reachable.
		{"discard-only", "100::1", false},
		{"dummy prefix", "100:0:0:1::1", false},
		{"ietf protocol assignments", "2001:1::1", false},
		{"benchmarking", "2001:2::1", false},
		{"orchid", "2001:10::1", false},
		{"documentation", "2001:db8::1", false},
		{"documentation 3fff", "3fff::1", false},
		{"srv6 sids", "5f00::1", false},
		{"unique local", "fd12:3456::1", false},
		{"site-local", "fec0::1", false},
		{"link-local", "fe80::1", false},
		{"scoped", "2606:4700::1111%eth0", false},
		// IPv4 special-purpose, not globally reachable.
		{"6to4 relay anycast", "192.88.99.1", false},
		{"nat64 discovery", "192.0.0.170", false},
		{"limited broadcast", "255.255.255.255", false},
		// Ordinary public addresses stay allowed, including next to the ranges above.
		{"cloudflare", "2606:4700::1111", true},
		{"google dns", "2001:4860:4860::8888", true},
		{"just past 2001::/23", "2001:200::1", true},
		{"as112 direct delegation", "2620:4f:8000::1", true},
		{"public v4", "93.184.216.34", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := isPublic(netip.MustParseAddr(tc.ip)); got != tc.want {
				t.Errorf("isPublic(%s) = %v, want %v", tc.ip, got, tc.want)
			}
		})
	}
}

// TestEmbeddedIPv4TargetsAreRefused checks the same policy where it matters:
// a literal in the URL, and a name whose AAAA answer embeds a private address.
func TestEmbeddedIPv4TargetsAreRefused(t *testing.T) {
	a := newTestAnalyzer(t, nil, Options{Timeout: time.Second})
	for _, u := range []string{
		"http://[::127.0.0.1]/", "http://[::a9fe:a9fe]/", "http://[2002:a9fe:a9fe::1]/",
		"http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/", "http://[64:ff9b::a00:1]/", "http://[64:ff9b:1::808:808]/",
	} {
		mustRefuse(t, a.Check(context.Background(), u), ErrBlockedAddress)
	}
	a.f.resolve = func(_ context.Context, host string) ([]netip.Addr, error) {
		return []netip.Addr{netip.MustParseAddr("2002:a00:1::1")}, nil
	}
	mustRefuse(t, a.Check(context.Background(), "http://six-to-four.example/"), ErrBlockedAddress)
}

func mustRefuse(t *testing.T, err error, why error) {
	t.Helper()
	if !errors.Is(err, ErrUnreadable) {
		t.Fatalf("err = %v, want ErrUnreadable", err)
	}
	if why != nil && !errors.Is(err, why) {
		t.Fatalf("err = %v, want it to wrap %v", err, why)
	}
}

func htmlServer(t *testing.T, hits *atomic.Int32) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hits != nil {
			hits.Add(1)
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html><head><title>Shop</title></head><body><h1>Hi</h1></body></html>")
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestLoopbackIsRefusedWithoutTheTestAllowance(t *testing.T) {
	var hits atomic.Int32
	srv := htmlServer(t, &hits)
	a := New(Options{Timeout: 2 * time.Second})
	mustRefuse(t, a.Check(context.Background(), srv.URL), ErrBlockedAddress)
	_, err := a.Score(context.Background(), strings.Replace(srv.URL, "127.0.0.1", "localhost", 1))
	mustRefuse(t, err, ErrBlockedAddress)
	if hits.Load() != 0 {
		t.Fatalf("the loopback server was reached %d times", hits.Load())
	}
	if err := newTestAnalyzer(t, nil, Options{}).Check(context.Background(), srv.URL); err != nil {
		t.Fatalf("with AllowLoopback: %v", err)
	}
}

func TestRedirectToPrivateOrMetadataAddressIsRefused(t *testing.T) {
	for _, target := range []string{"http://10.0.0.1/admin", "http://169.254.169.254/latest/meta-data/", "http://[fd00:ec2::254]/", "http://192.168.0.1/"} {
		t.Run(target, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/robots.txt" {
					http.NotFound(w, r)
					return
				}
				http.Redirect(w, r, target, http.StatusFound)
			}))
			t.Cleanup(srv.Close)
			mustRefuse(t, newTestAnalyzer(t, nil, Options{}).Check(context.Background(), srv.URL), ErrBlockedAddress)
		})
	}
}

func TestMetadataAndPrivateLiteralsAreRefused(t *testing.T) {
	a := newTestAnalyzer(t, nil, Options{Timeout: time.Second})
	for _, u := range []string{"http://169.254.169.254/latest/meta-data/", "http://[fd00:ec2::254]/", "http://100.100.100.200/", "http://0.0.0.0/", "http://[::ffff:10.0.0.1]/"} {
		mustRefuse(t, a.Check(context.Background(), u), ErrBlockedAddress)
	}
}

func TestHostnameResolvingToPrivateAddressIsRefused(t *testing.T) {
	a := newTestAnalyzer(t, nil, Options{Timeout: time.Second})
	var asked []string
	a.f.resolve = func(_ context.Context, host string) ([]netip.Addr, error) {
		asked = append(asked, host)
		switch host {
		case "shop.example":
			return []netip.Addr{netip.MustParseAddr("10.1.2.3")}, nil
		case "mixed.example": // one public, one private: the whole answer is refused
			return []netip.Addr{netip.MustParseAddr("93.184.216.34"), netip.MustParseAddr("169.254.169.254")}, nil
		}
		return nil, errors.New("no such host")
	}
	mustRefuse(t, a.Check(context.Background(), "http://shop.example/"), ErrBlockedAddress)
	mustRefuse(t, a.Check(context.Background(), "mixed.example"), ErrBlockedAddress)
	mustRefuse(t, a.Check(context.Background(), "http://missing.example/"), nil)
	if len(asked) < 3 {
		t.Errorf("resolver asked %v", asked)
	}
}

func TestNonHTTPSchemesAreRefused(t *testing.T) {
	a := newTestAnalyzer(t, nil, Options{})
	for _, u := range []string{"file:///etc/passwd", "ftp://example.com/", "gopher://127.0.0.1:70/", "javascript:alert(1)", "http://user:pw@127.0.0.1/"} {
		mustRefuse(t, a.Check(context.Background(), u), nil)
	}
}

func TestOversizeBodyIsBounded(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html><head><title>Endless Shop Home Page</title></head><body>")
		chunk := []byte(strings.Repeat("<p>more and more</p>", 1000))
		for i := 0; i < 5000; i++ { // ~100 MB if nobody stops reading
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	a := newTestAnalyzer(t, srv, Options{MaxBytes: 64 << 10})
	start := time.Now()
	rv, err := a.Score(context.Background(), srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if time.Since(start) > 10*time.Second {
		t.Errorf("took %v", time.Since(start))
	}
	f := findings(rv, CheckPageWeight)
	if len(f) != 1 || !strings.Contains(f[0].Title, "enormous") {
		t.Errorf("page-weight finding: %+v", f)
	}
	r, err := a.f.get(context.Background(), http.MethodGet, srv.URL, 0)
	if err != nil || !r.Truncated || len(r.Body) != 64<<10 {
		t.Errorf("body %d bytes, truncated %v, err %v", len(r.Body), r.Truncated, err)
	}
}

func TestRobotsDisallowIsHonoured(t *testing.T) {
	var secret atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nDisallow: /private\n\nUser-agent: UpliftBot\nDisallow: /products/secret\n")
		case "/products/secret":
			secret.Add(1)
			fallthrough
		default:
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<html><head><title>Robots Test Store</title></head><body><a href="/products/secret">Secret</a><a href="/products/open">Open</a></body></html>`)
		}
	}))
	t.Cleanup(srv.Close)
	a := newTestAnalyzer(t, srv, Options{})
	if _, err := a.Analyze(context.Background(), srv.URL, nil, nil); err != nil {
		t.Fatal(err)
	}
	if secret.Load() != 0 {
		t.Errorf("a page robots.txt disallows for UpliftBot was fetched %d times", secret.Load())
	}
	mustRefuse(t, a.Check(context.Background(), srv.URL+"/products/secret"), ErrRobots)
	// The UpliftBot group replaces "*", so /private is allowed for us.
	if err := a.Check(context.Background(), srv.URL+"/private"); err != nil {
		t.Errorf("/private: %v", err)
	}

	blocked := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			fmt.Fprint(w, "User-agent: *\nDisallow: /\n")
			return
		}
		t.Errorf("fetched %s despite Disallow: /", r.URL.Path)
	}))
	t.Cleanup(blocked.Close)
	mustRefuse(t, a.Check(context.Background(), blocked.URL), ErrRobots)
}

func TestRedirectAndTimeBounds(t *testing.T) {
	loop := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		http.Redirect(w, r, r.URL.Path+"x", http.StatusFound)
	}))
	t.Cleanup(loop.Close)
	a := newTestAnalyzer(t, nil, Options{Timeout: 300 * time.Millisecond})
	mustRefuse(t, a.Check(context.Background(), loop.URL), nil)

	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(3 * time.Second):
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(slow.Close)
	start := time.Now()
	mustRefuse(t, a.Check(context.Background(), slow.URL), nil)
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("slow site took %v to give up", d)
	}

	notHTML := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/pdf")
		fmt.Fprint(w, "%PDF-1.4")
	}))
	t.Cleanup(notHTML.Close)
	mustRefuse(t, a.Check(context.Background(), notHTML.URL), nil)
}

func TestRobotsRules(t *testing.T) {
	r := parseRobots("User-agent: *\nDisallow: /cart\nAllow: /cart/share\nDisallow: /*?sort_by=\nDisallow: /*.pdf$\nSitemap: https://x/s.xml\n", "UpliftBot")
	for path, want := range map[string]bool{
		"/": true, "/cart": false, "/cart/x": false, "/cart/share": true,
		"/collections/all?sort_by=price": false, "/files/a.pdf": false, "/files/a.pdf.html": true,
	} {
		p, q, _ := strings.Cut(path, "?")
		if got := r.allows(p, q); got != want {
			t.Errorf("allows(%s) = %v, want %v", path, got, want)
		}
	}
	if len(r.sitemaps) != 1 {
		t.Errorf("sitemaps %v", r.sitemaps)
	}
}

func TestAllowListedOriginIsTheOnlyLoopbackAllowed(t *testing.T) {
	demo := htmlServer(t, nil)
	other := htmlServer(t, nil)
	a := New(Options{AllowOrigins: []string{demo.URL}, Timeout: time.Second})
	if err := a.Check(context.Background(), demo.URL); err != nil {
		t.Errorf("the allow-listed origin was refused: %v", err)
	}
	mustRefuse(t, a.Check(context.Background(), other.URL), ErrBlockedAddress)
	mustRefuse(t, a.Check(context.Background(), "http://10.0.0.1/"), ErrBlockedAddress)
}
