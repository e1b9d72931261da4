package stack

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// TestSinkGuardRefusesOtherSites: MailDev answers any Origin with
// Access-Control-Allow-Origin set to it and credentials allowed, so any web
// page a developer opens could read the local mail, reset links included.
// The guard in front of it serves only its own page, tools (no Origin) and
// its own loopback names.
func TestSinkGuardRefusesOtherSites(t *testing.T) {
	// upstream behaves like MailDev's API: it reflects every Origin.
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if o := r.Header.Get("Origin"); o != "" {
			w.Header().Set("Access-Control-Allow-Origin", o)
			w.Header().Set("Access-Control-Allow-Credentials", "true")
		}
		if r.Method == http.MethodOptions {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		_, _ = io.WriteString(w, `[{"html":"https://reset?oobCode=secret"}]`)
	}))
	defer upstream.Close()
	u, _ := url.Parse(upstream.URL)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(lis.Addr().String())
	guard := httptest.NewUnstartedServer(sinkGuard(u, port))
	guard.Listener.Close()
	guard.Listener = lis
	guard.Start()
	defer guard.Close()

	for _, tt := range []struct {
		name, method, host, origin string
		want                       int
	}{
		{"a tool (no Origin)", "GET", "127.0.0.1:" + port, "", 200},
		{"the sink's own page", "GET", "127.0.0.1:" + port, "http://127.0.0.1:" + port, 200},
		{"the sink's own page by name", "GET", "localhost:" + port, "http://localhost:" + port, 200},
		{"another site", "GET", "127.0.0.1:" + port, "https://evil.example", http.StatusForbidden},
		{"another site's preflight", "OPTIONS", "127.0.0.1:" + port, "https://evil.example", http.StatusForbidden},
		{"the web app's origin", "GET", "127.0.0.1:" + port, "http://localhost:3000", http.StatusForbidden},
		{"a rebound DNS name", "GET", "rebind.attacker.example:" + port, "", http.StatusMisdirectedRequest},
	} {
		t.Run(tt.name, func(t *testing.T) {
			req, _ := http.NewRequest(tt.method, guard.URL+"/email", nil)
			req.Host = tt.host
			if tt.origin != "" {
				req.Header.Set("Origin", tt.origin)
				req.Header.Set("Access-Control-Request-Method", "GET")
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.want {
				t.Fatalf("status %d, want %d", resp.StatusCode, tt.want)
			}
			if tt.want != 200 {
				if a := resp.Header.Get("Access-Control-Allow-Origin"); a != "" || strings.Contains(string(body), "oobCode") {
					t.Fatalf("refused, but Access-Control-Allow-Origin %q, body %s", a, body)
				}
			}
		})
	}
}
