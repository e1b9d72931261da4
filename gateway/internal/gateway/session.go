package gateway

import (
	"encoding/json"
	"mime"
	"net/http"
	"time"

	"google.golang.org/grpc/codes"
)

// The spec's "secure refresh-token cookie" (section 3: stored on sign-in,
// cleared on sign-out, section 4). The web used to write it from script,
// so it could not be HttpOnly and any script on the page could read the
// token from document.cookie. No server reads it (nothing in Uplift needs
// the refresh token: Firebase's SDK refreshes from its own storage), but
// the spec requires it, so the gateway sets it instead: HttpOnly, Secure,
// SameSite=Strict, and sent back only to the path that manages it.
const (
	refreshCookieName   = "refresh-token"
	refreshCookiePath   = "/session/refreshToken"
	refreshCookieMaxAge = 30 * 24 * time.Hour
	// maxRefreshToken bounds the value: Firebase's are some 300 bytes.
	maxRefreshToken = 4096
)

// mountSession adds PUT and DELETE refreshCookiePath: the web sends the
// signed-in user's refresh token (JSON {"refreshToken"}) on sign-in and
// when Firebase renews it, and deletes the cookie on sign-out. Only the
// web's own origins may (the cookie is theirs to set, and a page of
// another site must not plant one), with a JSON body, so a browser always
// asks first (CORS preflight).
func mountSession(root *http.ServeMux, origins []string) {
	allowed := originSet(origins)
	fromWeb := func(w http.ResponseWriter, r *http.Request) bool {
		if !allowed[r.Header.Get("Origin")] {
			writeJSONError(w, http.StatusForbidden, codes.PermissionDenied, "This origin may not call the API.")
			return false
		}
		return true
	}
	root.HandleFunc("PUT "+refreshCookiePath, func(w http.ResponseWriter, r *http.Request) {
		if !fromWeb(w, r) {
			return
		}
		if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
			writeJSONError(w, http.StatusUnsupportedMediaType, codes.InvalidArgument, "Send the refresh token as JSON.")
			return
		}
		var body struct {
			RefreshToken string `json:"refreshToken"`
		}
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 2*maxRefreshToken)).Decode(&body); err != nil {
			writeJSONError(w, http.StatusBadRequest, codes.InvalidArgument, "The body is not valid JSON.")
			return
		}
		if !validCookieValue(body.RefreshToken) {
			writeJSONError(w, http.StatusBadRequest, codes.InvalidArgument, "refreshToken is not a valid refresh token.")
			return
		}
		http.SetCookie(w, refreshCookie(body.RefreshToken, int(refreshCookieMaxAge/time.Second)))
		w.WriteHeader(http.StatusNoContent)
	})
	root.HandleFunc("DELETE "+refreshCookiePath, func(w http.ResponseWriter, r *http.Request) {
		if !fromWeb(w, r) {
			return
		}
		http.SetCookie(w, refreshCookie("", -1))
		w.WriteHeader(http.StatusNoContent)
	})
}

// refreshCookie is the cookie with value; maxAge -1 deletes it.
func refreshCookie(value string, maxAge int) *http.Cookie {
	return &http.Cookie{Name: refreshCookieName, Value: value, Path: refreshCookiePath, MaxAge: maxAge,
		HttpOnly: true, Secure: true, SameSite: http.SameSiteStrictMode}
}

// validCookieValue accepts 1 to maxRefreshToken bytes of RFC 6265's
// cookie-octet, which a Firebase refresh token is; anything else would be
// changed by http.SetCookie rather than stored as sent.
func validCookieValue(v string) bool {
	if v == "" || len(v) > maxRefreshToken {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c < 0x21 || c > 0x7e || c == '"' || c == ',' || c == ';' || c == '\\' {
			return false
		}
	}
	return true
}
