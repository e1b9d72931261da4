package gateway

import (
	"net/http"
	"strings"
	"testing"
)

// TestRefreshTokenCookieIsServerSetAndHttpOnly: the spec's refresh-token cookie is set by the gateway, HttpOnly, Secure
// and SameSite=Strict (so no script reads it), only for the web's origins,
// and cleared the same way.
func TestRefreshTokenCookieIsServerSetAndHttpOnly(t *testing.T) {
	t.Parallel()
	e := setup(t)
	url := e.url + refreshCookiePath
	web := map[string]string{"Origin": "http://localhost:3000"}

	pre := map[string]string{"Origin": "http://localhost:3000", "Access-Control-Request-Method": "PUT",
		"Access-Control-Request-Headers": "authorization,content-type"}
	if code, h, _ := do(t, "OPTIONS", url, "", pre); code != http.StatusNoContent || h.Get("Access-Control-Allow-Credentials") != "true" {
		t.Fatalf("preflight: %d %v", code, h)
	}
	if _, h, _ := do(t, "OPTIONS", e.url+"/internal/users", "", pre); h.Get("Access-Control-Allow-Credentials") != "" {
		t.Fatal("credentials allowed beyond the cookie's route")
	}

	code, h, _ := do(t, "PUT", url, `{"refreshToken":"AMf-vB_x.y-Z9"}`, web)
	set := h.Values("Set-Cookie")
	if code != http.StatusNoContent || h.Get("Access-Control-Allow-Credentials") != "true" || len(set) != 1 {
		t.Fatalf("set: %d %v", code, h)
	}
	for _, want := range []string{"refresh-token=AMf-vB_x.y-Z9", "Path=" + refreshCookiePath, "Max-Age=2592000", "HttpOnly", "Secure", "SameSite=Strict"} {
		if !strings.Contains(set[0], want) {
			t.Fatalf("Set-Cookie %q lacks %q", set[0], want)
		}
	}

	code, h, _ = do(t, "DELETE", url, "", web)
	if set := h.Get("Set-Cookie"); code != http.StatusNoContent || !strings.HasPrefix(set, "refresh-token=;") ||
		!strings.Contains(set, "Max-Age=0") || !strings.Contains(set, "HttpOnly") || !strings.Contains(set, "Path="+refreshCookiePath) {
		t.Fatalf("clear: %d %q", code, set)
	}

	for name, tt := range map[string]struct {
		method, body string
		header       map[string]string
		want         int
	}{
		"another site's page":     {"PUT", `{"refreshToken":"t"}`, map[string]string{"Origin": "https://evil.example"}, http.StatusForbidden},
		"no origin":               {"PUT", `{"refreshToken":"t"}`, nil, http.StatusForbidden},
		"another site's sign-out": {"DELETE", "", map[string]string{"Origin": "https://evil.example"}, http.StatusForbidden},
		"a form post":             {"PUT", `{"refreshToken":"t"}`, map[string]string{"Origin": "http://localhost:3000", "Content-Type": "text/plain"}, http.StatusUnsupportedMediaType},
		"not JSON":                {"PUT", `{"refreshToken":`, web, http.StatusBadRequest},
		"empty token":             {"PUT", `{"refreshToken":""}`, web, http.StatusBadRequest},
		"a cookie separator":      {"PUT", `{"refreshToken":"a;Domain=evil.example"}`, web, http.StatusBadRequest},
		"huge":                    {"PUT", `{"refreshToken":"` + strings.Repeat("a", maxRefreshToken+1) + `"}`, web, http.StatusBadRequest},
	} {
		code, h, b := do(t, tt.method, url, tt.body, tt.header)
		if code != tt.want || h.Get("Set-Cookie") != "" || b["message"] == "" {
			t.Errorf("%s: %d %q %v, want %d without a cookie", name, code, h.Get("Set-Cookie"), b, tt.want)
		}
	}
}
