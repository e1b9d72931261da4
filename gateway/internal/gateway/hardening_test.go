package gateway

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/prometheus/client_golang/prometheus"
	"google.golang.org/grpc/codes"
)

// TestWebsiteScoreLimitCoversEveryRoute spends the bucket with GETs, then
// tries the other ways grpc-gateway could reach the same RPC: a form POST
// (its "path length fallback") and a form POST with X-HTTP-Method-Override.
// None may reach the website check.
func TestWebsiteScoreLimitCoversEveryRoute(t *testing.T) {
	t.Parallel()
	url := setupEvents(t, "")
	for i := range 3 {
		if code, _, body := do(t, "GET", url+"/internal/website-score?url=shop.example", "", nil); code != 200 {
			t.Fatalf("check %d: %d %v", i, code, body)
		}
	}
	form := "application/x-www-form-urlencoded"
	for _, tt := range []struct {
		name   string
		target string
		header map[string]string
	}{
		{"form POST", "/internal/website-score", map[string]string{"Content-Type": form}},
		{"form POST with charset", "/internal/website-score", map[string]string{"Content-Type": form + "; charset=utf-8"}},
		{"form POST with method override", "/internal/website-score", map[string]string{"Content-Type": form, "X-HTTP-Method-Override": "GET"}},
		{"form POST with the url in the query", "/internal/website-score?url=shop.example", map[string]string{"Content-Type": form}},
		{"HEAD", "/internal/website-score?url=shop.example", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			method := "POST"
			if tt.name == "HEAD" {
				method = "HEAD"
			}
			code, _, body := do(t, method, url+tt.target, "url=shop.example", tt.header)
			if code < 400 || code >= 500 {
				t.Fatalf("reached the website check past the limit: %d %v", code, body)
			}
		})
	}
}

// TestMetricsAreNotPublic: the public port must not serve /metrics, where
// anyone could read it and (with made-up methods) grow it without bound.
func TestMetricsAreNotPublic(t *testing.T) {
	t.Parallel()
	e := setup(t)
	for _, m := range []string{"BREW", "PROPFIND1", "X-HACK"} {
		do(t, m, e.url+"/internal/users", "", nil)
	}
	resp, err := http.Get(e.url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("public /metrics answered %d, want 404", resp.StatusCode)
	}
}

// TestMalformedTargetsAre400 sends what a fuzzer sends in paths and query
// strings: every one is the client's mistake, so 400 with a message, never
// a 500 or a call to a service.
func TestMalformedTargetsAre400(t *testing.T) {
	t.Parallel()
	e := setup(t)
	huge := strings.Repeat("a", 1<<20)
	for _, tt := range []struct{ name, target string }{
		{"NUL in a path id", "/internal/users/a%00b"},
		{"invalid UTF-8 in a path id", "/internal/users/a%ffb"},
		{"control character in a path id", "/internal/users/a%0Ab"},
		{"a 1 MB path id", "/internal/users/" + huge},
		{"NUL in a query value", "/internal/website-score?url=a%00b"},
		{"invalid UTF-8 in a query value", "/internal/website-score?url=%ff"},
		{"invalid UTF-8 in a query key", "/internal/website-score?%ff=1"},
		{"a 1 MB query value", "/internal/website-score?url=" + huge},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, _, body := do(t, "GET", e.url+tt.target, "", nil)
			if code != http.StatusBadRequest {
				t.Fatalf("status %d, want 400 (%.200v)", code, body)
			}
			hasMessage(t, body)
		})
	}
}

// TestErrorMessagesAreCapped: a service message that echoes a long input
// reaches the client cut to 200 characters, ending in "…".
func TestErrorMessagesAreCapped(t *testing.T) {
	t.Parallel()
	e := setup(t)
	code, _, body := do(t, "POST", e.url+"/internal/users", `{"email":"echo:`+strings.Repeat("x", 900)+`"}`, nil)
	msg, _ := body["message"].(string)
	if code != http.StatusBadRequest || utf8.RuneCountInString(msg) > 200 || !strings.HasSuffix(msg, "…") {
		t.Fatalf("status %d, message of %d characters: %.80q", code, utf8.RuneCountInString(msg), msg)
	}
}

