package sim

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"uplift.dev/simkit/simtest"
)

const testStore = "teststore"

type env struct {
	t     *testing.T
	s     *Server
	srv   *httptest.Server
	clock *simtest.Clock
}

// newEnv serves a simulator with one store, teststore (New York, USD, 7 %
// tax), selling product 11 at $20.00 and product 12 at $5.00.
func newEnv(t *testing.T, o Options) *env {
	t.Helper()
	clock := simtest.NewClock(time.Date(2026, 3, 20, 12, 0, 0, 0, time.UTC))
	o.Clock = clock.Now
	if o.WebhookDelay == 0 {
		o.WebhookDelay = 5 * time.Millisecond
	}
	s := New(o)
	srv := httptest.NewServer(s.Handler())
	s.SetBaseURL(srv.URL)
	t.Cleanup(func() { srv.Close(); s.Close() })
	if err := s.CreateStore(StoreSpec{Slug: testStore, Name: "Test Store", Timezone: "America/New_York", TaxPercent: 7}); err != nil {
		t.Fatal(err)
	}
	for _, p := range []ProductSpec{{ID: 11, Name: "Hat", SKU: "HAT", Price: 2000}, {ID: 12, Name: "Sock", SKU: "SOCK", Price: 500}} {
		if _, err := s.SaveProduct(testStore, p); err != nil {
			t.Fatal(err)
		}
	}
	return &env{t: t, s: s, srv: srv, clock: clock}
}

func (e *env) key(perms string) Key {
	e.t.Helper()
	k, err := e.s.IssueKey(testStore, "Uplift", "u-1", perms)
	if err != nil {
		e.t.Fatal(err)
	}
	return k
}

func (e *env) api(path string) string { return e.srv.URL + "/" + testStore + "/wp-json/wc/v3/" + path }

type resp struct {
	status int
	header http.Header
	body   any
	raw    []byte
}

// do sends a REST request with the key as HTTP Basic (none when k is zero).
func (e *env) do(method, path string, k Key, body any) resp {
	e.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	u := path
	if !strings.HasPrefix(u, "http") {
		u = e.api(path)
	}
	req, _ := http.NewRequest(method, u, rd)
	req.Header.Set("Content-Type", "application/json")
	if k.ConsumerKey != "" {
		req.SetBasicAuth(k.ConsumerKey, k.ConsumerSecret)
	}
	r, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer r.Body.Close()
	raw, _ := io.ReadAll(r.Body)
	var out any
	_ = json.Unmarshal(raw, &out)
	return resp{r.StatusCode, r.Header, out, raw}
}

// get is a GET that must answer 200.
func (e *env) get(path string, k Key) resp {
	e.t.Helper()
	r := e.do(http.MethodGet, path, k, nil)
	if r.status != 200 {
		e.t.Fatalf("GET %s: %d %s", path, r.status, r.raw)
	}
	return r
}

// wantError checks WooCommerce's error shape: {code, message, data: {status}}.
func wantError(t *testing.T, r resp, status int, code, message string) {
	t.Helper()
	if r.status != status || dig(r.body, "code") != code || (message != "" && dig(r.body, "message") != message) || dig(r.body, "data", "status") != float64(status) {
		t.Fatalf("got %d %s, want %d %s %q", r.status, r.raw, status, code, message)
	}
}

func (e *env) order(o OrderSpec) int64 {
	e.t.Helper()
	id, err := e.s.AddOrder(testStore, o)
	if err != nil {
		e.t.Fatal(err)
	}
	return id
}

func hat(at time.Time) OrderSpec {
	return OrderSpec{CreatedAt: at, Lines: []LineSpec{{ProductID: 11, Quantity: 1}}, Shipping: 595}
}

var (
	dig     = simtest.Dig
	waitFor = simtest.WaitFor
)

var noRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

func authQuery(callback string) url.Values {
	return url.Values{"app_name": {"Uplift"}, "scope": {"read_write"}, "user_id": {"conn-7f3a"},
		"return_url": {"http://localhost:3000/connections/woocommerce"}, "callback_url": {callback}}
}
