package gateway

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	categoriesv1 "uplift.dev/proto/gen/uplift/categories/v1"
	storesv1 "uplift.dev/proto/gen/uplift/stores/v1"
	usersv1 "uplift.dev/proto/gen/uplift/users/v1"

	"uplift.dev/platform/natstest"
)

// runGateway starts the gateway as the binary does (Run, a real
// http.Server) in front of fake users, categories and stores backends, and
// returns its address once it answers.
func runGateway(t *testing.T, edit func(*Options)) string {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	usersv1.RegisterUsersServiceServer(srv, &fakeUsers{})
	categoriesv1.RegisterCategoriesServiceServer(srv, fakeCategories{})
	storesv1.RegisterStoresServiceServer(srv, &fakeStores{})
	healthpb.RegisterHealthServer(srv, health.NewServer())
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	backend := lis.Addr().String()

	addr := freeAddr(t)
	o := Options{
		Backends:     map[string]string{"users": backend, "categories": backend, "stores": backend},
		MaxBodyBytes: 1 << 20,
		Log:          slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	if edit != nil {
		edit(&o)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Run(ctx, addr, o) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	deadline := time.Now().Add(5 * time.Second)
	for {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
			return addr
		}
		if time.Now().After(deadline) {
			t.Fatalf("gateway on %s: %v", addr, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// slowRequest sends a request whose body of n bytes arrives one byte every
// gap, and returns the status line the gateway answered with ("" if it
// closed the connection without one) and how long that took. It fails the
// test if nothing came within wait.
func slowRequest(t *testing.T, addr, path string, n int, gap, wait time.Duration) (string, time.Duration) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	start := time.Now()
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", path, addr, n)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for range n {
			select {
			case <-stop:
				return
			case <-time.After(gap):
			}
			if _, err := conn.Write([]byte(" ")); err != nil {
				return
			}
		}
	}()
	_ = conn.SetReadDeadline(time.Now().Add(wait))
	line, err := bufio.NewReader(conn).ReadString('\n')
	elapsed := time.Since(start)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatalf("%s: the gateway still waited for the body after %v", path, elapsed)
	}
	return strings.TrimSpace(line), elapsed
}

// TestSlowBodiesAreCut: a client that sends its body a byte at a time (the
// finding held a connection 51 s) is answered 408 once the read timeout
// passes, on the mapped routes and on the raw webhook routes alike.
func TestSlowBodiesAreCut(t *testing.T) {
	t.Parallel()
	addr := runGateway(t, func(o *Options) {
		o.ReadTimeout = 300 * time.Millisecond
		o.Backends["billing"] = o.Backends["users"]
	})
	for _, path := range []string{"/internal/users", "/webhooks/stripe", "/webhooks/shopify"} {
		t.Run(path, func(t *testing.T) {
			t.Parallel()
			line, elapsed := slowRequest(t, addr, path, 1000, 50*time.Millisecond, 5*time.Second)
			if elapsed > 3*time.Second {
				t.Fatalf("answered after %v", elapsed)
			}
			if !strings.Contains(line, " 408 ") {
				t.Fatalf("status line %q, want 408", line)
			}
		})
	}
}

// TestOrderImportMayTakeLongerToArrive: the one route that takes large
// bodies is given longer than the read timeout to receive them.
func TestOrderImportMayTakeLongerToArrive(t *testing.T) {
	t.Parallel()
	addr := runGateway(t, func(o *Options) { o.ReadTimeout = 300 * time.Millisecond })
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := `{"format":"shopify-orders-csv","csv":"a,b\n1,2\n"}`
	fmt.Fprintf(conn, "POST /internal/categories/c1/business-data/orders/import HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", addr, len(body))
	for _, part := range []string{body[:10], body[10:30], body[30:]} {
		time.Sleep(300 * time.Millisecond) // 900 ms in all, three read timeouts
		if _, err := io.WriteString(conn, part); err != nil {
			t.Fatal(err)
		}
	}
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("slow but steady import: %d", resp.StatusCode)
	}
}

// TestEventStreamOutlivesTheReadTimeout: the live report stream is a
// response that lasts as long as the page; the read timeout must not cut it.
func TestEventStreamOutlivesTheReadTimeout(t *testing.T) {
	t.Parallel()
	natsURL := natstest.Start(t)
	addr := runGateway(t, func(o *Options) {
		o.ReadTimeout = 200 * time.Millisecond
		o.NATSURL = natsURL
		o.EventsHeartbeat = 100 * time.Millisecond
	})
	req, _ := http.NewRequest("GET", "http://"+addr+"/events/categories/c1", nil)
	req.Header.Set("Authorization", "Bearer owner")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("stream: %d", resp.StatusCode)
	}
	sc := bufio.NewScanner(resp.Body)
	start := time.Now()
	for time.Since(start) < time.Second { // five read timeouts
		if !sc.Scan() {
			t.Fatalf("stream ended after %v: %v", time.Since(start), sc.Err())
		}
	}
}