// TestFieldErrorsNameTheirField: a service's field violation reaches the
// client with its field, so a form can show the message under it; other
// errors name none.
func TestFieldErrorsNameTheirField(t *testing.T) {
	t.Parallel()
	e := setup(t)
	code, _, body := do(t, "POST", e.url+"/internal/users", `{"email":"field@example.com"}`, nil)
	fields, _ := body["fields"].([]any)
	if code != http.StatusBadRequest || body["message"] != "This email address cannot be used." || len(fields) != 1 {
		t.Fatalf("status %d, body %v", code, body)
	}
	if f, _ := fields[0].(map[string]any); f["field"] != "email" || f["message"] != "This email address cannot be used." {
		t.Fatalf("field %v", fields[0])
	}
	if _, _, body := do(t, "POST", e.url+"/internal/users", `{"email":"echo:x"}`, nil); body["fields"] != nil {
		t.Fatalf("a plain error names fields: %v", body)
	}
}

func TestClientAddrTrustsOnlyConfiguredProxies(t *testing.T) {
	trusted, err := ParseTrustedProxies([]string{"10.0.0.0/8", " 192.0.2.1 ", "", "fd00::/8"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, peer string
		xff        []string
		trusted    []netip.Prefix
		want       string
	}{
		{"no proxies trusted: the header is ignored", "203.0.113.9:5000", []string{"198.51.100.1"}, nil, "203.0.113.9"},
		{"untrusted peer: the header is ignored", "203.0.113.9:5000", []string{"198.51.100.1"}, trusted, "203.0.113.9"},
		{"trusted peer: the hop it appended", "10.1.2.3:5000", []string{"198.51.100.1"}, trusted, "198.51.100.1"},
		{"a client-written hop on the left is skipped", "10.1.2.3:5000", []string{"6.6.6.6, 198.51.100.1"}, trusted, "198.51.100.1"},
		{"chains of trusted proxies", "10.1.2.3:5000", []string{"6.6.6.6, 198.51.100.1, 192.0.2.1", "10.9.9.9"}, trusted, "198.51.100.1"},
		{"an unreadable hop stops at the last proxy", "10.1.2.3:5000", []string{"198.51.100.1, garbage"}, trusted, "10.1.2.3"},
		{"hops with ports", "10.1.2.3:5000", []string{"[2001:db8::7]:443"}, trusted, "2001:db8::7"},
		{"every hop trusted: the leftmost", "10.1.2.3:5000", []string{"10.0.0.1"}, trusted, "10.0.0.1"},
		{"trusted peer without the header", "10.1.2.3:5000", nil, trusted, "10.1.2.3"},
		{"IPv4-mapped peer", "[::ffff:10.1.2.3]:5000", []string{"198.51.100.1"}, trusted, "198.51.100.1"},
		{"IPv6 proxy", "[fd00::1]:5000", []string{"2001:db8::1"}, trusted, "2001:db8::1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/", nil)
			r.RemoteAddr = tt.peer
			for _, h := range tt.xff {
				r.Header.Add("X-Forwarded-For", h)
			}
			if got := clientAddr(r, tt.trusted); got != tt.want {
				t.Fatalf("client %q, want %q", got, tt.want)
			}
		})
	}
	for _, bad := range []string{"10.0.0.0/33", "example.com", "10.0.0"} {
		if _, err := ParseTrustedProxies([]string{bad}); err == nil {
			t.Errorf("ParseTrustedProxies accepted %q", bad)
		}
	}
}

// TestWebsiteScoreLimitBehindAProxy: behind a trusted proxy each visitor
// has their own bucket; without one a forged X-Forwarded-For buys nothing.
func TestWebsiteScoreLimitBehindAProxy(t *testing.T) {
	t.Parallel()
	check := func(url, xff string) int {
		code, _, _ := do(t, "GET", url+"/internal/website-score?url=shop.example", "", map[string]string{"X-Forwarded-For": xff})
		return code
	}
	proxied := setupEventsWith(t, "", func(o *Options) { o.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")} })
	for i := range 3 {
		if code := check(proxied, "198.51.100.1"); code != 200 {
			t.Fatalf("visitor A, check %d: %d", i, code)
		}
	}
	if code := check(proxied, "198.51.100.1"); code != http.StatusTooManyRequests {
		t.Fatalf("visitor A, 4th check: %d", code)
	}
	if code := check(proxied, "6.6.6.6, 198.51.100.1"); code != http.StatusTooManyRequests {
		t.Fatalf("visitor A with a forged hop on the left: %d", code)
	}
	if code := check(proxied, "198.51.100.2"); code != 200 {
		t.Fatalf("visitor B shares A's bucket: %d", code)
	}

	direct := setupEvents(t, "")
	for i := range 3 {
		check(direct, fmt.Sprintf("198.51.100.%d", i))
	}
	if code := check(direct, "198.51.100.99"); code != http.StatusTooManyRequests {
		t.Fatalf("untrusted X-Forwarded-For gave a fresh bucket: %d", code)
	}
}

// TestMetricsAreBoundedAndInternal: made-up methods are one OTHER series,
// and the metrics are served by MetricsHandler (the internal address) only.
func TestMetricsAreBoundedAndInternal(t *testing.T) {
	t.Parallel()
	reg := prometheus.NewRegistry()
	url := setupEventsWith(t, "", func(o *Options) { o.Metrics = reg })
	for i := range 50 {
		do(t, fmt.Sprintf("BREW%d", i), url+"/internal/website-score", "", nil)
	}
	do(t, "GET", url+"/nope", "", nil)
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	methods := map[string]bool{}
	for _, f := range families {
		if f.GetName() != "http_request_duration_seconds" {
			continue
		}
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "method" {
					methods[l.GetValue()] = true
				}
			}
		}
	}
	if len(methods) != 2 || !methods["OTHER"] || !methods["GET"] {
		t.Fatalf("method label values %v, want GET and OTHER", methods)
	}
	if code, _, _ := do(t, "GET", url+"/metrics", "", nil); code != http.StatusNotFound {
		t.Fatalf("public /metrics: %d", code)
	}
	internal := httptest.NewServer(MetricsHandler(reg))
	defer internal.Close()
	resp, err := http.Get(internal.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), `method="OTHER"`) || strings.Contains(string(body), "BREW") {
		t.Fatalf("internal /metrics: %d\n%s", resp.StatusCode, body)
	}
}

