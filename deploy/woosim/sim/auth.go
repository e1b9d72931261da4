package sim

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// Scopes are the key permissions an app may ask for.
var Scopes = map[string]bool{"read": true, "write": true, "read_write": true}

type apiKey struct {
	id          int64
	appUserID   string // the app's own reference, echoed back, never a WordPress user
	description string
	permissions string
	secret      string
	createdAt   time.Time
}

// Key is an API key as the merchant's approval (or the control API) minted it.
type Key struct {
	KeyID          int64  `json:"key_id"`
	UserID         string `json:"user_id"`
	ConsumerKey    string `json:"consumer_key"`
	ConsumerSecret string `json:"consumer_secret"`
	KeyPermissions string `json:"key_permissions"`
}

func randHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// IssueKey mints a key for the store as WooCommerce's authorize endpoint does.
func (s *Server) IssueKey(slug, appName, appUserID, permissions string) (Key, error) {
	if !Scopes[permissions] {
		return Key{}, fmt.Errorf("%w: permissions must be read, write or read_write", ErrInvalid)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st, err := s.storeLocked(slug)
	if err != nil {
		return Key{}, err
	}
	return st.issueKey(appName, appUserID, permissions, s.now()), nil
}

func (st *store) issueKey(appName, appUserID, permissions string, now time.Time) Key {
	st.keySeq++
	k := Key{KeyID: st.keySeq, UserID: appUserID, ConsumerKey: "ck_" + randHex(20), ConsumerSecret: "cs_" + randHex(20), KeyPermissions: permissions}
	st.keys[k.ConsumerKey] = &apiKey{id: k.KeyID, appUserID: appUserID, permissions: permissions, secret: k.ConsumerSecret, createdAt: now,
		description: fmt.Sprintf("%s - API (%s)", appName, now.In(st.loc).Format("2006-01-02 15:04:05"))}
	return k
}

func (st *store) revokeKey(id int64) {
	for ck, k := range st.keys {
		if k.id == id {
			delete(st.keys, ck)
		}
	}
}

var grantTmpl = template.Must(template.New("grant").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Store}} &rsaquo; Authorize</title>
<style>
body{font-family:-apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,sans-serif;background:#f0f0f1;color:#3c434a;margin:0;display:flex;justify-content:center;padding:48px 16px}
main{background:#fff;border:1px solid #c3c4c7;max-width:500px;width:100%;padding:24px 28px}
h1{font-size:20px;margin:0 0 12px}ul{padding-left:20px}li{margin:4px 0}
.actions{display:flex;gap:12px;justify-content:flex-end;margin-top:20px}
a.button,button{font:inherit;border-radius:3px;padding:6px 14px;cursor:pointer;border:1px solid #2271b1;background:#f6f7f7;color:#2271b1;text-decoration:none}
button.primary{background:#2271b1;color:#fff}
.note{font-size:12px;color:#8c8f94;margin-top:20px}
</style></head><body><main>
<h1>{{.App}} would like to connect to your store</h1>
<p>This will give "{{.App}}" <strong>{{.Access}}</strong> access which will allow it to:</p>
<ul>{{range .Abilities}}<li>{{.}}</li>{{end}}</ul>
<p>Logged in as admin</p>
<form method="post">
{{range .Hidden}}<input type="hidden" name="{{.K}}" value="{{.V}}">{{end}}
<div class="actions"><a class="button" href="{{.DenyURL}}">Deny</a>
<button type="submit" name="wc_auth_route" value="access_granted" class="primary">Approve</button></div>
</form>
<p class="note">WooCommerce simulator · {{.Home}}</p>
</main></body></html>`))

var abilities = map[string][]string{
	"read":       {"View coupons", "View customers", "View orders and sales reports", "View products"},
	"write":      {"Create webhooks", "Create coupons", "Create customers", "Create orders", "Create products"},
	"read_write": {"Create webhooks", "View and manage coupons", "View and manage customers", "View and manage orders and sales reports", "View and manage products"},
}

var accessNames = map[string]string{"read": "Read", "write": "Write", "read_write": "Read/Write"}

// authError is WooCommerce's wp_die for the authorize endpoint: an HTML
// "Access denied" page with status 401, whatever went wrong.
func authError(w http.ResponseWriter, msg string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusUnauthorized)
	fmt.Fprintf(w, "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Access denied</title></head><body><div class=\"wp-die-message\">Error: %s.</div></body></html>",
		template.HTMLEscapeString(msg))
}

var authParams = []string{"app_name", "scope", "user_id", "return_url", "callback_url"}

func (s *Server) handleAuthorize(w http.ResponseWriter, r *http.Request) {
	slug := r.PathValue("store")
	if err := r.ParseForm(); err != nil {
		authError(w, "The request could not be read")
		return
	}
	// The parameters always travel in the query, on the grant screen and on
	// its approval alike; the form adds only the nonce.
	query := r.URL.Query()
	s.mu.Lock()
	st, ok := s.stores[slug]
	var name, home string
	if ok {
		name, home = st.spec.Name, s.homeLocked(slug)
	}
	s.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	p := map[string]string{}
	for _, k := range authParams {
		v, ok := query[k]
		if !ok || v[0] == "" {
			authError(w, "Missing parameter "+k)
			return
		}
		if len(v) > 1 {
			authError(w, "Invalid parameter "+k)
			return
		}
		p[k] = v[0]
	}
	for k := range query {
		if strings.TrimSuffix(k, "[]") != k && slices.Contains(authParams, strings.TrimSuffix(k, "[]")) {
			authError(w, "Invalid parameter "+strings.TrimSuffix(k, "[]"))
			return
		}
	}
	if !Scopes[p["scope"]] {
		authError(w, "Invalid scope "+p["scope"])
		return
	}
	cb := p["callback_url"]
	if !strings.Contains(cb, "://") {
		cb = "https://" + cb // WooCommerce's esc_url_raw adds the scheme
	}
	cbu, err := url.Parse(cb)
	if err != nil || cbu.Host == "" || (cbu.Scheme != "https" && !(s.o.AllowHTTPCallback && cbu.Scheme == "http")) {
		authError(w, "The callback_url needs to be over SSL")
		return
	}
	ret, err := url.Parse(p["return_url"])
	if err != nil || ret.Host == "" || (ret.Scheme != "http" && ret.Scheme != "https") {
		authError(w, "Invalid return_url")
		return
	}
	nonce := s.nonce(slug, p)
	granted := s.o.AutoApprove && r.Method == http.MethodGet
	if r.Method == http.MethodPost {
		if r.PostForm.Get("wc_auth_route") != "access_granted" || !hmac.Equal([]byte(r.PostForm.Get("_wpnonce")), []byte(nonce)) {
			// WordPress's answer to a missing or stale nonce, including one
			// whose parameters were changed after the grant screen was shown.
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.WriteHeader(http.StatusForbidden)
			fmt.Fprint(w, "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Something went wrong.</title></head><body><div class=\"wp-die-message\">The link you followed has expired.</div></body></html>")
			return
		}
		granted = true
	}
	if !granted {
		type kv struct{ K, V string }
		hidden := []kv{{"_wpnonce", nonce}}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_ = grantTmpl.Execute(w, map[string]any{"Store": name, "Home": home, "App": p["app_name"], "Access": accessNames[p["scope"]],
			"Abilities": abilities[p["scope"]], "Hidden": hidden, "DenyURL": withQuery(ret, "0", p["user_id"])})
		return
	}
	s.mu.Lock()
	key := st.issueKey(p["app_name"], p["user_id"], p["scope"], s.now())
	s.mu.Unlock()
	if status := s.postKeys(r, cbu.String(), key); status != http.StatusOK {
		s.mu.Lock()
		st.revokeKey(key.KeyID)
		s.mu.Unlock()
		s.log.Info("wc-auth callback refused", "store", slug, "status", status)
		authError(w, "An error occurred in the request and at the time were unable to send the consumer data")
		return
	}
	http.Redirect(w, r, withQuery(ret, "1", p["user_id"]), http.StatusFound)
}

// postKeys sends the keys to the app; only exactly 200 keeps them.
func (s *Server) postKeys(r *http.Request, callback string, k Key) int {
	body, _ := json.Marshal(k)
	req, err := http.NewRequestWithContext(r.Context(), http.MethodPost, callback, bytes.NewReader(body))
	if err != nil {
		return 0
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := s.client.Do(req)
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	return resp.StatusCode
}

func withQuery(base *url.URL, success, userID string) string {
	u := *base
	q := u.Query()
	q.Set("success", success)
	q.Set("user_id", userID)
	u.RawQuery = q.Encode()
	return u.String()
}

// nonce binds the grant screen's approval to its store and parameters, as
// WordPress's nonce guards access_granted.
func (s *Server) nonce(slug string, p map[string]string) string {
	m := hmac.New(sha256.New, s.nonceKey[:])
	m.Write([]byte(slug))
	for _, k := range authParams {
		m.Write([]byte{0})
		m.Write([]byte(p[k]))
	}
	return hex.EncodeToString(m.Sum(nil))[:10]
}

// authenticate reads the consumer key and secret (the query string first,
// then HTTP Basic) as WooCommerce does over HTTPS. It returns nil and no
// error when the request carries no key: WordPress then treats it as a
// visitor, whom each route refuses itself.
func (s *Server) authenticateLocked(st *store, r *http.Request) (*apiKey, *wpError) {
	ck, cs := r.URL.Query().Get("consumer_key"), r.URL.Query().Get("consumer_secret")
	if ck == "" {
		ck, cs, _ = r.BasicAuth()
	}
	if ck == "" {
		return nil, nil
	}
	k, ok := st.keys[ck]
	if !ok {
		return nil, &wpError{http.StatusUnauthorized, "woocommerce_rest_authentication_error", "Consumer key is invalid."}
	}
	if !hmac.Equal([]byte(cs), []byte(k.secret)) {
		return nil, &wpError{http.StatusUnauthorized, "woocommerce_rest_authentication_error", "Consumer secret is invalid."}
	}
	read := r.Method == http.MethodGet || r.Method == http.MethodHead
	switch {
	case k.permissions == "read" && !read:
		return nil, &wpError{http.StatusUnauthorized, "woocommerce_rest_authentication_error", "The API key provided does not have write permissions."}
	case k.permissions == "write" && read:
		return nil, &wpError{http.StatusUnauthorized, "woocommerce_rest_authentication_error", "The API key provided does not have read permissions."}
	}
	return k, nil
}