// TestOnlyKnownHostNamesAreServed: a page on another site that rebinds its
// DNS name to 127.0.0.1 reaches the local gateway with its own name in the
// Host header; by default only the local names, with the gateway's port, are
// served. Health stays open to probes that address the pod by IP.
func TestOnlyKnownHostNamesAreServed(t *testing.T) {
	t.Parallel()
	addr := runGateway(t, nil)
	_, port, _ := net.SplitHostPort(addr)
	url := "http://" + addr
	for _, tt := range []struct {
		host, path string
		want       int
	}{
		{"127.0.0.1:" + port, "/internal/users/u1", 200},
		{"localhost:" + port, "/internal/users/u1", 200},
		{"LocalHost:" + port, "/internal/users/u1", 200},
		{"[::1]:" + port, "/internal/users/u1", 200},
		{"localhost:" + port, "/connections/shopify/callback?code=x", http.StatusFound},
		{"rebind.attacker.example:" + port, "/internal/users/u1", http.StatusMisdirectedRequest},
		{"rebind.attacker.example", "/internal/users/u1", http.StatusMisdirectedRequest},
		{"localhost:1" + port, "/internal/users/u1", http.StatusMisdirectedRequest},
		{"localhost.attacker.example:" + port, "/openapi.json", http.StatusMisdirectedRequest},
		{"10.1.2.3:" + port, "/internal/users/u1", http.StatusMisdirectedRequest},
		{"10.1.2.3:" + port, "/healthz", 200},
	} {
		t.Run(tt.host+tt.path, func(t *testing.T) {
			req, _ := http.NewRequest("GET", url+tt.path, nil)
			req.Host = tt.host
			resp, err := noFollow.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.want {
				t.Fatalf("Host %q: %d, want %d (%s)", tt.host, resp.StatusCode, tt.want, raw)
			}
			if tt.want == http.StatusMisdirectedRequest && !strings.Contains(string(raw), `"message"`) {
				t.Fatalf("no JSON message: %s", raw)
			}
		})
	}
}

// TestAllowedHostsSetting: a configured list replaces the local names; an
// entry without a port allows that name on any port.
func TestAllowedHostsSetting(t *testing.T) {
	t.Parallel()
	addr := runGateway(t, func(o *Options) { o.AllowedHosts = []string{"api.example.com", "gateway.internal:8080"} })
	for host, want := range map[string]int{
		"api.example.com":       200,
		"API.example.com:443":   200,
		"gateway.internal:8080": 200,
		"gateway.internal:9999": http.StatusMisdirectedRequest,
		"localhost:8080":        http.StatusMisdirectedRequest,
		addr:                    http.StatusMisdirectedRequest,
	} {
		req, _ := http.NewRequest("GET", "http://"+addr+"/openapi.json", nil)
		req.Host = host
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("Host %q: %d, want %d", host, resp.StatusCode, want)
		}
	}
}

func TestParseAllowedHosts(t *testing.T) {
	got, err := ParseAllowedHosts([]string{" api.example.com ", "", "localhost:8080", "[::1]:8080", "::1", "10.0.0.1"})
	if err != nil || len(got) != 5 {
		t.Fatalf("%v %v", got, err)
	}
	for _, bad := range []string{"*", "http://api.example.com", "api.example.com/x", "localhost:http", "localhost:0", "localhost:70000", "a b"} {
		if _, err := ParseAllowedHosts([]string{bad}); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
}

// TestEveryAnswerIsNoSniff: every answer of the public address tells the
// browser not to guess its type (X-Content-Type-Options: nosniff), so an
// answer that echoes input is never run as a script or shown as a page:
// success, each kind of error, a refused Host and a refused preflight.
func TestEveryAnswerIsNoSniff(t *testing.T) {
	t.Parallel()
	addr := runGateway(t, nil)
	for _, tt := range []struct{ method, path, host, origin string }{
		{"GET", "/healthz", "", ""},
		{"GET", "/healthz/backends", "", ""},
		{"GET", "/openapi.json", "", ""},
		{"GET", "/internal/users/u1", "", ""},
		{"GET", "/internal/users/a%00b", "", ""},
		{"GET", "/no/such/path", "", ""},
		{"DELETE", "/openapi.json", "", ""},
		{"GET", "/openapi.json", "evil.example", ""},
		{"OPTIONS", "/internal/users/u1", "", "http://evil.example"},
		{"GET", "/events/categories/c1", "", ""},
	} {
		req, _ := http.NewRequest(tt.method, "http://"+addr+tt.path, nil)
		if tt.host != "" {
			req.Host = tt.host
		}
		if tt.origin != "" {
			req.Header.Set("Origin", tt.origin)
			req.Header.Set("Access-Control-Request-Method", "GET")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if got := resp.Header.Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("%s %s (Host %q): %d with X-Content-Type-Options %q", tt.method, tt.path, tt.host, resp.StatusCode, got)
		}
	}
}
