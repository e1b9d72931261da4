package sim

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Scope names as Google spells them.
const (
	ScopeReadonly = "https://www.googleapis.com/auth/analytics.readonly"
	ScopeEdit     = "https://www.googleapis.com/auth/analytics"
)

// scopeLabels are the scopes the sim knows (others are invalid_scope) and the
// consent page's words for each, as a person reads them.
var scopeLabels = map[string]string{
	ScopeReadonly: "See and download your Google Analytics data",
	ScopeEdit:     "See and manage your Google Analytics data",
	"openid":      "Associate you with your personal info on Google",
	"email":       "See your primary Google Account email address",
	"profile":     "See your personal info",
	"https://www.googleapis.com/auth/userinfo.email":   "See your primary Google Account email address",
	"https://www.googleapis.com/auth/userinfo.profile": "See your personal info",
}

// codeTTL is how long an authorization code can be exchanged (sim clock).
const codeTTL = 10 * time.Minute

// RFC 7636: a verifier is 43–128 unreserved characters; so is a plain challenge.
var pkceRE = regexp.MustCompile(`^[A-Za-z0-9\-._~]{43,128}$`)

// grant is one user's consent to the client: its refresh token and access
// tokens hang off it, and revoking any of them ends the grant.
type grant struct {
	user    string
	scopes  []string
	revoked bool
}

type authCode struct {
	g                  *grant
	redirectURI        string
	challenge, method  string
	expires            time.Time
	offline, withFresh bool // access_type=offline; and a refresh token is due (first consent or prompt=consent)
}

type accessToken struct {
	g       *grant
	expires time.Time
}

func randToken(prefix string, n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return prefix + hex.EncodeToString(b)
}

