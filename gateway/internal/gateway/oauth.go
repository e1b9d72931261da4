package gateway

import (
	"context"
	"net/http"
	"net/url"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// oauthRoutes are the two routes a browser reaches while connecting a
// platform by OAuth (Shopify, Google Analytics 4): /authorize sets a
// cookie binding the one-use state to this browser and sends it to the
// platform; /callback hands the platform's answer and that cookie to the
// stores service, which checks them, and follows its redirect. They carry
// no bearer token.
type oauthRoutes struct {
	platform string // the web's query key on an error: /connections?<platform>=error
	path     string // the routes' prefix, and the cookie's path
	cookie   string
	// authorize answers the platform's authorize URL for a state;
	// NotFound carries a message for the person.
	authorize func(ctx context.Context, state string) (string, error)
	// complete answers where the browser goes once the connection is made.
	complete func(ctx context.Context, rawQuery, browserState string) (string, error)
}

func (o oauthRoutes) mount(root *http.ServeMux, webURL string) {
	root.HandleFunc("GET "+o.path+"/authorize", func(w http.ResponseWriter, r *http.Request) {
		state := r.URL.Query().Get("state")
		to, err := o.authorize(r.Context(), state)
		if status.Code(err) == codes.NotFound {
			redirectToWeb(w, r, webURL, o.platform, status.Convert(err).Message())
			return
		}
		if err != nil {
			redirectToWeb(w, r, webURL, o.platform, unavailableMessage)
			return
		}
		http.SetCookie(w, o.stateCookie(r, state, 600))
		http.Redirect(w, r, to, http.StatusFound)
	})
	root.HandleFunc("GET "+o.path+"/callback", func(w http.ResponseWriter, r *http.Request) {
		var browserState string
		if c, err := r.Cookie(o.cookie); err == nil {
			browserState = c.Value
		}
		to, err := o.complete(r.Context(), r.URL.RawQuery, browserState)
		if err != nil {
			// A person's browser is on this route: send it back to the app
			// with a message rather than showing it a JSON error.
			redirectToWeb(w, r, webURL, o.platform, unavailableMessage)
			return
		}
		http.SetCookie(w, o.stateCookie(r, "", -1))
		http.Redirect(w, r, to, http.StatusFound)
	})
}

func (o oauthRoutes) stateCookie(r *http.Request, value string, maxAge int) *http.Cookie {
	return &http.Cookie{Name: o.cookie, Value: value, Path: o.path, MaxAge: maxAge,
		HttpOnly: true, Secure: isHTTPS(r), SameSite: http.SameSiteLaxMode}
}

// redirectToWeb sends the browser back to Connections with a message, for
// the routes a person's browser is on (an expired or reused link, a
// failed connection). The web address is configured, never taken from the
// request.
func redirectToWeb(w http.ResponseWriter, r *http.Request, webURL, platform, message string) {
	http.Redirect(w, r, strings.TrimRight(webURL, "/")+"/connections?"+
		url.Values{platform: {"error"}, "message": {message}}.Encode(), http.StatusFound)
}
