package gateway

import (
	"net/http"
	"net/url"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	storesv1 "uplift.dev/proto/gen/uplift/stores/v1"
)

// ga4StateCookie binds a Google OAuth state to the browser that started
// connecting Google Analytics 4, as shopifyStateCookie does for Shopify.
const ga4StateCookie = "uplift_ga4_state"

// ga4CookiePath limits the cookie to the two OAuth routes.
const ga4CookiePath = "/connections/ga4"

// mountGA4 adds the routes the browser reaches directly while connecting
// Google Analytics 4: the start of Google's OAuth flow and its callback.
// They carry no bearer token; the stores service checks the one-use state,
// the cookie and (with Google) the PKCE verifier.
func mountGA4(root *http.ServeMux, stores storesv1.StoresServiceClient, webURL string) {
	back := func(w http.ResponseWriter, r *http.Request, message string) {
		http.Redirect(w, r, strings.TrimRight(webURL, "/")+"/connections?"+
			url.Values{"ga4": {"error"}, "message": {message}}.Encode(), http.StatusFound)
	}
	root.HandleFunc("GET "+ga4CookiePath+"/authorize", func(w http.ResponseWriter, r *http.Request) {
		state := r.URL.Query().Get("state")
		res, err := stores.AuthorizeGA4(r.Context(), &storesv1.AuthorizeGA4Request{State: state})
		if status.Code(err) == codes.NotFound {
			back(w, r, status.Convert(err).Message())
			return
		}
		if err != nil {
			back(w, r, unavailableMessage)
			return
		}
		http.SetCookie(w, &http.Cookie{Name: ga4StateCookie, Value: state, Path: ga4CookiePath,
			MaxAge: 600, HttpOnly: true, Secure: isHTTPS(r), SameSite: http.SameSiteLaxMode})
		http.Redirect(w, r, res.GetAuthorizeUrl(), http.StatusFound)
	})
	root.HandleFunc("GET "+ga4CookiePath+"/callback", func(w http.ResponseWriter, r *http.Request) {
		var browserState string
		if c, err := r.Cookie(ga4StateCookie); err == nil {
			browserState = c.Value
		}
		res, err := stores.CompleteGA4Connect(r.Context(), &storesv1.CompleteGA4ConnectRequest{
			RawQuery: r.URL.RawQuery, BrowserState: browserState,
		})
		if err != nil {
			back(w, r, unavailableMessage)
			return
		}
		http.SetCookie(w, &http.Cookie{Name: ga4StateCookie, Value: "", Path: ga4CookiePath, MaxAge: -1,
			HttpOnly: true, Secure: isHTTPS(r), SameSite: http.SameSiteLaxMode})
		http.Redirect(w, r, res.GetRedirectUrl(), http.StatusFound)
	})
}