var consentTmpl = template.Must(template.New("consent").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in - Google Accounts</title>
<style>
body{font-family:Roboto,system-ui,-apple-system,Segoe UI,sans-serif;background:#f0f4f9;color:#1f1f1f;margin:0;display:flex;justify-content:center;padding:48px 16px}
main{background:#fff;border-radius:28px;max-width:480px;width:100%;padding:36px}
h1{font-size:24px;font-weight:400;margin:0 0 8px}p{margin:0 0 16px;color:#444}
fieldset{border:0;padding:0;margin:0 0 20px}label{display:block;margin:6px 0}
.actions{display:flex;gap:12px;justify-content:flex-end}
button{font:inherit;border-radius:20px;padding:8px 20px;cursor:pointer;border:1px solid #747775;background:#fff}
button.primary{background:#0b57d0;color:#fff;border-color:#0b57d0}
.note{font-size:12px;color:#777;margin-top:20px}
</style></head><body><main>
<h1>Sign in with Google</h1>
<p>Uplift wants to access your Google Account.</p>
<form method="post">
{{range .Hidden}}<input type="hidden" name="{{.K}}" value="{{.V}}">{{end}}
<fieldset><legend>Choose an account</legend>
{{range $i, $u := .Users}}<label><input type="radio" name="user" value="{{$u}}"{{if eq $u $.Hint}} checked{{else if and (eq $i 0) (not $.Hint)}} checked{{end}}> {{$u}}</label>{{end}}
</fieldset>
<fieldset><legend>Uplift will be able to:</legend>
{{range .Scopes}}<label><input type="checkbox" name="grant_scope" value="{{.Name}}" checked> {{.Label}}</label>{{end}}
</fieldset>
<div class="actions"><button type="submit" name="decision" value="deny">Cancel</button>
<button type="submit" name="decision" value="allow" class="primary">Continue</button></div>
</form>
<p class="note">Google Analytics 4 simulator</p>
</main></body></html>`))

// authError is the page Google shows, without redirecting, when the request
// itself is bad (unknown client, unregistered redirect URI): the app must not
// learn anything through a redirect it did not register.
func authError(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	fmt.Fprintf(w, "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Error %d: %s</title></head><body><h1>Access blocked: authorization error</h1><p>Error %d: %s</p><p>%s</p></body></html>",
		status, template.HTMLEscapeString(code), status, template.HTMLEscapeString(code), template.HTMLEscapeString(msg))
}

func (s *Server) redirectAllowed(u string) bool {
	if len(s.o.RedirectURIs) > 0 {
		return slices.Contains(s.o.RedirectURIs, u)
	}
	p, err := url.Parse(u)
	return err == nil && (p.Scheme == "http" || p.Scheme == "https") && p.Host != "" && p.Fragment == ""
}

func (s *Server) handleAuthorize(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		authError(w, http.StatusBadRequest, "invalid_request", "The request could not be read.")
		return
	}
	q := r.Form
	if q.Get("client_id") != s.o.ClientID {
		authError(w, http.StatusUnauthorized, "invalid_client", "The OAuth client was not found.")
		return
	}
	redirect := q.Get("redirect_uri")
	if !s.redirectAllowed(redirect) {
		authError(w, http.StatusBadRequest, "redirect_uri_mismatch", "The redirect_uri "+redirect+" does not match one registered for the OAuth client.")
		return
	}
	// From here on Google reports errors to the registered redirect URI.
	back := func(v url.Values) {
		if st := q.Get("state"); st != "" {
			v.Set("state", st)
		}
		u, _ := url.Parse(redirect)
		qq := u.Query()
		for k, x := range v {
			qq[k] = x
		}
		u.RawQuery = qq.Encode()
		http.Redirect(w, r, u.String(), http.StatusFound)
	}
	fail := func(code, desc string) { back(url.Values{"error": {code}, "error_description": {desc}}) }
	if q.Get("response_type") != "code" {
		fail("unsupported_response_type", "response_type must be code")
		return
	}
	scopes := strings.Fields(q.Get("scope"))
	if len(scopes) == 0 {
		fail("invalid_request", "Missing required parameter: scope")
		return
	}
	for _, sc := range scopes {
		if _, ok := scopeLabels[sc]; !ok {
			fail("invalid_scope", "Some requested scopes were invalid: "+sc)
			return
		}
	}
	challenge, method := q.Get("code_challenge"), q.Get("code_challenge_method")
	if challenge != "" {
		if method == "" {
			method = "plain" // RFC 7636's default, which Google follows
		}
		if method != "S256" && method != "plain" {
			fail("invalid_request", "Invalid code_challenge_method: "+method)
			return
		}
		if !pkceRE.MatchString(challenge) {
			fail("invalid_request", "Invalid code_challenge: 43 to 128 characters of [A-Za-z0-9-._~] are required")
			return
		}
	} else if method != "" {
		fail("invalid_request", "code_challenge_method given without code_challenge")
		return
	}
	switch at := q.Get("access_type"); at {
	case "", "online", "offline":
	default:
		fail("invalid_request", "Invalid access_type: "+at)
		return
	}
	s.mu.Lock()
	users := slices.Clone(s.users)
	s.mu.Unlock()
	decision, user, granted := "", q.Get("login_hint"), scopes
	if r.Method == http.MethodPost {
		decision, user = r.PostForm.Get("decision"), r.PostForm.Get("user")
		granted = slices.DeleteFunc(slices.Clone(scopes), func(sc string) bool { return !slices.Contains(r.PostForm["grant_scope"], sc) })
	} else if s.o.AutoApprove {
		decision = "allow"
		if !slices.Contains(users, user) && len(users) > 0 {
			user = users[0]
		}
	}
	switch decision {
	case "allow":
		if !slices.Contains(users, user) {
			authError(w, http.StatusBadRequest, "invalid_request", "Choose an account to continue.")
			return
		}
		if len(granted) == 0 {
			fail("access_denied", "The user granted no scopes")
			return
		}
		offline := q.Get("access_type") == "offline"
		s.mu.Lock()
		fresh := offline && (!s.consent[user] || strings.Contains(q.Get("prompt"), "consent"))
		if offline {
			s.consent[user] = true
		}
		code := randToken("4/0A", 24)
		s.codes[code] = &authCode{g: &grant{user: user, scopes: granted}, redirectURI: redirect, challenge: challenge, method: method,
			expires: s.now().Add(codeTTL), offline: offline, withFresh: fresh}
		s.mu.Unlock()
		back(url.Values{"code": {code}, "scope": {strings.Join(granted, " ")}})
	case "deny":
		back(url.Values{"error": {"access_denied"}})
	default:
		type kv struct{ K, V string }
		var hidden []kv
		for _, k := range []string{"client_id", "redirect_uri", "response_type", "scope", "access_type", "prompt", "state",
			"code_challenge", "code_challenge_method", "include_granted_scopes", "login_hint"} {
			if v := q.Get(k); v != "" {
				hidden = append(hidden, kv{k, v})
			}
		}
		type scope struct{ Name, Label string }
		var offered []scope
		for _, sc := range scopes {
			offered = append(offered, scope{sc, scopeLabels[sc]})
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_ = consentTmpl.Execute(w, map[string]any{"Hidden": hidden, "Users": users, "Hint": q.Get("login_hint"), "Scopes": offered})
	}
}

// tokenError writes Google's OAuth error body: {"error", "error_description"}.
func tokenError(w http.ResponseWriter, status int, code, desc string) {
	writeJSON(w, status, map[string]string{"error": code, "error_description": desc})
}

func (s *Server) handleToken(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		tokenError(w, http.StatusBadRequest, "invalid_request", "The request body could not be parsed")
		return
	}
	f := r.PostForm
	// Google also takes the client's credentials as HTTP Basic auth.
	id, secret, basic := r.BasicAuth()
	if !basic {
		id, secret = f.Get("client_id"), f.Get("client_secret")
	}
	if id != s.o.ClientID || subtle.ConstantTimeCompare([]byte(secret), []byte(s.o.ClientSecret)) != 1 {
		tokenError(w, http.StatusUnauthorized, "invalid_client", "Unauthorized")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch gt := f.Get("grant_type"); gt {
	case "authorization_code":
		s.exchangeLocked(w, f)
	case "refresh_token":
		g := s.refresh[f.Get("refresh_token")]
		if g == nil || g.revoked {
			tokenError(w, http.StatusBadRequest, "invalid_grant", "Token has been expired or revoked.")
			return
		}
		writeJSON(w, http.StatusOK, s.issueLocked(g, ""))
	case "":
		tokenError(w, http.StatusBadRequest, "unsupported_grant_type", "Missing grant_type")
	default:
		tokenError(w, http.StatusBadRequest, "unsupported_grant_type", "Invalid grant_type: "+gt)
	}
}

func (s *Server) exchangeLocked(w http.ResponseWriter, f url.Values) {
	code := f.Get("code")
	c := s.codes[code]
	if c == nil {
		tokenError(w, http.StatusBadRequest, "invalid_grant", "Malformed auth code.")
		return
	}
	delete(s.codes, code) // a code is good for one try, right or wrong
	if !s.now().Before(c.expires) {
		tokenError(w, http.StatusBadRequest, "invalid_grant", "Bad Request")
		return
	}
	if f.Get("redirect_uri") != c.redirectURI {
		tokenError(w, http.StatusBadRequest, "redirect_uri_mismatch", "Bad Request")
		return
	}
	if c.challenge != "" {
		v := f.Get("code_verifier")
		if v == "" {
			tokenError(w, http.StatusBadRequest, "invalid_grant", "Missing code verifier.")
			return
		}
		want := v
		if c.method == "S256" {
			sum := sha256.Sum256([]byte(v))
			want = base64.RawURLEncoding.EncodeToString(sum[:])
		}
		if !pkceRE.MatchString(v) || subtle.ConstantTimeCompare([]byte(want), []byte(c.challenge)) != 1 {
			tokenError(w, http.StatusBadRequest, "invalid_grant", "Invalid code verifier.")
			return
		}
	}
	rt := ""
	if c.withFresh {
		rt = randToken("1//0g", 32)
		s.refresh[rt] = c.g
	} else if c.offline {
		// No new refresh token, but Google keeps the user's earlier one working
		// under the same grant, so this exchange joins it.
		for tok, g := range s.refresh {
			if g.user == c.g.user && !g.revoked {
				g.scopes = c.g.scopes
				c.g = s.refresh[tok]
				break
			}
		}
	}
	writeJSON(w, http.StatusOK, s.issueLocked(c.g, rt))
}

func (s *Server) issueLocked(g *grant, refreshToken string) map[string]any {
	tok := randToken("ya29.a0", 32)
	s.tokens[tok] = &accessToken{g: g, expires: s.now().Add(s.o.TokenTTL)}
	// Google reports one second under the lifetime, since the clock started
	// before the response was written.
	out := map[string]any{"access_token": tok, "expires_in": int64(s.o.TokenTTL/time.Second) - 1,
		"scope": strings.Join(g.scopes, " "), "token_type": "Bearer"}
	if refreshToken != "" {
		out["refresh_token"] = refreshToken
	}
	return out
}

// handleRevoke ends the grant behind an access or refresh token, as Google
// does: every token of that consent stops working, and the next consent
// issues a refresh token again.
func (s *Server) handleRevoke(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		tokenError(w, http.StatusBadRequest, "invalid_request", "The request body could not be parsed")
		return
	}
	tok := r.Form.Get("token")
	s.mu.Lock()
	defer s.mu.Unlock()
	var g *grant
	if at := s.tokens[tok]; at != nil && s.now().Before(at.expires) {
		g = at.g
	} else if rg := s.refresh[tok]; rg != nil {
		g = rg
	}
	if g == nil || g.revoked {
		tokenError(w, http.StatusBadRequest, "invalid_token", "Token expired or revoked")
		return
	}
	g.revoked = true
	for k, x := range s.refresh {
		if x == g {
			delete(s.refresh, k)
		}
	}
	for k, x := range s.tokens {
		if x.g == g {
			delete(s.tokens, k)
		}
	}
	delete(s.consent, g.user)
	writeJSON(w, http.StatusOK, map[string]any{})
}

// authenticate reads the bearer token of an API call and checks its scope;
// on failure it has written Google's 401 or 403 and returns "".
func (s *Server) authenticateLocked(w http.ResponseWriter, r *http.Request) string {
	h := r.Header.Get("Authorization")
	tok, ok := strings.CutPrefix(h, "Bearer ")
	if !ok || tok == "" {
		w.Header().Set("WWW-Authenticate", `Bearer realm="https://accounts.google.com/"`)
		apiError(w, http.StatusUnauthorized, "UNAUTHENTICATED", "Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential.")
		return ""
	}
	at := s.tokens[tok]
	if at == nil || at.g.revoked || !s.now().Before(at.expires) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="https://accounts.google.com/", error="invalid_token"`)
		apiError(w, http.StatusUnauthorized, "UNAUTHENTICATED", failMessage[401])
		return ""
	}
	if !slices.Contains(at.g.scopes, ScopeReadonly) && !slices.Contains(at.g.scopes, ScopeEdit) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="https://accounts.google.com/", error="insufficient_scope", scope="`+ScopeReadonly+`"`)
		apiError(w, http.StatusForbidden, "PERMISSION_DENIED", "Request had insufficient authentication scopes.")
		return ""
	}
	return at.g.user
}

// api wraps an API handler with the queued failures and authentication,
// holding the lock for the handler.
func (s *Server) api(h func(w http.ResponseWriter, r *http.Request, user string)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		if len(s.failNext) > 0 {
			f := &s.failNext[0]
			f.Count--
			code := f.Code
			if f.Count == 0 {
				s.failNext = s.failNext[1:]
			}
			apiError(w, code, statusOf[code], failMessage[code])
			return
		}
		user := s.authenticateLocked(w, r)
		if user == "" {
			return
		}
		h(w, r, user)
	}
}
