package sim

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

func TestAuthorizeThenExchangeGivesGoogleTokens(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	cb := e.callback(authQuery())
	if cb.Get("state") != "st-1" || cb.Get("code") == "" || cb.Get("scope") != ScopeReadonly {
		t.Fatalf("callback %v", cb)
	}
	st, out := e.token(exchangeForm(cb.Get("code")))
	if st != 200 || out["token_type"] != "Bearer" || out["scope"] != ScopeReadonly || out["expires_in"] != float64(3599) ||
		!strings.HasPrefix(out["access_token"].(string), "ya29.") || !strings.HasPrefix(out["refresh_token"].(string), "1//") {
		t.Fatalf("token: %d %v", st, out)
	}
	if st, _ := e.call(http.MethodGet, "/v1beta/accountSummaries", out["access_token"].(string), nil); st != 200 {
		t.Fatalf("the access token does not work: %d", st)
	}
}

func TestConsentPageListsUsersAndScopes(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	resp, err := e.client.Get(e.srv.URL + "/o/oauth2/v2/auth?" + authQuery().Encode())
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), testUser) || !strings.Contains(string(body), "See and download your Google Analytics data") ||
		!strings.Contains(string(body), `name="code_challenge" value="`+s256(testVerifier)+`"`) {
		t.Fatalf("consent page %d: %s", resp.StatusCode, body)
	}
	deny := e.authorizeResp(authQuery(), url.Values{"decision": {"deny"}})
	loc, _ := url.Parse(deny.Header.Get("Location"))
	if deny.StatusCode != http.StatusFound || loc.Query().Get("error") != "access_denied" || loc.Query().Get("state") != "st-1" {
		t.Fatalf("deny: %d %s", deny.StatusCode, loc)
	}
}

func TestAutoApproveRedirectsAtOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{AutoApprove: true})
	resp := e.authorizeResp(authQuery(), nil)
	loc, _ := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusFound || loc.Query().Get("code") == "" {
		t.Fatalf("auto-approve: %d %s", resp.StatusCode, loc)
	}
}

func TestPKCE(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	for name, verifier := range map[string]string{"wrong": strings.Repeat("x", 43), "missing": ""} {
		f := exchangeForm(e.callback(authQuery()).Get("code"))
		f.Set("code_verifier", verifier)
		if st, out := e.token(f); st != 400 || out["error"] != "invalid_grant" || out["access_token"] != nil {
			t.Errorf("%s verifier: %d %v", name, st, out)
		}
	}
	// Google follows RFC 7636 and takes plain, where the verifier is the challenge.
	q := authQuery()
	q.Set("code_challenge", testVerifier)
	q.Set("code_challenge_method", "plain")
	if st, out := e.token(exchangeForm(e.callback(q).Get("code"))); st != 200 {
		t.Fatalf("plain: %d %v", st, out)
	}
	q.Set("code_challenge_method", "S512")
	resp := e.authorizeResp(q, nil)
	loc, _ := url.Parse(resp.Header.Get("Location"))
	if loc.Query().Get("error") != "invalid_request" {
		t.Fatalf("unknown method: %d %s", resp.StatusCode, loc)
	}
}

