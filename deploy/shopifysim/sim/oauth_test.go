package sim

import (
	"encoding/base64"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

func TestQueryHMACShopifyVectors(t *testing.T) {
	t.Parallel()
	q, _ := url.ParseQuery("code=0907a61c0c8d55e99db179b68161bc00&shop=some-shop.myshopify.com&timestamp=1337178173")
	if got := QueryHMAC("hush", q); got != "4712bf92ffc2917d15a2f5a273e39f0116667419aa4b6ac0b3baaf26fa3c4d20" {
		t.Fatalf("vector 1: %s", got)
	}
	q.Set("hmac", "ignored")
	q.Set("signature", "ignored")
	if got := QueryHMAC("hush", q); got != "4712bf92ffc2917d15a2f5a273e39f0116667419aa4b6ac0b3baaf26fa3c4d20" {
		t.Fatalf("hmac/signature must not be signed: %s", got)
	}
	q.Del("hmac")
	q.Del("signature")
	q.Set("state", "0.6784241404160823")
	if got := QueryHMAC("hush", q); !strings.HasPrefix(got, "700e2dad") {
		t.Fatalf("vector 2: %s", got)
	}
}

func TestAuthorizeConsentPageAndSignedCallback(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{}, ShopSpec{Domain: testShop, Name: "Test Shop", WithholdScopes: []string{"read_reports"}})
	base := e.srv.URL + "/" + testShop + "/admin/oauth/authorize?"
	q := url.Values{"client_id": {testKey}, "scope": {"read_orders,read_reports"}, "redirect_uri": {"https://app.example/cb"}, "state": {"s1"}}

	resp, err := http.Get(base + q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{"Install Uplift on Test Shop?", ">Install app<", ">Cancel<", "read_orders", `method="post"`} {
		if resp.StatusCode != 200 || !strings.Contains(string(page), want) {
			t.Fatalf("consent page %d lacks %q:\n%s", resp.StatusCode, want, page)
		}
	}

	cb := e.authorize(testShop, "read_orders,read_reports")
	if cb.Get("hmac") != QueryHMAC(testSecret, cb) {
		t.Fatalf("callback hmac does not verify: %v", cb)
	}
	host, _ := base64.RawURLEncoding.DecodeString(cb.Get("host"))
	if string(host) != "admin.shopify.com/store/test-shop" || cb.Get("state") != "abc123" || cb.Get("shop") != testShop || cb.Get("code") == "" || cb.Get("timestamp") != "1774008000" {
		t.Fatalf("callback params: %v (host %s)", cb, host)
	}
	_, tok := e.exchange(testShop, map[string]any{"client_id": testKey, "client_secret": testSecret, "code": cb.Get("code")})
	if tok["scope"] != "read_orders" {
		t.Fatalf("withheld scope granted: %v", tok)
	}

	resp, _ = noRedirect.PostForm(base+q.Encode(), url.Values{"decision": {"cancel"}})
	loc, _ := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusFound || loc.Query().Get("error") != "access_denied" || loc.Query().Get("code") != "" {
		t.Fatalf("cancel: %d %s", resp.StatusCode, loc)
	}

	resp, _ = http.Get(e.srv.URL + "/nope.myshopify.com/admin/oauth/authorize?" + q.Encode())
	page, _ = io.ReadAll(resp.Body)
	if resp.StatusCode != 404 || !strings.Contains(string(page), "There is no store at this address") {
		t.Fatalf("unknown shop: %d %s", resp.StatusCode, page)
	}
	q.Set("client_id", "other")
	resp, _ = http.Get(base + q.Encode())
	if resp.StatusCode != 400 {
		t.Fatalf("wrong client_id: %d", resp.StatusCode)
	}
}

func TestAutoApproveAndInstallLink(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{AutoApprove: true})
	cb := e.authorize(testShop, "read_orders")
	if cb.Get("code") == "" {
		t.Fatal("no code")
	}
	link, _ := url.ParseQuery(e.s.InstallLink(testShop))
	if link.Get("shop") != testShop || link.Get("hmac") != QueryHMAC(testSecret, link) || link.Get("host") == "" {
		t.Fatalf("install link: %v", link)
	}
}

func TestCodeIsSingleUseAndExpires(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{AutoApprove: true})
	code := e.authorize(testShop, "read_orders").Get("code")
	form := map[string]any{"client_id": testKey, "client_secret": "wrong", "code": code}
	if st, _ := e.exchange(testShop, form); st != 401 {
		t.Fatalf("wrong secret: %d", st)
	}
	form["client_secret"] = testSecret
	if st, out := e.exchange(testShop, form); st != 200 || !strings.HasPrefix(out["access_token"].(string), "shpat_") || out["refresh_token"] != nil {
		t.Fatalf("exchange: %d %v", st, out)
	}
	st, out := e.exchange(testShop, form)
	if st != 400 || out["error"] != "invalid_request" || out["error_description"] != "The authorization code was not found or was already used" {
		t.Fatalf("replay: %d %v", st, out)
	}
	form["code"] = e.authorize(testShop, "read_orders").Get("code")
	e.clock.Add(61 * time.Second)
	if st, _ := e.exchange(testShop, form); st != 400 {
		t.Fatalf("expired code: %d", st)
	}
}

