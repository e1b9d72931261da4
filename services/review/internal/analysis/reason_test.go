package analysis

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"uplift.dev/review/domain"
)

// TestReasonSaysWhyInWords reads real loopback sites that fail in the
// ways a store's site does, and checks the owner is told which, in words
// with nothing internal (no address, no Go error text).
func TestReasonSaysWhyInWords(t *testing.T) {
	serve := func(h http.HandlerFunc) string {
		srv := httptest.NewServer(h)
		t.Cleanup(srv.Close)
		return srv.URL + "/"
	}
	closed := func() string {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addr := l.Addr().String()
		_ = l.Close()
		return "http://" + addr + "/"
	}()
	slow := make(chan struct{})
	t.Cleanup(func() { close(slow) })
	cases := []struct {
		name, site, want string
	}{
		{"down for maintenance", serve(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(503) }),
			"it answered that the site is unavailable (HTTP 503)"},
		{"server error", serve(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(502) }),
			"its server answered with an error (HTTP 502)"},
		{"password page", serve(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(401) }),
			"it refused to be read (HTTP 401): it may be password-protected"},
		{"not a web page", serve(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/pdf")
			_, _ = w.Write([]byte("%PDF-1.4"))
		}), "its home page is not a web page"},
		{"nothing listening", closed, "its server refused the connection"},
		{"too slow", serve(func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-slow:
			case <-r.Context().Done():
			}
		}), "it did not answer in time"},
	}
	a := New(Options{AllowLoopback: true, MaxPages: 1, Timeout: 300 * time.Millisecond, Now: fixedNow})
	for _, c := range cases {
		_, err := a.Analyze(context.Background(), c.site, nil, nil)
		if !errors.Is(err, ErrUnreadable) {
			t.Errorf("%s: err = %v, want ErrUnreadable", c.name, err)
			continue
		}
		got := Reason(err)
		if got != c.want {
			t.Errorf("%s: Reason = %q, want %q (err %v)", c.name, got, c.want, err)
		}
		if strings.Contains(got, "127.0.0.1") {
			t.Errorf("%s: the reason names an address: %q", c.name, got)
		}
	}
	// A public address the policy refuses (loopback, when not allowed).
	strict := New(Options{MaxPages: 1, Timeout: 300 * time.Millisecond, Now: fixedNow})
	if _, err := strict.Analyze(context.Background(), closed, nil, nil); Reason(err) != "its address does not lead to a public website" {
		t.Errorf("blocked address: Reason = %q (err %v)", Reason(err), err)
	}
	if got := Reason(errors.New("something else")); got != "it could not be read" {
		t.Errorf("unknown: %q", got)
	}
}

// TestProblemTellsTheKindsApart checks the three kinds the business
// profile names differently, on real lookups and the real address policy:
// a domain that does not exist, an address on a private network, and a
// site that is there but will not be read.
func TestProblemTellsTheKindsApart(t *testing.T) {
	a := New(Options{AllowLoopback: true, MaxPages: 1, Timeout: 2 * time.Second, Now: fixedNow})
	closed := func() string {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		return "http://" + l.Addr().String() + "/"
	}()
	for _, c := range []struct {
		site string
		want domain.SiteProblem
	}{
		{"https://no-such-store.invalid/", domain.SiteNotFound},
		{"http://10.0.0.1/", domain.SitePrivate},
		{"http://192.168.0.7:8080/shop", domain.SitePrivate},
		{"http://[fe80::1]/", domain.SitePrivate},
		{closed, domain.SiteUnreadable},
	} {
		err := a.Check(context.Background(), c.site)
		if err == nil {
			t.Errorf("%s: read", c.site)
			continue
		}
		if got := Problem(err); got != c.want {
			t.Errorf("%s: Problem = %v, want %v (err %v)", c.site, got, c.want, err)
		}
	}
	if got := Problem(errors.New("something else")); got != domain.SiteUnreadable {
		t.Errorf("unknown: %v", got)
	}
}
