package sim

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html/template"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// codeTTL is how long an authorization code can be exchanged (sim clock).
const codeTTL = 60 * time.Second

// refreshTTL is the refresh token lifetime Shopify reports (90 days).
const refreshTTL = 7776000 * time.Second

type authCode struct {
	shop    string
	scopes  []string
	expires time.Time
}

type accessToken struct {
	shop    string
	scopes  []string
	expires time.Time // zero: never (non-expiring offline token)
}

type refreshToken struct {
	shop    string
	scopes  []string
	expires time.Time
	prev    string // the refresh token this one replaced; valid until this one is first used
}

// QueryHMAC signs OAuth and install query parameters the way Shopify does:
// drop hmac and signature, sort by key, join decoded k=v with &, then lower-case
// hex HMAC-SHA256 with the app secret.
func QueryHMAC(secret string, q url.Values) string {
	keys := make([]string, 0, len(q))
	for k := range q {
		if k != "hmac" && k != "signature" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + strings.Join(q[k], ",")
	}
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(strings.Join(parts, "&")))
	return hex.EncodeToString(m.Sum(nil))
}

func randHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func hostParam(handle string) string {
	return base64.RawURLEncoding.EncodeToString([]byte("admin.shopify.com/store/" + handle))
}

// InstallLink returns the signed query Shopify appends to the App URL when a
// merchant installs from the admin: hmac, host, shop, timestamp.
func (s *Server) InstallLink(domain string) string {
	q := url.Values{}
	q.Set("shop", domain)
	q.Set("host", hostParam(strings.TrimSuffix(domain, ".myshopify.com")))
	q.Set("timestamp", strconv.FormatInt(s.now().Unix(), 10))
	q.Set("hmac", QueryHMAC(s.o.APISecret, q))
	return q.Encode()
}