// TestRunServesMetricsOnTheInternalAddressOnly starts the gateway as the
// binary does, with a public and an internal address.
func TestRunServesMetricsOnTheInternalAddressOnly(t *testing.T) {
	t.Parallel()
	public, internal := freeAddr(t), freeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, public, Options{Backends: map[string]string{}, MetricsAddr: internal,
			Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	get := func(url string) int {
		deadline := time.Now().Add(5 * time.Second)
		for {
			resp, err := http.Get(url)
			if err == nil {
				resp.Body.Close()
				return resp.StatusCode
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: %v", url, err)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	if code := get("http://" + internal + "/metrics"); code != 200 {
		t.Fatalf("internal /metrics: %d", code)
	}
	if code := get("http://" + public + "/metrics"); code != http.StatusNotFound {
		t.Fatalf("public /metrics: %d", code)
	}
	// Go's profiles too: on the internal address only.
	if code := get("http://" + internal + "/debug/pprof/heap"); code != 200 {
		t.Fatalf("internal /debug/pprof/heap: %d", code)
	}
	for _, p := range []string{"/debug/pprof/", "/debug/pprof/heap", "/debug/pprof/profile?seconds=1"} {
		if code := get("http://" + public + p); code != http.StatusNotFound {
			t.Fatalf("public %s: %d", p, code)
		}
	}
}

func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// TestSignUpIsThrottledPerClient: sign-up (POST internal/users, which makes a
// Firebase account with the Admin SDK, past Firebase's own abuse checks) is
// limited per client address like the website score: past the limit 429
// with Retry-After and a message, whatever the outcome of earlier tries;
// another client, and other calls, are not affected.
func TestSignUpIsThrottledPerClient(t *testing.T) {
	t.Parallel()
	e := setup(t)
	url := setupWith(t, e.backend, func(o *Options) {
		o.SignUpsPerHour = 2
		o.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	})
	signUp := func(email, client string) (int, http.Header, map[string]any) {
		return do(t, "POST", url+"/internal/users", `{"email":"`+email+`","password":"secret1"}`,
			map[string]string{"X-Forwarded-For": client})
	}
	if code, _, b := signUp("new@example.com", "198.51.100.1"); code != 200 {
		t.Fatalf("first sign-up: %d %v", code, b)
	}
	if code, _, b := signUp("taken@example.com", "198.51.100.1"); code != 200 {
		t.Fatalf("second sign-up: %d %v", code, b)
	}
	code, h, b := signUp("third@example.com", "198.51.100.1")
	retry, _ := strconv.Atoi(h.Get("Retry-After"))
	if code != http.StatusTooManyRequests || b["code"] != float64(codes.ResourceExhausted) || retry < 60 || retry > 1800 {
		t.Fatalf("third sign-up: %d Retry-After %q %v", code, h.Get("Retry-After"), b)
	}
	if msg, _ := b["message"].(string); !strings.HasPrefix(msg, "Too many sign-ups from your network.") {
		t.Fatalf("message %q", msg)
	}
	if code, _, b := signUp("other@example.com", "198.51.100.2"); code != 200 {
		t.Fatalf("another client: %d %v", code, b)
	}
	if code, _, _ := do(t, "GET", url+"/internal/users/u1", "", map[string]string{"X-Forwarded-For": "198.51.100.1"}); code != 200 {
		t.Fatalf("other calls are not limited: %d", code)
	}
}

// TestRecoveryCodesAreThrottledPerClient: trying two-step recovery codes
// (public, and each try a guess at a code) is limited per client address:
// past the limit 429 with Retry-After and a message, whatever earlier tries
// answered; another client is not affected.
func TestRecoveryCodesAreThrottledPerClient(t *testing.T) {
	t.Parallel()
	e := setup(t)
	url := setupWith(t, e.backend, func(o *Options) {
		o.RecoveryCodesPerHour = 2
		o.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	})
	try := func(client string) (int, http.Header, map[string]any) {
		return do(t, "POST", url+"/internal/users/useRecoveryCode", `{"email":"owner@example.com","code":"0000-0000-0000-0000"}`,
			map[string]string{"X-Forwarded-For": client})
	}
	for i := range 2 {
		if code, _, b := try("198.51.100.7"); code == http.StatusTooManyRequests || code >= 500 && code != http.StatusNotImplemented {
			t.Fatalf("try %d: %d %v", i+1, code, b)
		}
	}
	code, h, b := try("198.51.100.7")
	retry, _ := strconv.Atoi(h.Get("Retry-After"))
	if code != http.StatusTooManyRequests || retry < 60 || retry > 1800 {
		t.Fatalf("third try: %d Retry-After %q %v", code, h.Get("Retry-After"), b)
	}
	if msg, _ := b["message"].(string); !strings.HasPrefix(msg, "Too many recovery codes tried from your network. Please try again in ") {
		t.Fatalf("message %q", msg)
	}
	if code, _, b := try("198.51.100.8"); code == http.StatusTooManyRequests {
		t.Fatalf("another client: %d %v", code, b)
	}
}

// TestPasswordResetsAreThrottledPerClient: one client must not mail reset
// links to many accounts (the mail becomes spam under our name). Resets are limited per
// client address, whichever emails it names: past the limit 429 with
// Retry-After and a message; another client is not affected.
func TestPasswordResetsAreThrottledPerClient(t *testing.T) {
	t.Parallel()
	e := setup(t)
	url := setupWith(t, e.backend, func(o *Options) {
		o.PasswordResetsPerHour = 2
		o.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	})
	reset := func(email, client string) (int, http.Header, map[string]any) {
		return do(t, "POST", url+"/internal/users/resetPassword", `{"email":"`+email+`"}`,
			map[string]string{"X-Forwarded-For": client})
	}
	for i, email := range []string{"a@example.com", "b@example.com"} {
		if code, _, b := reset(email, "198.51.100.9"); code != 200 {
			t.Fatalf("reset %d: %d %v", i+1, code, b)
		}
	}
	code, h, b := reset("c@example.com", "198.51.100.9")
	retry, _ := strconv.Atoi(h.Get("Retry-After"))
	if code != http.StatusTooManyRequests || b["code"] != float64(codes.ResourceExhausted) || retry < 60 || retry > 1800 {
		t.Fatalf("third reset: %d Retry-After %q %v", code, h.Get("Retry-After"), b)
	}
	if msg, _ := b["message"].(string); !strings.HasPrefix(msg, "Too many password resets from your network. Please try again in ") {
		t.Fatalf("message %q", msg)
	}
	if code, _, b := reset("c@example.com", "198.51.100.10"); code != 200 {
		t.Fatalf("another client: %d %v", code, b)
	}
}

// A stopping gateway (SIGTERM) keeps serving for its DrainDelay while its
// /healthz answers 503, so the load balancer takes it out before the
// listener closes and no request in between is refused.
func TestAStoppingGatewayDrainsBeforeItCloses(t *testing.T) {
	t.Parallel()
	public := freeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, public, Options{Backends: map[string]string{}, DrainDelay: 700 * time.Millisecond,
			Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	}()
	get := func(path string) int {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for {
			resp, err := http.Get("http://" + public + path)
			if err == nil {
				resp.Body.Close()
				return resp.StatusCode
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: %v", path, err)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	if code := get("/healthz"); code != 200 {
		t.Fatalf("/healthz before the stop: %d", code)
	}
	cancel()
	time.Sleep(100 * time.Millisecond)
	if code := get("/healthz"); code != http.StatusServiceUnavailable {
		t.Fatalf("/healthz while draining: %d, want 503", code)
	}
	if code := get("/openapi.json"); code != 200 {
		t.Fatalf("a request while draining: %d, want it served", code)
	}
	select {
	case err := <-done:
		t.Fatalf("Run returned before its drain delay: %v", err)
	default:
	}
	if err := <-done; err != nil {
		t.Fatalf("Run: %v", err)
	}
}