func TestRedirectURIMustMatch(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	q := authQuery()
	q.Set("redirect_uri", "https://evil.example/cb")
	// An unregistered URI is never redirected to: Google shows an error page.
	if resp := e.authorizeResp(q, nil); resp.StatusCode != 400 || resp.Header.Get("Location") != "" {
		t.Fatalf("authorize with an unregistered redirect_uri: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	f := exchangeForm(e.callback(authQuery()).Get("code"))
	f.Set("redirect_uri", testRedirect+"/other")
	if st, out := e.token(f); st != 400 || out["error"] != "redirect_uri_mismatch" {
		t.Fatalf("exchange with another redirect_uri: %d %v", st, out)
	}
}

func TestCodeIsGoodOnceAndForTenMinutes(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	code := e.callback(authQuery()).Get("code")
	if st, _ := e.token(exchangeForm(code)); st != 200 {
		t.Fatal("first exchange failed")
	}
	if st, out := e.token(exchangeForm(code)); st != 400 || out["error"] != "invalid_grant" {
		t.Fatalf("reused code: %d %v", st, out)
	}
	late := e.callback(authQuery()).Get("code")
	e.clock.Add(codeTTL)
	if st, out := e.token(exchangeForm(late)); st != 400 || out["error"] != "invalid_grant" {
		t.Fatalf("expired code: %d %v", st, out)
	}
}

func TestClientMustAuthenticate(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	f := exchangeForm(e.callback(authQuery()).Get("code"))
	f.Set("client_secret", "nope")
	if st, out := e.token(f); st != 401 || out["error"] != "invalid_client" {
		t.Fatalf("wrong secret: %d %v", st, out)
	}
	f = exchangeForm("x")
	f.Set("grant_type", "password")
	if st, out := e.token(f); st != 400 || out["error"] != "unsupported_grant_type" {
		t.Fatalf("grant_type password: %d %v", st, out)
	}
}

func TestRefreshTokenOnlyOnFirstOfflineConsentOrPromptConsent(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	first := e.connect()
	if first["refresh_token"] == nil {
		t.Fatal("first offline consent: no refresh token")
	}
	again := e.connect()
	if again["refresh_token"] != nil {
		t.Fatal("a second consent without prompt=consent gave a refresh token")
	}
	q := authQuery()
	q.Set("prompt", "consent")
	_, forced := e.token(exchangeForm(e.callback(q).Get("code")))
	if forced["refresh_token"] == nil {
		t.Fatal("prompt=consent gave no refresh token")
	}
	q = authQuery()
	q.Set("access_type", "online")
	q.Set("prompt", "consent")
	if _, online := e.token(exchangeForm(e.callback(q).Get("code"))); online["refresh_token"] != nil {
		t.Fatal("online access gave a refresh token")
	}
}

func TestRefreshAndRevoke(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.connect()
	rt := tok["refresh_token"].(string)
	refresh := url.Values{"client_id": {testClient}, "client_secret": {testSecret}, "grant_type": {"refresh_token"}, "refresh_token": {rt}}
	st, out := e.token(refresh)
	if st != 200 || out["access_token"] == nil || out["refresh_token"] != nil || out["scope"] != ScopeReadonly {
		t.Fatalf("refresh: %d %v", st, out)
	}
	fresh := out["access_token"].(string)
	resp, err := e.client.PostForm(e.srv.URL+"/revoke", url.Values{"token": {rt}})
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := decodeBody(t, resp); st != 200 {
		t.Fatalf("revoke: %d", st)
	}
	if st, out := e.token(refresh); st != 400 || out["error"] != "invalid_grant" {
		t.Fatalf("refresh after revoke: %d %v", st, out)
	}
	if st, out := e.call(http.MethodGet, "/v1beta/accountSummaries", fresh, nil); st != 401 || apiStatus(out) != "UNAUTHENTICATED" {
		t.Fatalf("access token after revoke: %d %v", st, out)
	}
	resp, _ = e.client.PostForm(e.srv.URL+"/revoke", url.Values{"token": {rt}})
	if st, out := decodeBody(t, resp); st != 400 || out["error"] != "invalid_token" {
		t.Fatalf("second revoke: %d %v", st, out)
	}
	// After a revoke the next consent issues a refresh token again.
	if e.connect()["refresh_token"] == nil {
		t.Fatal("no refresh token after a revoke")
	}
}

func TestAccessTokensExpire(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.connect()
	at := tok["access_token"].(string)
	e.clock.Add(time.Hour)
	if st, out := e.call(http.MethodGet, "/v1beta/accountSummaries", at, nil); st != 401 || apiStatus(out) != "UNAUTHENTICATED" {
		t.Fatalf("after an hour: %d %v", st, out)
	}
	refresh := url.Values{"client_id": {testClient}, "client_secret": {testSecret}, "grant_type": {"refresh_token"}, "refresh_token": {tok["refresh_token"].(string)}}
	_, out := e.token(refresh)
	at = out["access_token"].(string)
	st, exp := e.call(http.MethodPost, "/_control/expire-tokens", "", nil)
	if st != 200 || exp["expired"] != float64(1) {
		t.Fatalf("expire-tokens: %d %v", st, exp)
	}
	if st, _ := e.call(http.MethodGet, "/v1beta/accountSummaries", at, nil); st != 401 {
		t.Fatalf("after expire-tokens: %d", st)
	}
	if st, _ := e.token(refresh); st != 200 {
		t.Fatal("the refresh token died with the access tokens")
	}
}

func TestUntickedScopeIsMissingFromTheGrant(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	q := authQuery()
	q.Set("scope", "openid email "+ScopeReadonly)
	resp := e.authorizeResp(q, url.Values{"decision": {"allow"}, "user": {testUser}, "grant_scope": {"openid", "email"}})
	loc, _ := url.Parse(resp.Header.Get("Location"))
	_, out := e.token(exchangeForm(loc.Query().Get("code")))
	if out["scope"] != "openid email" {
		t.Fatalf("scope %v", out["scope"])
	}
	if st, body := e.call(http.MethodGet, "/v1beta/accountSummaries", out["access_token"].(string), nil); st != 403 || apiStatus(body) != "PERMISSION_DENIED" {
		t.Fatalf("API without the analytics scope: %d %v", st, body)
	}
}

func TestAuthorizeRefusesBadRequests(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	q := authQuery()
	q.Set("client_id", "someone-else")
	if resp := e.authorizeResp(q, nil); resp.StatusCode != 401 || resp.Header.Get("Location") != "" {
		t.Fatalf("unknown client: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	for name, c := range map[string]struct{ key, value, want string }{
		"token flow":    {"response_type", "token", "unsupported_response_type"},
		"unknown scope": {"scope", ScopeReadonly + " https://www.googleapis.com/auth/drive", "invalid_scope"},
		"no scope":      {"scope", "", "invalid_request"},
		"short PKCE":    {"code_challenge", "abc", "invalid_request"},
		"access_type":   {"access_type", "forever", "invalid_request"},
	} {
		q := authQuery()
		q.Set(c.key, c.value)
		resp := e.authorizeResp(q, nil)
		loc := mustQuery(t, resp.Header.Get("Location"))
		if resp.StatusCode != http.StatusFound || loc.Get("error") != c.want || loc.Get("state") != "st-1" {
			t.Errorf("%s: %d %v", name, resp.StatusCode, loc)
		}
	}
}