var consentTmpl = template.Must(template.New("consent").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Install Uplift – {{.ShopName}}</title>
<style>
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;background:#f1f1f1;color:#303030;margin:0;display:flex;justify-content:center;padding:48px 16px}
main{background:#fff;border-radius:12px;box-shadow:0 1px 3px rgba(0,0,0,.15);max-width:440px;width:100%;padding:28px}
h1{font-size:20px;margin:0 0 8px}p{margin:0 0 16px;color:#616161}ul{padding-left:20px;margin:0 0 24px}li{margin:4px 0}
.actions{display:flex;gap:12px;justify-content:flex-end}
button{font:inherit;border-radius:8px;padding:8px 16px;cursor:pointer;border:1px solid #c9c9c9;background:#fff}
button.primary{background:#303030;color:#fff;border-color:#303030}
.note{font-size:12px;color:#8a8a8a;margin-top:20px}
</style></head><body><main>
<h1>Install Uplift on {{.ShopName}}?</h1>
<p>Uplift will be able to:</p>
<ul>{{range .Scopes}}<li>{{.}}</li>{{end}}</ul>
<form method="post">
{{range .Hidden}}<input type="hidden" name="{{.K}}" value="{{.V}}">{{end}}
<div class="actions"><button type="submit" name="decision" value="cancel">Cancel</button>
<button type="submit" name="decision" value="install" class="primary">Install app</button></div>
</form>
<p class="note">Shopify simulator · {{.Domain}}</p>
</main></body></html>`))

func htmlError(w http.ResponseWriter, status int, title, msg string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	fmt.Fprintf(w, "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>%s</title></head><body><h1>%s</h1><p>%s</p></body></html>",
		template.HTMLEscapeString(title), template.HTMLEscapeString(title), template.HTMLEscapeString(msg))
}

func (s *Server) handleAuthorize(w http.ResponseWriter, r *http.Request) {
	domain := r.PathValue("shop")
	if err := r.ParseForm(); err != nil {
		htmlError(w, http.StatusBadRequest, "Oauth error invalid_request", "The request could not be read.")
		return
	}
	q := r.Form
	s.mu.Lock()
	sh, ok := s.shops[domain]
	var name string
	var withhold []string
	if ok {
		name, withhold = sh.spec.Name, sh.spec.WithholdScopes
	}
	s.mu.Unlock()
	if !ok {
		htmlError(w, http.StatusNotFound, "There is no store at this address", "Check the address and try again: "+domain)
		return
	}
	if q.Get("client_id") != s.o.APIKey {
		htmlError(w, http.StatusBadRequest, "Oauth error invalid_request", "The client_id is not valid for any app.")
		return
	}
	redirect, err := url.Parse(q.Get("redirect_uri"))
	if err != nil || (redirect.Scheme != "http" && redirect.Scheme != "https") || redirect.Host == "" {
		htmlError(w, http.StatusBadRequest, "Oauth error invalid_request", "The redirect_uri is missing or not an absolute http(s) URL.")
		return
	}
	var scopes []string
	for sc := range strings.SplitSeq(q.Get("scope"), ",") {
		if sc = strings.TrimSpace(sc); sc != "" && !slices.Contains(scopes, sc) {
			scopes = append(scopes, sc)
		}
	}
	decision := ""
	if r.Method == http.MethodPost {
		decision = r.PostForm.Get("decision")
	} else if s.o.AutoApprove {
		decision = "install"
	}
	switch decision {
	case "install":
		granted := slices.DeleteFunc(slices.Clone(scopes), func(sc string) bool { return slices.Contains(withhold, sc) })
		code := randHex(16)
		s.mu.Lock()
		s.codes[code] = &authCode{shop: domain, scopes: granted, expires: s.now().Add(codeTTL)}
		s.mu.Unlock()
		cb := url.Values{}
		cb.Set("code", code)
		cb.Set("host", hostParam(strings.TrimSuffix(domain, ".myshopify.com")))
		cb.Set("shop", domain)
		cb.Set("state", q.Get("state"))
		cb.Set("timestamp", strconv.FormatInt(s.now().Unix(), 10))
		cb.Set("hmac", QueryHMAC(s.o.APISecret, cb))
		s.redirect(w, r, redirect, cb)
	case "cancel":
		cb := url.Values{}
		cb.Set("error", "access_denied")
		cb.Set("error_description", "The merchant declined the installation.")
		cb.Set("shop", domain)
		cb.Set("state", q.Get("state"))
		s.redirect(w, r, redirect, cb)
	default:
		type kv struct{ K, V string }
		var hidden []kv
		for _, k := range []string{"client_id", "scope", "redirect_uri", "state", "grant_options[]"} {
			if v, ok := q[k]; ok {
				hidden = append(hidden, kv{k, strings.Join(v, ",")})
			}
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_ = consentTmpl.Execute(w, map[string]any{"ShopName": name, "Domain": domain, "Scopes": scopes, "Hidden": hidden})
	}
}

func (s *Server) redirect(w http.ResponseWriter, r *http.Request, base *url.URL, extra url.Values) {
	u := *base
	q := u.Query()
	for k, v := range extra {
		q[k] = v
	}
	u.RawQuery = q.Encode()
	http.Redirect(w, r, u.String(), http.StatusFound)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func oauthError(w http.ResponseWriter, status int, code, desc string) {
	writeJSON(w, status, map[string]string{"error": code, "error_description": desc})
}

// tokenForm reads the token endpoint's body, which may be JSON or form-encoded.
func tokenForm(r *http.Request) (url.Values, error) {
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if ct == "application/json" {
		var m map[string]any
		if err := json.NewDecoder(http.MaxBytesReader(nil, r.Body, 1<<20)).Decode(&m); err != nil {
			return nil, err
		}
		v := url.Values{}
		for k, x := range m {
			switch x := x.(type) {
			case string:
				v.Set(k, x)
			case float64:
				v.Set(k, strconv.FormatFloat(x, 'f', -1, 64))
			case bool:
				v.Set(k, strconv.FormatBool(x))
			}
		}
		return v, nil
	}
	if err := r.ParseForm(); err != nil {
		return nil, err
	}
	return r.Form, nil
}

func (s *Server) handleAccessToken(w http.ResponseWriter, r *http.Request) {
	domain := r.PathValue("shop")
	f, err := tokenForm(r)
	if err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_request", "The request body could not be parsed")
		return
	}
	if f.Get("client_id") != s.o.APIKey || !hmac.Equal([]byte(f.Get("client_secret")), []byte(s.o.APISecret)) {
		oauthError(w, http.StatusUnauthorized, "invalid_client", "Client authentication failed: the client_id or client_secret is wrong")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sh, ok := s.shops[domain]
	if !ok {
		oauthError(w, http.StatusNotFound, "invalid_request", "There is no store at this address")
		return
	}
	now := s.now()
	if f.Get("grant_type") == "refresh_token" {
		old := f.Get("refresh_token")
		rt, ok := s.refresh[old]
		if !ok || rt.shop != domain || now.After(rt.expires) {
			oauthError(w, http.StatusBadRequest, "invalid_grant", "The refresh token is invalid, expired or revoked")
			return
		}
		if rt.prev != "" { // first use of this token retires the one it replaced
			delete(s.refresh, rt.prev)
			rt.prev = ""
		}
		writeJSON(w, http.StatusOK, s.issueLocked(domain, rt.scopes, true, old))
		return
	}
	c, ok := s.codes[f.Get("code")]
	if !ok || c.shop != domain {
		oauthError(w, http.StatusBadRequest, "invalid_request", "The authorization code was not found or was already used")
		return
	}
	delete(s.codes, f.Get("code"))
	if now.After(c.expires) {
		oauthError(w, http.StatusBadRequest, "invalid_request", "The authorization code has expired")
		return
	}
	sh.installed = true
	expiring := f.Get("expiring") == "1" || f.Get("expiring") == "true"
	writeJSON(w, http.StatusOK, s.issueLocked(domain, c.scopes, expiring, ""))
}

// issueLocked mints an access token (and, for expiring tokens, a refresh token
// that remembers prev so the old refresh token stays usable until this one is used).
func (s *Server) issueLocked(domain string, scopes []string, expiring bool, prev string) map[string]any {
	now := s.now()
	tok := "shpat_" + randHex(16)
	out := map[string]any{"access_token": tok, "scope": strings.Join(scopes, ",")}
	at := &accessToken{shop: domain, scopes: scopes}
	if expiring {
		at.expires = now.Add(s.o.TokenTTL)
		rt := "shprt_" + randHex(16)
		s.refresh[rt] = &refreshToken{shop: domain, scopes: scopes, expires: now.Add(refreshTTL), prev: prev}
		out["expires_in"] = int64(s.o.TokenTTL / time.Second)
		out["refresh_token"] = rt
		out["refresh_token_expires_in"] = int64(refreshTTL / time.Second)
	}
	s.tokens[tok] = at
	return out
}
