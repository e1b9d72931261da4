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

	"uplift.dev/review/internal/analysis/fetch"
	"uplift.dev/review/internal/analysis/review"
)

// TestEmbeddedIPv4TargetsAreRefused checks the same policy where it matters:
// a literal in the URL, and a name whose AAAA answer embeds a private address.
func TestEmbeddedIPv4TargetsAreRefused(t *testing.T) {
	a := newTestAnalyzer(t, nil, Options{Timeout: time.Second, Resolve: func(_ context.Context, host string) ([]netip.Addr, error) {
		return []netip.Addr{netip.MustParseAddr("2002:a00:1::1")}, nil
	}})
	for _, u := range []string{
		"http://[::127.0.0.1]/", "http://[::a9fe:a9fe]/", "http://[2002:a9fe:a9fe::1]/",
		"http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/", "http://[64:ff9b::a00:1]/", "http://[64:ff9b:1::808:808]/",
	} {
		mustRefuse(t, a.Check(context.Background(), u), fetch.ErrBlockedAddress)
	}
	mustRefuse(t, a.Check(context.Background(), "http://six-to-four.example/"), fetch.ErrBlockedAddress)
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
	mustRefuse(t, a.Check(context.Background(), srv.URL), fetch.ErrBlockedAddress)
	_, err := a.Score(context.Background(), strings.Replace(srv.URL, "127.0.0.1", "localhost", 1))
	mustRefuse(t, err, fetch.ErrBlockedAddress)
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
			mustRefuse(t, newTestAnalyzer(t, nil, Options{}).Check(context.Background(), srv.URL), fetch.ErrBlockedAddress)
		})
	}
}

func TestMetadataAndPrivateLiteralsAreRefused(t *testing.T) {
	a := newTestAnalyzer(t, nil, Options{Timeout: time.Second})
	for _, u := range []string{"http://169.254.169.254/latest/meta-data/", "http://[fd00:ec2::254]/", "http://100.100.100.200/", "http://0.0.0.0/", "http://[::ffff:10.0.0.1]/"} {
		mustRefuse(t, a.Check(context.Background(), u), fetch.ErrBlockedAddress)
	}
}

func TestHostnameResolvingToPrivateAddressIsRefused(t *testing.T) {
	var asked []string
	a := newTestAnalyzer(t, nil, Options{Timeout: time.Second, Resolve: func(_ context.Context, host string) ([]netip.Addr, error) {
		asked = append(asked, host)
		switch host {
		case "shop.example":
			return []netip.Addr{netip.MustParseAddr("10.1.2.3")}, nil
		case "mixed.example": // one public, one private: the whole answer is refused
			return []netip.Addr{netip.MustParseAddr("93.184.216.34"), netip.MustParseAddr("169.254.169.254")}, nil
		}
		return nil, errors.New("no such host")
	}})
	mustRefuse(t, a.Check(context.Background(), "http://shop.example/"), fetch.ErrBlockedAddress)
	mustRefuse(t, a.Check(context.Background(), "mixed.example"), fetch.ErrBlockedAddress)
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
	f := findings(rv, review.CheckPageWeight)
	if len(f) != 1 || !strings.Contains(f[0].Title, "enormous") {
		t.Errorf("page-weight finding: %+v", f)
	}
	r, err := fetch.New(fetch.Options{AllowLoopback: true, Timeout: 5 * time.Second, MaxBytes: 64 << 10}).Session().Get(context.Background(), http.MethodGet, srv.URL, 0)
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
	mustRefuse(t, a.Check(context.Background(), srv.URL+"/products/secret"), fetch.ErrRobots)
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
	mustRefuse(t, a.Check(context.Background(), blocked.URL), fetch.ErrRobots)
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

func TestAllowListedOriginIsTheOnlyLoopbackAllowed(t *testing.T) {
	demo := htmlServer(t, nil)
	other := htmlServer(t, nil)
	a := New(Options{AllowOrigins: []string{demo.URL}, Timeout: time.Second})
	if err := a.Check(context.Background(), demo.URL); err != nil {
		t.Errorf("the allow-listed origin was refused: %v", err)
	}
	mustRefuse(t, a.Check(context.Background(), other.URL), fetch.ErrBlockedAddress)
	mustRefuse(t, a.Check(context.Background(), "http://10.0.0.1/"), fetch.ErrBlockedAddress)
}
