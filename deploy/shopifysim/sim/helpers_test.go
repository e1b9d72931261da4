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

const (
	testKey    = "test-key"
	testSecret = "test-secret"
	testShop   = "test-shop.myshopify.com"
)

type env struct {
	t     *testing.T
	s     *Server
	srv   *httptest.Server
	clock *simtest.Clock
}

func newEnv(t *testing.T, o Options, shops ...ShopSpec) *env {
	t.Helper()
	clock := simtest.NewClock(time.Date(2026, 3, 20, 12, 0, 0, 0, time.UTC))
	o.APIKey, o.APISecret, o.Clock = testKey, testSecret, clock.Now
	if o.BulkDelay == 0 {
		o.BulkDelay = 10 * time.Millisecond
	}
	if o.WebhookRetryBase == 0 {
		o.WebhookRetryBase = 5 * time.Millisecond
	}
	s := New(o)
	srv := httptest.NewServer(s.Handler())
	s.SetBaseURL(srv.URL)
	t.Cleanup(func() { srv.Close(); s.Close() })
	if len(shops) == 0 {
		shops = []ShopSpec{{Domain: testShop, Name: "Test Shop", Timezone: "America/New_York"}}
	}
	for _, sp := range shops {
		if err := s.CreateShop(sp); err != nil {
			t.Fatal(err)
		}
	}
	return &env{t: t, s: s, srv: srv, clock: clock}
}

var noRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// authorize runs the consent step (auto-approve or the POST form) and returns the callback query.
func (e *env) authorize(shop, scopes string) url.Values {
	e.t.Helper()
	q := url.Values{"client_id": {testKey}, "scope": {scopes}, "redirect_uri": {"https://app.example/callback"}, "state": {"abc123"}, "grant_options[]": {""}}
	u := e.srv.URL + "/" + shop + "/admin/oauth/authorize?" + q.Encode()
	var resp *http.Response
	var err error
	if e.s.o.AutoApprove {
		resp, err = noRedirect.Get(u)
	} else {
		resp, err = noRedirect.PostForm(u, url.Values{"decision": {"install"}})
	}
	if err != nil {
		e.t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound {
		e.t.Fatalf("authorize: status %d", resp.StatusCode)
	}
	loc, _ := url.Parse(resp.Header.Get("Location"))
	return loc.Query()
}

func (e *env) postJSON(u string, body any) (int, map[string]any) {
	e.t.Helper()
	b, _ := json.Marshal(body)
	resp, err := http.Post(u, "application/json", bytes.NewReader(b))
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	raw, _ := io.ReadAll(resp.Body)
	_ = json.Unmarshal(raw, &out)
	return resp.StatusCode, out
}

func (e *env) exchange(shop string, form map[string]any) (int, map[string]any) {
	e.t.Helper()
	return e.postJSON(e.srv.URL+"/"+shop+"/admin/oauth/access_token", form)
}

// install returns a fresh access token for the shop with the scopes.
func (e *env) install(shop, scopes string) string {
	e.t.Helper()
	cb := e.authorize(shop, scopes)
	st, out := e.exchange(shop, map[string]any{"client_id": testKey, "client_secret": testSecret, "code": cb.Get("code")})
	if st != 200 {
		e.t.Fatalf("exchange: %d %v", st, out)
	}
	return out["access_token"].(string)
}

func (e *env) gqlStatus(shop, token, query string, vars map[string]any) (int, map[string]any) {
	e.t.Helper()
	b, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	req, _ := http.NewRequest(http.MethodPost, e.srv.URL+"/"+shop+"/admin/api/2026-10/graphql.json", bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("X-Shopify-Access-Token", token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		e.t.Fatal(err)
	}
	return resp.StatusCode, out
}

// gql runs a query that must succeed and returns its data.
func (e *env) gql(shop, token, query string, vars map[string]any) map[string]any {
	e.t.Helper()
	st, out := e.gqlStatus(shop, token, query, vars)
	if st != 200 || out["errors"] != nil {
		e.t.Fatalf("graphql: %d %v", st, out["errors"])
	}
	return out["data"].(map[string]any)
}

var (
	dig     = simtest.Dig
	waitFor = simtest.WaitFor
)

func simpleOrder(at time.Time) OrderSpec {
	return OrderSpec{CreatedAt: at, Lines: []LineSpec{{Title: "Hat", SKU: "HAT", ProductID: 1, Quantity: 1, UnitPrice: 2000, Tax: 140}}}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
