package sim

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
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
	testClient   = "test-client.apps.googleusercontent.com"
	testSecret   = "test-secret"
	testRedirect = "https://app.example/oauth/google/callback"
	testUser     = "ana@example.com"
	testProperty = "1001"
	// a valid RFC 7636 verifier and its S256 challenge
	testVerifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
)

func s256(v string) string {
	sum := sha256.Sum256([]byte(v))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

type env struct {
	t     *testing.T
	s     *Server
	srv   *httptest.Server
	clock *simtest.Clock
	// Each env has its own clients: httptest's Close drops the default
	// transport's idle connections, under another parallel test's feet.
	client, noRedirect *http.Client
}

// newEnv starts a sim with one user who can read one New York property.
func newEnv(t *testing.T, o Options) *env {
	t.Helper()
	clock := simtest.NewClock(time.Date(2026, 3, 20, 16, 0, 0, 0, time.UTC))
	o.ClientID, o.ClientSecret, o.Clock = testClient, testSecret, clock.Now
	if o.RedirectURIs == nil {
		o.RedirectURIs = []string{testRedirect}
	}
	s := New(o)
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	noRedirect := *srv.Client()
	noRedirect.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	e := &env{t: t, s: s, srv: srv, clock: clock, client: srv.Client(), noRedirect: &noRedirect}
	e.must(s.CreateUser(testUser))
	e.must(s.CreateAccount(AccountSpec{ID: "500", DisplayName: "Ana's shop", Users: []string{testUser}}))
	e.must(s.CreateProperty(PropertySpec{ID: testProperty, Account: "500", DisplayName: "Ana's shop - GA4", TimeZone: "America/New_York", CurrencyCode: "EUR"}))
	return e
}

func (e *env) must(err error) {
	e.t.Helper()
	if err != nil {
		e.t.Fatal(err)
	}
}

// authQuery is a well-formed authorize request with PKCE S256 and offline access.
func authQuery() url.Values {
	return url.Values{"client_id": {testClient}, "redirect_uri": {testRedirect}, "response_type": {"code"},
		"scope": {ScopeReadonly}, "access_type": {"offline"}, "state": {"st-1"},
		"code_challenge": {s256(testVerifier)}, "code_challenge_method": {"S256"}}
}

// authorizeResp sends the authorize request; with a form it is the consent
// page's POST, without one a GET.
func (e *env) authorizeResp(q url.Values, form url.Values) *http.Response {
	e.t.Helper()
	u := e.srv.URL + "/o/oauth2/v2/auth?" + q.Encode()
	var resp *http.Response
	var err error
	if form == nil {
		resp, err = e.noRedirect.Get(u)
	} else {
		resp, err = e.noRedirect.PostForm(u, form)
	}
	if err != nil {
		e.t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

// callback consents as testUser to every scope and returns the redirect's query.
func (e *env) callback(q url.Values) url.Values {
	e.t.Helper()
	resp := e.authorizeResp(q, url.Values{"decision": {"allow"}, "user": {testUser}, "grant_scope": strings.Fields(q.Get("scope"))})
	if resp.StatusCode != http.StatusFound {
		e.t.Fatalf("authorize: status %d", resp.StatusCode)
	}
	loc, _ := url.Parse(resp.Header.Get("Location"))
	if !strings.HasPrefix(loc.String(), q.Get("redirect_uri")+"?") {
		e.t.Fatalf("redirected to %s", loc)
	}
	return loc.Query()
}

func (e *env) token(form url.Values) (int, map[string]any) {
	e.t.Helper()
	resp, err := e.client.PostForm(e.srv.URL+"/token", form)
	if err != nil {
		e.t.Fatal(err)
	}
	return decodeBody(e.t, resp)
}

func exchangeForm(code string) url.Values {
	return url.Values{"client_id": {testClient}, "client_secret": {testSecret}, "grant_type": {"authorization_code"},
		"code": {code}, "redirect_uri": {testRedirect}, "code_verifier": {testVerifier}}
}

// connect runs the whole flow and returns the token response.
func (e *env) connect() map[string]any {
	e.t.Helper()
	st, out := e.token(exchangeForm(e.callback(authQuery()).Get("code")))
	if st != 200 {
		e.t.Fatalf("exchange: %d %v", st, out)
	}
	return out
}

func decodeBody(t *testing.T, resp *http.Response) (int, map[string]any) {
	t.Helper()
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("status %d, body not JSON: %s", resp.StatusCode, raw)
	}
	return resp.StatusCode, out
}

func (e *env) call(method, path, token string, body any) (int, map[string]any) {
	e.t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, e.srv.URL+path, rd)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := e.client.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	return decodeBody(e.t, resp)
}

func (e *env) report(token, property string, body any) (int, map[string]any) {
	e.t.Helper()
	return e.call(http.MethodPost, "/v1beta/properties/"+property+":runReport", token, body)
}

// apiStatus is the Google error body's status, "" when there is none.
func apiStatus(out map[string]any) string {
	s, _ := dig(out, "error", "status").(string)
	return s
}

var dig = simtest.Dig

// table reads a report's rows as dimension and metric strings.
func table(out map[string]any) [][]string {
	var t [][]string
	rows, _ := out["rows"].([]any)
	for _, r := range rows {
		var line []string
		for _, k := range []string{"dimensionValues", "metricValues"} {
			vals, _ := dig(r, k).([]any)
			for _, v := range vals {
				line = append(line, dig(v, "value").(string))
			}
		}
		t = append(t, line)
	}
	return t
}

func mustQuery(t *testing.T, u string) url.Values {
	t.Helper()
	p, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	return p.Query()
}
