package sim

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// keyReceiver is the app's callback over TLS: it records the keys posted
// and answers status.
func keyReceiver(t *testing.T, e *env, status int) (*httptest.Server, func() []map[string]any) {
	var mu sync.Mutex
	var got []map[string]any
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var m map[string]any
		_ = json.NewDecoder(r.Body).Decode(&m)
		if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/json" {
			m = map[string]any{"bad request": r.Method + " " + r.Header.Get("Content-Type")}
		}
		mu.Lock()
		got = append(got, m)
		mu.Unlock()
		w.WriteHeader(status)
	}))
	t.Cleanup(srv.Close)
	c := srv.Client()
	c.CheckRedirect = e.s.client.CheckRedirect
	e.s.client = c
	return srv, func() []map[string]any { mu.Lock(); defer mu.Unlock(); return append([]map[string]any(nil), got...) }
}

func page(t *testing.T, r *http.Response) string {
	t.Helper()
	b, _ := io.ReadAll(r.Body)
	r.Body.Close()
	return string(b)
}

// hiddenFields reads the grant screen's form back, as a browser submits it.
func hiddenFields(t *testing.T, html string) url.Values {
	t.Helper()
	f := url.Values{}
	for _, part := range strings.Split(html, `<input type="hidden" name="`)[1:] {
		name, rest, _ := strings.Cut(part, `" value="`)
		val, _, _ := strings.Cut(rest, `"`)
		f.Set(name, strings.ReplaceAll(val, "&amp;", "&"))
	}
	f.Set("wc_auth_route", "access_granted")
	return f
}

func TestAuthorizeApprovePostsKeysThenRedirects(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	cb, got := keyReceiver(t, e, 200)
	authURL := e.srv.URL + "/" + testStore + "/wc-auth/v1/authorize?" + authQuery(cb.URL+"/woo/keys").Encode()

	r, err := http.Get(authURL)
	if err != nil {
		t.Fatal(err)
	}
	html := page(t, r)
	for _, want := range []string{"Uplift would like to connect to your store", "<strong>Read/Write</strong>", "View and manage orders and sales reports", ">Approve<", ">Deny<", `name="_wpnonce"`} {
		if r.StatusCode != 200 || !strings.Contains(html, want) {
			t.Fatalf("grant screen %d lacks %q:\n%s", r.StatusCode, want, html)
		}
	}
	if len(got()) != 0 {
		t.Fatal("keys sent before approval")
	}

	r, err = noRedirect.PostForm(authURL, hiddenFields(t, html))
	if err != nil {
		t.Fatal(err)
	}
	r.Body.Close()
	loc, _ := url.Parse(r.Header.Get("Location"))
	if r.StatusCode != http.StatusFound || loc.Host != "localhost:3000" || loc.Query().Get("success") != "1" || loc.Query().Get("user_id") != "conn-7f3a" {
		t.Fatalf("approve: %d %s", r.StatusCode, loc)
	}
	posts := got()
	if len(posts) != 1 {
		t.Fatalf("callbacks: %v", posts)
	}
	k := posts[0]
	if k["key_id"] != 1.0 || k["user_id"] != "conn-7f3a" || k["key_permissions"] != "read_write" ||
		!strings.HasPrefix(k["consumer_key"].(string), "ck_") || len(k["consumer_key"].(string)) != 43 || !strings.HasPrefix(k["consumer_secret"].(string), "cs_") {
		t.Fatalf("keys posted: %v", k)
	}
	key := Key{ConsumerKey: k["consumer_key"].(string), ConsumerSecret: k["consumer_secret"].(string)}
	e.get("orders", key)
	if st := e.s.stores[testStore]; !strings.HasPrefix(st.keys[key.ConsumerKey].description, "Uplift - API (2026-03-20 08:00:00)") {
		t.Fatalf("key description %q", st.keys[key.ConsumerKey].description)
	}
}

func TestAuthorizeDenyAndAutoApprove(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	cb, got := keyReceiver(t, e, 200)
	q := authQuery(strings.TrimPrefix(cb.URL, "https://") + "/keys") // no scheme: WooCommerce adds https://
	r, _ := http.Get(e.srv.URL + "/" + testStore + "/wc-auth/v1/authorize?" + q.Encode())
	html := page(t, r)
	_, deny, _ := strings.Cut(html, `<a class="button" href="`)
	deny, _, _ = strings.Cut(deny, `"`)
	du, _ := url.Parse(strings.ReplaceAll(deny, "&amp;", "&"))
	if du.Path != "/connections/woocommerce" || du.Query().Get("success") != "0" || du.Query().Get("user_id") != "conn-7f3a" {
		t.Fatalf("deny link %q", deny)
	}

	e.s.o.AutoApprove = true
	r, _ = noRedirect.Get(e.srv.URL + "/" + testStore + "/wc-auth/v1/authorize?" + q.Encode())
	r.Body.Close()
	if loc, _ := url.Parse(r.Header.Get("Location")); r.StatusCode != 302 || loc.Query().Get("success") != "1" || len(got()) != 1 {
		t.Fatalf("auto-approve: %d %s %v", r.StatusCode, loc, got())
	}
}

