package gateway

import (
	"context"
	"net/http"

	storesv1 "uplift.dev/proto/gen/uplift/stores/v1"
)

// ga4StateCookie binds a Google OAuth state to the browser that started
// connecting Google Analytics 4, as shopifyStateCookie does for Shopify.
const ga4StateCookie = "uplift_ga4_state"

// ga4CookiePath limits the cookie to the two OAuth routes.
const ga4CookiePath = "/connections/ga4"

// mountGA4 adds the routes the browser reaches directly while connecting
// Google Analytics 4: the start of Google's OAuth flow and its callback.
// The stores service checks the one-use state, the cookie and (with
// Google) the PKCE verifier.
func mountGA4(root *http.ServeMux, stores storesv1.StoresServiceClient, webURL string) {
	oauthRoutes{platform: "ga4", path: ga4CookiePath, cookie: ga4StateCookie,
		authorize: func(ctx context.Context, state string) (string, error) {
			res, err := stores.AuthorizeGA4(ctx, &storesv1.AuthorizeGA4Request{State: state})
			return res.GetAuthorizeUrl(), err
		},
		complete: func(ctx context.Context, rawQuery, browserState string) (string, error) {
			res, err := stores.CompleteGA4Connect(ctx, &storesv1.CompleteGA4ConnectRequest{
				RawQuery: rawQuery, BrowserState: browserState,
			})
			return res.GetRedirectUrl(), err
		},
	}.mount(root, webURL)
}
