package gateway

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	storesv1 "uplift.dev/proto/gen/uplift/stores/v1"
)

func (f *fakeStores) AuthorizeGA4(_ context.Context, r *storesv1.AuthorizeGA4Request) (*storesv1.AuthorizeGA4Response, error) {
	if r.GetState() != "live" {
		return nil, status.Error(codes.NotFound, "This connection link has expired or was already used. Please start again from Connections.")
	}
	return &storesv1.AuthorizeGA4Response{AuthorizeUrl: "https://accounts.example/o/oauth2/v2/auth?state=live"}, nil
}

func (f *fakeStores) CompleteGA4Connect(_ context.Context, r *storesv1.CompleteGA4ConnectRequest) (*storesv1.CompleteGA4ConnectResponse, error) {
	f.mu.Lock()
	f.ga4 = r
	f.mu.Unlock()
	if strings.Contains(r.GetRawQuery(), "code=boom") {
		return nil, status.Error(codes.Internal, "internal error")
	}
	return &storesv1.CompleteGA4ConnectResponse{RedirectUrl: "http://web.test/connections?ga4=connected"}, nil
}

// GA4's authorize route binds the state to the browser with an HttpOnly,
// Lax cookie on the two OAuth routes; the callback passes Google's query
// and the cookie's state on and clears it; a used link or a failure of
// ours lands the person on Connections with a message.
func TestGA4AuthorizeAndCallback(t *testing.T) {
	t.Parallel()
	e := setup(t)
	resp := get(t, e.url+"/connections/ga4/authorize?state=live")
	if resp.StatusCode != http.StatusFound || !strings.HasPrefix(resp.Header.Get("Location"), "https://accounts.example/o/oauth2/v2/auth") {
		t.Fatalf("authorize: %d → %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	var cookie *http.Cookie
	for _, c := range resp.Cookies() {
		if c.Name == ga4StateCookie {
			cookie = c
		}
	}
	if cookie == nil || cookie.Value != "live" || !cookie.HttpOnly || cookie.Path != ga4CookiePath || cookie.SameSite != http.SameSiteLaxMode {
		t.Fatalf("state cookie = %+v", cookie)
	}
	resp = get(t, e.url+"/connections/ga4/authorize?state=used")
	loc, _ := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusFound || loc.Path != "/connections" || loc.Query().Get("ga4") != "error" ||
		!strings.Contains(loc.Query().Get("message"), "expired") {
		t.Fatalf("used state: %d → %v", resp.StatusCode, loc)
	}

	raw := "state=live&code=4%2F0Aabc&scope=https%3A%2F%2Fwww.googleapis.com%2Fauth%2Fanalytics.readonly"
	resp = get(t, e.url+"/connections/ga4/callback?"+raw, &http.Cookie{Name: ga4StateCookie, Value: "live"})
	if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != "http://web.test/connections?ga4=connected" {
		t.Fatalf("callback: %d → %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	e.stores.mu.Lock()
	got := e.stores.ga4
	e.stores.mu.Unlock()
	if got.GetRawQuery() != raw || got.GetBrowserState() != "live" {
		t.Fatalf("stores got %v", got)
	}
	cleared := false
	for _, c := range resp.Cookies() {
		cleared = cleared || (c.Name == ga4StateCookie && c.MaxAge < 0)
	}
	if !cleared {
		t.Error("the state cookie is not cleared after the callback")
	}
	resp = get(t, e.url+"/connections/ga4/callback?code=boom&state=live")
	loc, _ = url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusFound || loc.Path != "/connections" || loc.Query().Get("ga4") != "error" || loc.Query().Get("message") != unavailableMessage {
		t.Fatalf("failed callback: %d → %v", resp.StatusCode, loc)
	}
}