func TestExpiringTokenRefreshRotation(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{AutoApprove: true, TokenTTL: 10 * time.Minute})
	code := e.authorize(testShop, "read_orders").Get("code")
	// the form-encoded body works as well as JSON
	resp, err := http.PostForm(e.srv.URL+"/"+testShop+"/admin/oauth/access_token", url.Values{"client_id": {testKey}, "client_secret": {testSecret}, "code": {code}, "expiring": {"1"}})
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("form exchange: %v %v", err, resp.Status)
	}
	resp.Body.Close()
	code = e.authorize(testShop, "read_orders").Get("code")
	_, first := e.exchange(testShop, map[string]any{"client_id": testKey, "client_secret": testSecret, "code": code, "expiring": 1})
	if first["expires_in"] != float64(600) || first["refresh_token_expires_in"] != float64(7776000) || !strings.HasPrefix(first["refresh_token"].(string), "shprt_") {
		t.Fatalf("expiring exchange: %v", first)
	}
	r1 := first["refresh_token"].(string)
	refresh := func(rt string) (int, map[string]any) {
		return e.exchange(testShop, map[string]any{"grant_type": "refresh_token", "refresh_token": rt, "client_id": testKey, "client_secret": testSecret})
	}
	st, second := refresh(r1)
	if st != 200 || second["refresh_token"] == r1 || second["access_token"] == first["access_token"] {
		t.Fatalf("refresh: %d %v", st, second)
	}
	if st, _ := refresh(r1); st != 200 {
		t.Fatalf("previous refresh token must stay valid until the new one is used: %d", st)
	}
	if st, _ := refresh(second["refresh_token"].(string)); st != 200 {
		t.Fatalf("new refresh token: %d", st)
	}
	if st, _ := refresh(r1); st != 400 {
		t.Fatalf("retired refresh token still works: %d", st)
	}

	tok := second["access_token"].(string)
	e.gql(testShop, tok, `{ shop { name } }`, nil)
	e.clock.Add(11 * time.Minute)
	if st, out := e.gqlStatus(testShop, tok, `{ shop { name } }`, nil); st != 401 || out["errors"] != invalidToken {
		t.Fatalf("expired token: %d %v", st, out)
	}
}

func TestGraphQLAuthAndVersion(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{AutoApprove: true}, ShopSpec{Domain: testShop}, ShopSpec{Domain: "other.myshopify.com"})
	tok := e.install(testShop, "read_orders")
	for _, bad := range []string{"", "shpat_unknown"} {
		if st, out := e.gqlStatus(testShop, bad, `{ shop { name } }`, nil); st != 401 || out["errors"] != invalidToken {
			t.Fatalf("token %q: %d %v", bad, st, out)
		}
	}
	if st, _ := e.gqlStatus("other.myshopify.com", tok, `{ shop { name } }`, nil); st != 401 {
		t.Fatalf("token used on another shop: %d", st)
	}
	req, _ := http.NewRequest(http.MethodPost, e.srv.URL+"/"+testShop+"/admin/api/latest/graphql.json", strings.NewReader(`{"query":"{shop{name}}"}`))
	req.Header.Set("X-Shopify-Access-Token", tok)
	resp, _ := http.DefaultClient.Do(req)
	if resp.StatusCode != 404 {
		t.Fatalf("bad version: %d", resp.StatusCode)
	}
	req, _ = http.NewRequest(http.MethodPost, e.srv.URL+"/"+testShop+"/admin/api/unstable/graphql.json", strings.NewReader(`{"query":"{shop{name}}"}`))
	req.Header.Set("X-Shopify-Access-Token", tok)
	resp, _ = http.DefaultClient.Do(req)
	if resp.StatusCode != 200 || resp.Header.Get("X-Shopify-API-Version") != "unstable" {
		t.Fatalf("unstable: %d %q", resp.StatusCode, resp.Header.Get("X-Shopify-API-Version"))
	}
	if err := e.s.Uninstall(testShop); err != nil {
		t.Fatal(err)
	}
	if st, _ := e.gqlStatus(testShop, tok, `{ shop { name } }`, nil); st != 401 {
		t.Fatalf("token after uninstall: %d", st)
	}
}