// A changed parameter breaks the nonce; a callback that does not answer
// exactly 200 loses the keys; the callback must be https.
func TestAuthorizeRefusesTamperingAndFailedCallbacks(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	cb, got := keyReceiver(t, e, 201)
	authURL := func(q url.Values) string { return e.srv.URL + "/" + testStore + "/wc-auth/v1/authorize?" + q.Encode() }
	q := authQuery(cb.URL + "/keys")
	r, _ := http.Get(authURL(q))
	form := hiddenFields(t, page(t, r))

	evil := authQuery("https://evil.example/steal")
	r, _ = noRedirect.PostForm(authURL(evil), form)
	if html := page(t, r); r.StatusCode != 403 || !strings.Contains(html, "The link you followed has expired.") || len(got()) != 0 {
		t.Fatalf("tampered callback_url: %d %s (callbacks %d)", r.StatusCode, html, len(got()))
	}
	form.Set("_wpnonce", "0000000000")
	r, _ = noRedirect.PostForm(authURL(q), form)
	if r.StatusCode != 403 {
		t.Fatalf("forged nonce: %d", r.StatusCode)
	}

	form = hiddenFields(t, page(t, must(http.Get(authURL(q)))))
	r, _ = noRedirect.PostForm(authURL(q), form)
	html := page(t, r)
	if r.StatusCode != 401 || !strings.Contains(html, "<title>Access denied</title>") || !strings.Contains(html, "unable to send the consumer data") {
		t.Fatalf("callback answered 201: %d %s", r.StatusCode, html)
	}
	posted := got()[0]
	wantError(t, e.do("GET", "orders", Key{ConsumerKey: posted["consumer_key"].(string), ConsumerSecret: posted["consumer_secret"].(string)}, nil),
		401, "woocommerce_rest_authentication_error", "Consumer key is invalid.")

	for _, c := range []struct {
		mutate func(url.Values)
		want   string
	}{
		{func(v url.Values) { v.Set("callback_url", "http://app.example/keys") }, "Error: The callback_url needs to be over SSL."},
		{func(v url.Values) { v.Del("app_name") }, "Error: Missing parameter app_name."},
		{func(v url.Values) { v.Set("user_id", "") }, "Error: Missing parameter user_id."},
		{func(v url.Values) { v.Set("scope", "admin") }, "Error: Invalid scope admin."},
		{func(v url.Values) { v.Add("scope", "read") }, "Error: Invalid parameter scope."},
		{func(v url.Values) { v.Set("app_name[]", "x") }, "Error: Invalid parameter app_name."},
	} {
		v := authQuery(cb.URL + "/keys")
		c.mutate(v)
		r := must(http.Get(authURL(v)))
		if html := page(t, r); r.StatusCode != 401 || !strings.Contains(html, c.want) {
			t.Fatalf("%v: %d %s", v, r.StatusCode, html)
		}
	}
	if r := must(http.Get(e.srv.URL + "/nostore/wc-auth/v1/authorize?" + q.Encode())); r.StatusCode != 404 {
		t.Fatalf("unknown store: %d", r.StatusCode)
	}
}

func TestAuthorizeHTTPCallbackWhenAllowed(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{AllowHTTPCallback: true, AutoApprove: true})
	var n int
	var mu sync.Mutex
	cb := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { mu.Lock(); n++; mu.Unlock() }))
	t.Cleanup(cb.Close)
	r := must(noRedirect.Get(e.srv.URL + "/" + testStore + "/wc-auth/v1/authorize?" + authQuery(cb.URL+"/keys").Encode()))
	r.Body.Close()
	mu.Lock()
	defer mu.Unlock()
	if r.StatusCode != 302 || n != 1 {
		t.Fatalf("http callback: %d, %d posts", r.StatusCode, n)
	}
}

func TestRESTAuthentication(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	rw, ro, wo := e.key("read_write"), e.key("read"), e.key("write")
	wantError(t, e.do("GET", "orders", Key{}, nil), 401, "woocommerce_rest_cannot_view", "Sorry, you cannot list resources.")
	wantError(t, e.do("GET", "orders/5", Key{}, nil), 401, "woocommerce_rest_cannot_view", "Sorry, you cannot view this resource.")
	wantError(t, e.do("POST", "webhooks", Key{}, map[string]string{}), 401, "woocommerce_rest_cannot_create", "")
	wantError(t, e.do("GET", "orders", Key{ConsumerKey: "ck_nope", ConsumerSecret: rw.ConsumerSecret}, nil), 401, "woocommerce_rest_authentication_error", "Consumer key is invalid.")
	wantError(t, e.do("GET", "orders", Key{ConsumerKey: rw.ConsumerKey, ConsumerSecret: ro.ConsumerSecret}, nil), 401, "woocommerce_rest_authentication_error", "Consumer secret is invalid.")
	e.get("orders", ro)
	hook := map[string]string{"topic": "order.created", "delivery_url": "http://127.0.0.1:1/wh"}
	wantError(t, e.do("POST", "webhooks", ro, hook), 401, "woocommerce_rest_authentication_error", "The API key provided does not have write permissions.")
	wantError(t, e.do("GET", "orders", wo, nil), 401, "woocommerce_rest_authentication_error", "The API key provided does not have read permissions.")
	if r := e.do("POST", "webhooks", wo, hook); r.status != 201 {
		t.Fatalf("write key creates a webhook: %d %s", r.status, r.raw)
	}

	// Query-string keys work, and are read before the Authorization header.
	q := "orders?" + url.Values{"consumer_key": {ro.ConsumerKey}, "consumer_secret": {ro.ConsumerSecret}}.Encode()
	if r := e.do("GET", q, Key{}, nil); r.status != 200 {
		t.Fatalf("query-string keys: %d", r.status)
	}
	if r := e.do("GET", q, Key{ConsumerKey: "ck_wrong", ConsumerSecret: "cs_wrong"}, nil); r.status != 200 {
		t.Fatalf("query string first: %d", r.status)
	}
	wantError(t, e.do("GET", "nothing/here", rw, nil), 404, "rest_no_route", "No route was found matching the URL and request method.")
}

func must(r *http.Response, err error) *http.Response {
	if err != nil {
		panic(err)
	}
	return r
}
